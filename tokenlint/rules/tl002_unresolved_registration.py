"""TL002 unresolved-registration."""

from __future__ import annotations

from tokenlint.model import Finding, Invalid, Risk, Valid
from tokenlint.rules.base import Rule


class UnresolvedRegistration(Rule):
    """## What it does
    Reports a place where an MCP server registers tools that tokenlint cannot resolve: a
    registration call whose function it cannot find (`mcp.tool()(make_tool())`, a callable
    from a plugin loader), a low-level `call_tool` handler dispatching on the tool name to
    objects that are not listed anywhere it can read, or a write into the server's tool table
    from an unknown iterable, or a server whose tools are generated at run time
    (`FastMCP.from_openapi(spec, client)`, `FastMCP.from_fastapi(app)`), a `@x.tool()` decorator
    in a module of an MCP SDK whose `x` it cannot trace to a server, or a module that answers the
    JSON-RPC method `"tools/call"` itself with no SDK. Tool discovery follows names, imports, loops over literal lists
    and tuples, wrappers (`functools.partial`, decorator factories), bound methods, registries
    of handler objects and tool classes; this rule fires where all of that runs out.

    ## Why is this bad?
    A tool tokenlint does not find is a tool it does not check: without this diagnostic a
    server whose registration it does not understand would get an empty report and pass CI.

    ## Example
    ```python
    from mcp.server.fastmcp import FastMCP
    from plugins import load_plugins

    mcp = FastMCP("db")
    for plugin in load_plugins():
        mcp.add_tool(plugin.entry_point())
    ```

    ## Fix
    Register the functions where tokenlint can follow them (a decorator, or a loop over a
    literal list of functions or `(function, name)` tuples), or check the tools it cannot see
    by hand and suppress the line with `# tokenlint: ignore[TL002]`.
    """

    code = "TL002"
    name = "unresolved-registration"
    summary = "A tool registration whose functions tokenlint cannot resolve (those tools go unchecked)"
    cwe = None
    VALID = [
        Valid(
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('x')\n"
            "def ping() -> str:\n"
            "    return 'pong'\n"
            "for fn, name in [(ping, 'ping_tool')]:\n"
            "    mcp.add_tool(fn, name=name)\n"
        )
    ]
    INVALID = [
        Invalid(
            "from mcp.server.fastmcp import FastMCP\n"
            "from plugins import load_plugins\n"
            "mcp = FastMCP('x')\n"
            "for plugin in load_plugins():\n"
            "    mcp.add_tool(plugin.entry_point())\n",
            ("TL002@5",),
        )
    ]

    @classmethod
    def finding(cls, path: str, line: int, column: int, reason: str) -> Finding:
        """The TL002 finding at a registration site (1-based line and column)."""
        return Finding(cls.code, cls.name, path, line, column,
                       f"unresolved tool registration: {reason}; its tools are not checked", None, Risk.HIGH)
