"""TL103 unbounded-listing."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules._source import SourceRule


class UnboundedListing(SourceRule):
    """## What it does
    Finds directory listings returned whole: `os.walk`, `os.listdir`, `os.scandir`,
    `glob.glob`, `Path.glob`, `Path.rglob`, `Path.iterdir`.

    ## Why is this bad?
    A recursive walk of a repository with `node_modules` or a data directory lists hundreds of
    thousands of paths; the tool call fails at the client's cap or floods the context.

    ## Example
    ```python
    @mcp.tool()
    def list_files(root: str) -> list[str]:
        return [str(p) for p in Path(root).rglob("*")]
    ```

    ## Fix
    Page the listing (`fit_response` and a `cursor` parameter), or list one
    directory level with a clamped `limit` and an `offset`.

    ## References
    - [Claude Code: MCP output limits](https://code.claude.com/docs/en/mcp)
    """

    code = "TL103"
    name = "unbounded-listing"
    summary = "`os.walk`, `os.listdir`, `scandir`, `glob`, `Path.rglob` / `iterdir` returned whole"
    noun = "every entry of a directory listing"
    VALID = [
        Valid(
            "import os\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('files')\n"
            "@mcp.tool()\n"
            "def has_files(root: str) -> bool:\n"
            "    return any(os.listdir(root))\n"
        ),
    ]
    INVALID = [
        Invalid(
            "from pathlib import Path\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('files')\n"
            "@mcp.tool()\n"
            "def list_files(root: str) -> list[str]:\n"
            "    return [str(p) for p in Path(root).rglob('*')]\n",
            ("TL103@6", "TL201@6"),
        ),
    ]
