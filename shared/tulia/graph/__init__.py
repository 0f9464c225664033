"""The conversation engine: state, routing rules and (with the engine issue) the LangGraph graph."""
