"""TL001 parse-error."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules.base import Rule


class ParseError(Rule):
    """## What it does
    Reports a file that tokenlint could not analyse: a syntax error, bytes that are not valid in
    the file's encoding (UTF-8, or the PEP 263 coding declaration), a binary file, or a file too
    large to parse. The run goes on with the other files.

    ## Why is this bad?
    A file that cannot be parsed cannot be checked: every tool in it goes unreviewed.

    ## Example
    ```python
    from mcp.server.fastmcp import FastMCP
    mcp = FastMCP("db")
    @mcp.tool()
    def query(sql: str)
        ...
    ```

    ## Fix
    Fix the syntax error, or declare the file's encoding with a `# -*- coding: ... -*-` line.

    ## References
    - [PEP 263 – Defining Python Source Code Encodings](https://peps.python.org/pep-0263/)
    """

    code = "TL001"
    name = "parse-error"
    summary = "A file that cannot be parsed: bad syntax or encoding, binary, too large or deep (the run goes on)"
    cwe = None
    VALID = [Valid("from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\n")]
    INVALID = [Invalid("from mcp.server.fastmcp import FastMCP\nmcp = FastMCP('x')\ndef f(:\n    pass\n", ("TL001@3",))]
