"""TL102 whole-file-read."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules._source import SourceRule


class WholeFileRead(SourceRule):
    """## What it does
    Finds files read whole into a tool's response: `f.read()` with no size, `Path.read_text()`,
    `read_bytes()`, `readlines()`, iterating every line, `json.load(f)`.

    ## Why is this bad?
    Files have no size the tool controls. A 20,000-line log is about 90,000 tokens: over Claude
    Code's 25,000-token refusal limit and far over its 10,000-token warning.

    ## Example
    ```python
    @mcp.tool()
    def read_file(path: str) -> str:
        return Path(path).read_text()
    ```

    Use instead:
    ```python
    @mcp.tool()
    def read_file(path: str, cursor: str | None = None) -> str:
        text = Path(path).read_text()
        return fit_response(text, tool="read_file", arguments={"path": path}, cursor=cursor)
    ```

    ## Fix
    `tokenlint.runtime.fit_response` serves the text in pages cut at line boundaries, each with a footer and a
    `next_action` that reads the next page.

    ## References
    - [Claude Code: MCP output limits](https://code.claude.com/docs/en/mcp)
    """

    code = "TL102"
    name = "whole-file-read"
    summary = "`read()`, `read_text()`, `readlines()` of a file of unknown size"
    noun = "a whole file"
    VALID = [
        Valid(
            "from pathlib import Path\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('files')\n"
            "@mcp.tool()\n"
            "def file_size(path: str) -> int:\n"
            "    return len(Path(path).read_text())\n"
        ),
    ]
    INVALID = [
        Invalid(
            "from pathlib import Path\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('files')\n"
            "@mcp.tool()\n"
            "def read_file(path: str) -> str:\n"
            "    with open(path) as f:\n"
            "        return f.read()\n",
            ("TL102@7", "TL201@7"),
        ),
    ]
