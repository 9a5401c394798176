"""Client limits on tool results, and the runtime's defaults derived from them.

Every number carries its unit in its name and its source in a comment (``field.md`` section 2 of the
tokenlint design notes collects the sources).
"""

from __future__ import annotations

#: Claude Code shows "Large MCP response (~10.3k tokens), this can fill up context quickly" above
#: 10,000 tokens (https://code.claude.com/docs/en/mcp ; https://github.com/laravel/boost/issues/290).
#: The default budget of one tool response, in tokens.
DEFAULT_MAX_RESPONSE_TOKENS = 10_000

#: Claude Code refuses MCP tool output above ``MAX_MCP_OUTPUT_TOKENS``, default 25,000 tokens
#: (https://code.claude.com/docs/en/mcp ; https://github.com/anthropics/claude-code/issues/6158).
CLAUDE_CODE_MAX_OUTPUT_TOKENS = 25_000

#: Claude Code persists results above 50,000 characters to disk and shows the model a 2 KB preview
#: (anthropics/claude-code CHANGELOG 2.1.51).
CLAUDE_CODE_PERSIST_CHARS = 50_000

#: OpenAI Codex CLI cuts tool output at 10 KiB or 256 lines
#: (https://github.com/openai/codex/issues/5913).
CODEX_MAX_OUTPUT_BYTES = 10 * 1024
CODEX_MAX_OUTPUT_LINES = 256

#: GitHub Copilot CLI cuts MCP text at 10 KB (https://github.com/github/copilot-cli/issues/1732).
COPILOT_CLI_MAX_OUTPUT_BYTES = 10 * 1024

#: Claude Desktop: "Tool result is too large. Maximum size is 1MB."
#: (https://github.com/anthropics/claude-code/issues/66519).
CLAUDE_DESKTOP_MAX_RESULT_BYTES = 1_000_000

#: Progressive reduction tries pages of these many records, largest first (design.md).
DEFAULT_PAGE_SIZES = (50, 40, 30, 20, 10)

#: How long a cursor (and the stored result behind it) stays valid, in seconds (design.md: 10 min).
DEFAULT_CURSOR_TTL_SECONDS = 600

#: A text page is cut at a paragraph, line or word boundary at most this many characters before
#: the point where the budget runs out.
BOUNDARY_WINDOW_CHARS = 200
