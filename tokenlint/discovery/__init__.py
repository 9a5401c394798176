"""Tool discovery: every MCP tool a client can call, with the name the client sees.

Two families (one module each):

- ``fastmcp``: decorator and registration APIs of ``mcp.server.fastmcp.FastMCP`` (mcp 1.x),
  ``mcp.server.mcpserver.MCPServer`` (mcp 2.x) and standalone ``fastmcp.FastMCP``, including
  ``mount``/``import_server`` prefixes.
- ``lowlevel``: ``mcp.server.lowlevel.Server`` with one ``call_tool`` handler whose branches on the
  tool name are the tools (``if``/``elif``, ``match``, enum members, a dict or list of handlers).

Names are resolved through the module's import table (``tokenlint.source.imports``), never by spelling:
a home-made ``FastMCP`` class is not an MCP server.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Sequence

import libcst as cst

from tokenlint.source.project import ParsedModule

#: Qualified class names → framework label used in reports.
SERVER_CLASSES: dict[str, str] = {
    "mcp.server.fastmcp.FastMCP": "mcp-fastmcp",
    "mcp.server.fastmcp.server.FastMCP": "mcp-fastmcp",
    "mcp.server.FastMCP": "mcp-fastmcp",
    "mcp.server.mcpserver.MCPServer": "mcp-mcpserver",
    "mcp.server.mcpserver.server.MCPServer": "mcp-mcpserver",
    "mcp.server.MCPServer": "mcp-mcpserver",
    "mcp.MCPServer": "mcp-mcpserver",
    "fastmcp.FastMCP": "fastmcp",
    "fastmcp.server.FastMCP": "fastmcp",
    "fastmcp.server.server.FastMCP": "fastmcp",
    # fastmcp 3.x tool containers a server serves (``mcp.add_provider(p)``, ``FastMCP(providers=
    # [...])``): their ``@app.tool`` functions are tools the client sees
    "fastmcp.FastMCPApp": "fastmcp",
    "fastmcp.apps.FastMCPApp": "fastmcp",
    "fastmcp.apps.app.FastMCPApp": "fastmcp",
    "fastmcp.server.providers.LocalProvider": "fastmcp",
    "fastmcp.server.providers.local_provider.LocalProvider": "fastmcp",
    "fastmcp.server.providers.local_provider.local_provider.LocalProvider": "fastmcp",
    "mcp.server.lowlevel.Server": "mcp-lowlevel",
    "mcp.server.lowlevel.server.Server": "mcp-lowlevel",
    "mcp.server.Server": "mcp-lowlevel",
}

#: Framework label for a server object whose class cannot be resolved (a ``register(mcp)``
#: function parameter without annotation, in a module that imports an MCP SDK).
UNRESOLVED_FRAMEWORK = "fastmcp-compatible"


class ArgsStyle(str, enum.Enum):
    """How the model's arguments reach a tool: ``SIGNATURE``, as the function's parameters
    (FastMCP and friends); ``MAPPING``, as one ``arguments`` dict (a low-level dispatch branch).
    A ``str`` enum: it compares equal to ``"signature"`` / ``"mapping"``."""

    SIGNATURE = "signature"
    MAPPING = "mapping"


@dataclass(eq=False)
class ToolDef:
    """One discovered tool.

    ``func`` is the function holding the tool's code (for a dispatch branch: the handler);
    ``body`` the statements that produce its response (the function body, or the branch's
    statements); ``anchor`` the node whose line is the tool's line; ``suppress_nodes`` the
    nodes whose lines may carry a whole-tool suppression (def, decorators, branch).
    ``args_style`` says how the model's arguments arrive (``ArgsStyle``).
    """

    name: str
    function: str
    framework: str
    module: ParsedModule
    func: cst.FunctionDef
    body: Sequence[cst.BaseStatement]
    anchor: cst.CSTNode
    server_id: str | None
    args_style: ArgsStyle = ArgsStyle.SIGNATURE
    suppress_nodes: list[cst.CSTNode] = field(default_factory=list)
    decorator: cst.CSTNode | None = None
    class_name: str | None = None
    #: ``body`` is one generic path of a low-level handler that serves this tool and others
    #: (the names no dispatch branch selects): the name called is known only at run time
    shared_body: bool = False


def function_body(fn: cst.FunctionDef) -> Sequence[cst.BaseStatement]:
    """The statements of ``fn``'s body: its indented block's statements, or for a one-line
    ``def f(): return x`` the ``SimpleStatementSuite`` itself as the one element (as
    ``analysis.values.body_of``)."""
    if isinstance(fn.body, cst.IndentedBlock):
        return fn.body.body
    return [fn.body]  # type: ignore[list-item]
