"""Language models behind the engine: prompts, the chat-model client, the scripted model of tests."""
