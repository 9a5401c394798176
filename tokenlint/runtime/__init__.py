"""Runtime imported by rewritten MCP servers (standard library only)."""
