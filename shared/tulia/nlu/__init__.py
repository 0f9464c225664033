"""Understanding: the fast path (no model) and the engines that classify intent, language and
conversation governance behind one interface."""
