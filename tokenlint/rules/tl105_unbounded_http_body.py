"""TL105 unbounded-http-body."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules._source import SourceRule


class UnboundedHttpBody(SourceRule):
    """## What it does
    Finds HTTP bodies returned whole: `requests`/`httpx` `.text`, `.content`, `.json()`,
    aiohttp `await resp.text()` / `.json()`, `urlopen(...).read()`.

    ## Why is this bad?
    An API listing or a web page is as large as the server makes it. Proxying it straight to the
    model hands the remote server control of your context window.

    ## Example
    ```python
    @mcp.tool()
    def list_issues(repo: str) -> dict:
        return httpx.get(f"https://api.example.com/repos/{repo}/issues").json()
    ```

    ## Fix
    Request one page (`per_page`, `page`) and return the next page's token, or let
    page the body with `tokenlint.runtime.fit_response`.

    ## References
    - [Claude Code: MCP output limits](https://code.claude.com/docs/en/mcp)
    """

    code = "TL105"
    name = "unbounded-http-body"
    summary = "`requests` / `httpx` / `aiohttp` `.text`, `.json()`, `.content` returned whole"
    noun = "a whole HTTP body"
    VALID = [
        Valid(
            "import httpx\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('api')\n"
            "@mcp.tool()\n"
            "def ping(url: str) -> int:\n"
            "    return httpx.get(url).status_code\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import httpx\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('api')\n"
            "@mcp.tool()\n"
            "def list_issues(repo: str) -> dict:\n"
            "    resp = httpx.get(f'https://api.example.com/repos/{repo}/issues')\n"
            "    return resp.json()\n",
            ("TL105@7", "TL201@7"),
        ),
    ]
