"""tokenlint: find MCP tools whose responses grow with data, rate their risk, and fix them."""

__version__ = "0.1.0"
