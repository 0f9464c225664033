"""The 15 tools of the spec (section 5.2) and their registry."""
