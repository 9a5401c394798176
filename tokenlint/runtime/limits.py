"""Client limits on tool results, and the runtime's defaults derived from them.

Every number carries its unit in its name and its source in a comment (``field.md`` section 2 of the
tokenlint design notes collects the sources).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

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
#: Codex's GPT-5.2 harness truncates at ``TruncationPolicy::Bytes(10_000)``, a little tighter
#: (https://github.com/openai/codex/issues/7906).
CODEX_GPT52_MAX_OUTPUT_BYTES = 10_000

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


#: The environment variable with which a server's operator picks the client profile at run time.
CLIENT_ENV = "TOKENLINT_CLIENT"


@dataclass(frozen=True)
class ClientProfile:
    """What one MCP client accepts in one tool result: a set of limits, the tightest binding.

    ``max_tokens`` (cl100k tokens), ``max_chars`` (Unicode characters), ``max_bytes`` (UTF-8
    bytes), ``max_lines`` (lines: newlines + 1); None = the client sets no such limit. Each
    number is a documented limit of that client (field.md section 2; the sources are next to the
    constants above). A page must satisfy every limit in every form the SDK sends it: the text
    block(s) and the serialized ``structuredContent``.
    """

    name: str
    max_tokens: int | None = None
    max_chars: int | None = None
    max_bytes: int | None = None
    max_lines: int | None = None

    @property
    def has_size_limits(self) -> bool:
        """Whether any limit other than tokens is set."""
        return bool(self.max_chars or self.max_bytes or self.max_lines)

    def budget_tokens(self, max_tokens: int) -> int:
        """The tighter of ``max_tokens`` (the code's budget, tokens) and this profile's tokens."""
        return min(max_tokens, self.max_tokens) if self.max_tokens else max_tokens

    def describe(self) -> str:
        """The limits as one line, e.g. ``"10,240 bytes or 256 lines"`` (units named)."""
        parts = [f"{v:,} {unit}" for v, unit in ((self.max_tokens, "tokens"),
                 (self.max_chars, "chars"), (self.max_bytes, "bytes"), (self.max_lines, "lines"))
                 if v]
        return " or ".join(parts)


#: The client profiles by name. Claude Code: warns above 10,000 tokens (it refuses only above
#: 25,000, so the warning binds) and persists results above 50,000 chars to disk, showing a 2 KB
#: preview. Codex: 10 KiB or 256 lines, and 10,000 bytes in the GPT-5.2 harness: the tightest,
#: 10,000 bytes, binds. Copilot CLI: 10 KB (``10*1024`` bytes). Claude Desktop: about 1 MB. Generic:
#: the default budget (10,000 tokens), no size limits.
PROFILES: dict[str, ClientProfile] = {
    "claude-code": ClientProfile("claude-code", max_tokens=DEFAULT_MAX_RESPONSE_TOKENS,
                                 max_chars=CLAUDE_CODE_PERSIST_CHARS),
    "codex": ClientProfile("codex", max_bytes=min(CODEX_MAX_OUTPUT_BYTES,
                                                  CODEX_GPT52_MAX_OUTPUT_BYTES),
                           max_lines=CODEX_MAX_OUTPUT_LINES),
    "copilot-cli": ClientProfile("copilot-cli", max_bytes=COPILOT_CLI_MAX_OUTPUT_BYTES),
    "claude-desktop": ClientProfile("claude-desktop", max_bytes=CLAUDE_DESKTOP_MAX_RESULT_BYTES),
    "generic": ClientProfile("generic", max_tokens=DEFAULT_MAX_RESPONSE_TOKENS),
}


def _named(name: str, source: str) -> ClientProfile | None:
    name = name.strip().lower()
    if not name:
        return None
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"{source}={name!r}: unknown client profile; known: "
                         + ", ".join(sorted(PROFILES))) from None


def tightest(*profiles: ClientProfile | None) -> ClientProfile | None:
    """One profile holding, per unit, the smallest limit of ``profiles`` (None entries skipped;
    None when all are None)."""
    given = [p for p in profiles if p is not None]
    if len(given) <= 1:
        return given[0] if given else None

    def low(attr: str) -> int | None:
        values = [getattr(p, attr) for p in given if getattr(p, attr)]
        return min(values) if values else None

    return ClientProfile("+".join(p.name for p in given), max_tokens=low("max_tokens"),
                         max_chars=low("max_chars"), max_bytes=low("max_bytes"),
                         max_lines=low("max_lines"))


def client_profile(client: "str | ClientProfile | None" = None) -> ClientProfile | None:
    """The limits a page must keep: the profile ``client`` names (the one ``tokenlint fix
    --client`` wrote into the code) together with the one the environment variable
    ``TOKENLINT_CLIENT`` names (the server operator's choice), the tightest of both binding per
    unit; None when neither is given (no limits beyond the code's token budget, as ``generic``).

    Raises ``ValueError`` naming the known profiles for an unknown name.
    """
    coded = client if isinstance(client, ClientProfile) else _named(client or "", "client")
    return tightest(coded, _named(os.environ.get(CLIENT_ENV, ""), CLIENT_ENV))
