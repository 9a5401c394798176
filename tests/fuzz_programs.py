"""Hypothesis strategies for MCP server programs in the fixtures' shapes, with generated bodies.

``servers()`` draws one module: a framework (mcp 1.x ``FastMCP``, mcp 2.x ``MCPServer``,
standalone ``fastmcp``, or a low-level ``Server`` with an ``if``/``elif`` or ``match`` dispatch),
one to four tools and filler code between them (helpers, constants, comments with odd
characters, trailing whitespace), optionally with CRLF line endings. Each tool's body is drawn
from the pieces real servers are made of: whole query results (``fetchall``, a DB ``cursor``
local), file reads, directory listings, process output, HTTP bodies, loops that append,
comprehensions, slices, caller limits, early returns, and returns of the data, of
``json.dumps``, of dicts holding it, of ``TextContent`` lists and of joined text.

The programs need not be runnable; they must be valid Python (``compile`` accepts them), and
the tests in ``test_fuzz.py`` say what ``check`` and ``fix`` must do with any of them.
"""

from __future__ import annotations

from hypothesis import strategies as st

IDENT = st.sampled_from(["rows", "data", "items", "result", "out", "records", "text", "payload"])
TOOL_NAMES = st.lists(
    st.from_regex(r"[a-z][a-z_]{2,10}", fullmatch=True).filter(lambda s: not s.endswith("_")),
    min_size=1, max_size=4, unique=True,
).map(lambda names: [f"t_{n}" for n in names])

FRAMEWORKS = {
    "fastmcp1": ("from mcp.server.fastmcp import Context, FastMCP", "mcp = FastMCP({name!r})"),
    "mcpserver2": ("from mcp.server.mcpserver import Context, MCPServer", "mcp = MCPServer({name!r})"),
    "fastmcp": ("from fastmcp import Context, FastMCP", "mcp = FastMCP({name!r})"),
}

IMPORTS = """\
import json
import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import requests
"""

# (statement lines that bind $VAR, parameters or argument keys they read); $Q, $PATH, $URL,
# $LIMIT, $OFFSET become parameters (or `arguments[...]` in low-level branches)
SOURCES: list[tuple[str, tuple[str, ...]]] = [
    ('$VAR = sqlite3.connect("app.db").execute("SELECT * FROM orders").fetchall()', ()),
    ('$VAR = conn().execute("SELECT * FROM t WHERE q = ?", ($Q,)).fetchall()', ("q",)),
    ('cursor = conn().cursor()\ncursor.execute("SELECT * FROM logs")\nVAR = cursor.fetchall()', ()),
    ("with open($PATH) as fh:\n    $VAR = fh.read()", ("path",)),
    ("$VAR = Path($PATH).read_text()", ("path",)),
    ("$VAR = os.listdir($PATH)", ("path",)),
    ("$VAR = sorted(str(p) for p in Path($PATH).rglob('*'))", ("path",)),
    ('$VAR = subprocess.run(["git", "log"], capture_output=True, text=True).stdout', ()),
    ("$VAR = requests.get($URL).json()", ("url",)),
    ("$VAR = requests.get($URL, timeout=10).text", ("url",)),
    ('$VAR = []\nfor row in conn().execute("SELECT * FROM t"):\n    $VAR.append(dict(row))', ()),
    ('$VAR = [dict(r) for r in conn().execute("SELECT * FROM t")]', ()),
    ('$VAR = {"status": "ok", "version": 3}', ()),
    ('$VAR = conn().execute("SELECT * FROM t LIMIT 50").fetchall()', ()),
    ('$VAR = conn().execute("SELECT * FROM t").fetchmany($LIMIT)', ("limit",)),
]

TRANSFORMS: list[tuple[str, tuple[str, ...]]] = [
    ("$VAR = $VAR[:50]", ()),
    ("$VAR = $VAR[:$LIMIT]", ("limit",)),
    ("$VAR = $VAR[$OFFSET:$OFFSET + $LIMIT]", ("offset", "limit")),
    ("$VAR = [str(x) for x in $VAR]", ()),
    ("# a comment with odd characters: é ñ 漢字 \\t ✓", ()),
    ("$VAR = list($VAR)  # keep it a list", ()),
    ("if not $VAR:\n    return $EMPTY", ()),
    ("if $Q == 'none':\n    return {'error': 'nothing'}", ("q",)),
    ("for _ in range(3):\n    pass", ()),
]

RETURNS = [
    "return $VAR",
    "return json.dumps($VAR)",
    "return json.dumps($VAR, indent=2, default=str)",
    'return {"rows": $VAR, "count": len($VAR)}',
    "return $VAR[:50]",
    'return "\\n".join(map(str, $VAR))',
    "return str($VAR)",
    "return [TextContent(type='text', text=json.dumps($VAR))]",
    "return [TextContent(type='text', text=str($VAR))]",
    "return (\n    $VAR  # the data\n)",
]

LOWLEVEL_RETURNS = [
    'return [types.TextContent(type="text", text=json.dumps($VAR))]',
    'return [types.TextContent(type="text", text=json.dumps($VAR, default=str))]',
    'return [types.TextContent(type="text", text=str($VAR))]',
    'return [types.TextContent(type="text", text="\\n".join(map(str, $VAR)))]',
    "return text_result(str($VAR))",
    "return text_result(json.dumps($VAR))",
]

ANNOTATIONS = ["", " -> list", " -> list[dict]", " -> dict", " -> dict[str, Any]", " -> str", " -> Any",
               " -> list[TextContent]", " -> int", " -> 'list[dict]'"]

PARAM_FORMS = {
    "q": ["q: str", "q"],
    "path": ["path: str", "path: str = '.'"],
    "url": ["url: str"],
    "limit": ["limit: int = 100", "limit: int | None = None", "limit: int"],
    "offset": ["offset: int = 0"],
}

FILLER = [
    "",
    "# ---- helpers ----   ",
    "CONSTANT = 10_000\t# tab before the comment",
    "def conn():\n    return sqlite3.connect('app.db')",
    "def text_result(text):\n    return [TextContent(type='text', text=text)]",
    "class Model:\n    '''A docstring with \\u00e9 and \"quotes\".'''\n    x: int = 1",
    "if __debug__:\n    DEBUG = True\nelse:  # trailing spaces   \n    DEBUG = False",
    "lam = lambda cursor: cursor  # a name the codemod must leave alone",
    "s = '''multi\nline   \n  string'''",
    "x = [\n    1,\n    2,  # two\n]",
    "async def not_a_tool(cursor=None):\n    return cursor",
    "# π ≈ 3.14159, emoji 🚀, zero-width\u200bspace",
]


def _indent(text: str, prefix: str) -> str:
    return "\n".join(prefix + line if line else line for line in text.split("\n"))


def _fill(template: str, var: str, mapping: bool) -> str:
    def arg(name: str) -> str:
        return f'arguments["{name}"]' if mapping else name

    out = template.replace("$VAR", var).replace("$EMPTY", '[types.TextContent(type="text", text="")]'
                                                if mapping else "[]")
    for key in ("Q", "PATH", "URL", "LIMIT", "OFFSET"):
        out = out.replace("$" + key, arg(key.lower()))
    return out


@st.composite
def tool_body(draw, mapping: bool) -> tuple[str, list[str]]:
    """(body lines at indent 0, parameter names it reads)."""
    var = draw(IDENT)
    needs: list[str] = []
    parts: list[str] = []
    for template, params in [draw(st.sampled_from(SOURCES))] + draw(st.lists(st.sampled_from(TRANSFORMS),
                                                                           max_size=3)):
        parts.append(_fill(template, var, mapping))
        needs += [p for p in params if p not in needs]
    rets = draw(st.lists(st.sampled_from(LOWLEVEL_RETURNS if mapping else RETURNS), min_size=1, max_size=2))
    if len(rets) == 2:
        cond = 'arguments.get("raw")' if mapping else "len(" + var + ") > 3"
        parts.append(f"if {cond}:\n" + _indent(_fill(rets[0], var, mapping), "    "))
    parts.append(_fill(rets[-1], var, mapping))
    return "\n".join(parts), needs


@st.composite
def signature_tool(draw, framework: str, name: str) -> str:
    body, needs = draw(tool_body(mapping=False))
    params = [draw(st.sampled_from(PARAM_FORMS[p])) for p in needs]
    params = [p for p in params if "=" not in p] + [p for p in params if "=" in p]
    extra = draw(st.sampled_from(["", "ctx: Context", "*, verbose: bool = False", "**kwargs", "cursor: str = ''"]))
    if extra.startswith("ctx"):
        params.insert(0, extra)
    elif extra:
        params.append(extra)
    sig = ", ".join(params)
    if draw(st.booleans()) and params:
        sig = "\n" + ",\n".join("    " + p for p in params) + ",\n"
    ann = draw(st.sampled_from(ANNOTATIONS))
    is_async = draw(st.booleans())
    doc = draw(st.sampled_from(["", f'"""Tool {name}: returns data."""\n']))
    form = draw(st.sampled_from(["@mcp.tool()", "@mcp.tool", "@mcp.tool(name={n!r})", "add_tool",
                                 "call_form"]))
    head = f"{'async ' if is_async else ''}def {name}({sig}){ann}:\n"
    fn = head + _indent(doc + body, "    ")
    if form == "add_tool":
        return fn + f"\n\n\nmcp.add_tool({name}, name={name + '_x'!r})"
    if form == "call_form":
        return fn + f"\n\n\nmcp.tool(name={name + '_y'!r})({name})"
    return form.format(n=name + "_z") + "\n" + fn


@st.composite
def lowlevel_server(draw, names: list[str]) -> tuple[str, str]:
    """(list_tools + call_tool text, the imports it needs)."""
    schemas = []
    branches = []
    match = draw(st.booleans())
    for n in names:
        body, needs = draw(tool_body(mapping=True))
        props = ", ".join(f'"{p}": {{"type": "string"}}' for p in needs)
        schema = f'{{"type": "object", "properties": {{{props}}}}}'
        if draw(st.booleans()):
            schemas.append(f"        types.Tool(name={n!r}, description='Tool {n}.', inputSchema={schema}),")
        else:
            schemas.append(f"        types.Tool(\n            name={n!r},\n            inputSchema={schema},\n"
                           f"        ),")
        if match:
            branches.append(f"        case {n!r}:\n" + _indent(body, "            "))
        else:
            kw = "if" if not branches else "elif"
            branches.append(f"    {kw} name == {n!r}:\n" + _indent(body, "        "))
    dispatch = ("    match name:\n" + "\n".join(branches) + "\n        case _:\n            raise ValueError(name)"
                if match else "\n".join(branches) + "\n    raise ValueError(name)")
    code = (
        "@server.list_tools()\n"
        "async def list_tools() -> list[types.Tool]:\n"
        "    return [\n" + "\n".join(schemas) + "\n    ]\n\n\n"
        "@server.call_tool()\n"
        "async def call_tool(name: str, arguments: dict) -> list[types.TextContent]:\n" + dispatch
    )
    return code, "import mcp.types as types\nfrom mcp.server.lowlevel import Server\nfrom mcp.types import TextContent"


@st.composite
def servers(draw) -> bytes:
    """One MCP server module, as the bytes of a file (UTF-8, LF or CRLF)."""
    framework = draw(st.sampled_from([*FRAMEWORKS, "lowlevel"]))
    names = draw(TOOL_NAMES)
    chunks: list[str] = []
    if draw(st.booleans()):
        chunks.append('"""A generated MCP server."""\n')
    if framework == "lowlevel":
        code, imports = draw(lowlevel_server(names))
        chunks += [IMPORTS + imports, "server = Server('gen')"]
        chunks += draw(st.lists(st.sampled_from(FILLER), max_size=3))
        chunks.append(code)
    else:
        imp, inst = FRAMEWORKS[framework]
        chunks += [IMPORTS + imp + "\nfrom mcp.types import TextContent", inst.format(name="gen")]
        for n in names:
            chunks += draw(st.lists(st.sampled_from(FILLER), max_size=2))
            chunks.append(draw(signature_tool(framework, n)))
    chunks += draw(st.lists(st.sampled_from(FILLER), max_size=2))
    text = "\n\n\n".join(c.rstrip("\n") for c in chunks) + "\n"
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    return text.replace("\n", newline).encode("utf-8")
