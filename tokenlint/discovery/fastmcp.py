"""FastMCP-style tool registration (mcp 1.x FastMCP, mcp 2.x MCPServer, standalone fastmcp).

Forms recognised (``x`` any expression denoting a server object, see ``servers.py``):
``@x.tool``, ``@x.tool()``, ``@x.tool("name")``, ``@x.tool(name="name")``, ``x.add_tool(fn,
name=...)``, ``x.add_tool(Tool.from_function(fn, name=...))``, ``x.tool(fn)``, and the call form
``x.tool(name=...)(fn)`` where ``fn`` may be a bound method (``self.search``, ``repo.search``);
home-made decorators and decorator factories that make one of those registrations with what
they decorate (found where they are applied, in their module or another); fastmcp 3's
standalone ``@tool`` (``fastmcp.tools.tool``), whatever server adds the function.
"""

from __future__ import annotations

import re
import weakref
from typing import cast

import libcst as cst

from tokenlint.discovery import UNRESOLVED_FRAMEWORK, ToolDef, function_body
from tokenlint.discovery.servers import ServerRegistry, _string
from tokenlint.discovery.values import (
    Val,
    Values,
    arguments_env,
    class_derived_name,
    class_of,
    context_of,
    decorator_factory,
    find_method,
    instance_attr,
    returns_nested_def,
    string_value,
    subclasses,
)
from tokenlint.source.functions import parameters
from tokenlint.source.walk import walk
from tokenlint.source.imports import dotted_name
from tokenlint.source.project import ParsedModule, Project


def _tool_name_args(call: cst.Call | None, mod: ParsedModule | None = None) -> str | None:
    """The literal ``name`` of a registration call: a string, or an Enum member of this module
    whose value is one (``name=GitTools.STATUS.value``)."""
    if call is None:
        return None
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "name":
            return _literal_name(arg.value, mod)
    for arg in call.args:
        if arg.keyword is None:
            return _literal_name(arg.value, mod)
    return None


def _literal_name(node: cst.BaseExpression, mod: ParsedModule | None) -> str | None:
    text = _string(node)
    if text is not None or mod is None:
        return text
    dn = dotted_name(node)
    if dn is None:
        return None
    parts = dn.split(".")
    if parts[-1] == "value":
        parts = parts[:-1]
    if len(parts) == 2 and parts[0] in mod.classes:
        from tokenlint.discovery.values import class_string_constant

        return class_string_constant(mod.classes[parts[0]], parts[1])
    return None


def find_fastmcp_tools(mod: ParsedModule, project: Project, servers: ServerRegistry,
                       values: Values | None = None, unresolved: list | None = None) -> list[ToolDef]:
    """All FastMCP-style tools registered in ``mod`` (on servers of any module of the run).

    ``values`` (shared by the modules of a group) follows what a registration call is given;
    a registration whose function cannot be found is appended to ``unresolved`` as
    ``(module, node, reason)`` (the engine reports it as TL002)."""
    values = values or Values(project)
    tools: list[ToolDef] = []
    registered: set[tuple[int, str]] = set()
    name_calls: set[int] = set()  # (``mod.nodes()`` lists a call before the calls inside it)
    for node, cls in mod.nodes():
        if isinstance(node, cst.FunctionDef):
            for dec in node.decorators:
                expr = dec.decorator
                call = expr if isinstance(expr, cst.Call) else None
                target = call.func if call is not None else expr
                server: tuple[str, str] | None
                if mod.imports.qualify(target) in STANDALONE_TOOL_DECORATORS:
                    # fastmcp 3's ``@tool`` marks the function as a tool of whatever server adds
                    # it (``mcp.add_tool(fn)``, a ``FileSystemProvider`` scanning its directory)
                    server = (STANDALONE_SERVER, "fastmcp")
                elif isinstance(target, cst.Attribute) and target.attr.value == "tool":
                    server = servers.server_of(mod, target.value, project, cls) or \
                        _passed_server(mod, project, servers, values, node, target.value)
                    maker = _outside_maker(mod, project, target.value) if server is None else None
                    if maker is not None and unresolved is not None and mod.module_name in servers.sdk_modules:
                        # ``app = make_app(); @app.tool()`` in a module of an MCP SDK: a tool of
                        # a server tokenlint cannot see made (never a silent zero tools)
                        unresolved.append((mod, dec, f"`{_code(mod, target.value)}` in `@{_code(mod, target)}` "
                                           f"is made by `{maker}()`, which tokenlint cannot read"))
                    elif server is None and unresolved is not None and mod.module_name in servers.sdk_modules:
                        # ``@mcp.tool()`` in a module of an MCP SDK on something tokenlint cannot
                        # trace to a server: a tool it does not check (never a silent zero tools)
                        unresolved.append((mod, dec, f"`{_code(mod, target.value)}` in `@{_code(mod, target)}` "
                                           "is not a server object tokenlint can trace"))
                else:
                    server = _forwarded_server(mod, project, servers, target)
                    if server is None:
                        made = _imported_decorator(mod, project, servers, values, node, expr, cls)
                        if made is not None:
                            server, made_name = made
                            tools.append(_make(mod, servers, node, server, made_name or node.name.value, cls, dec))
                            registered.add((id(node), tools[-1].name))
                            break
                if server is None:
                    continue
                name = _tool_name_args(call, mod) or node.name.value
                tools.append(_make(mod, servers, node, server, name, cls, dec))
                registered.add((id(node), tools[-1].name))
                break
        elif isinstance(node, cst.Assign) and isinstance(node.targets[0].target, cst.Subscript):
            for tool in _registry_write(mod, project, servers, values, node, cls, unresolved):
                key = (id(tool.func), tool.name)
                if key not in registered:
                    registered.add(key)
                    tools.append(tool)
        elif isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and \
                node.func.attr.value in _GENERATORS and servers.class_framework(mod, node.func.value):
            # ``FastMCP.from_openapi(spec, client)``: tools made at run time from a spec
            if unresolved is not None:
                unresolved.append((mod, node, f"`{_code(mod, node.func)}` makes its tools at run time "
                                   f"({_GENERATORS[node.func.attr.value]}); tokenlint cannot list them, and "
                                   "each returns a whole HTTP response"))
        elif isinstance(node, cst.Call) and id(node) not in name_calls:
            if isinstance(node.func, cst.Call):
                # ``x.tool(name, **options)(fn)``: the inner call only names the tool
                name_calls.add(id(node.func))
            for tool in _call_registration(mod, project, servers, values, node, cls, unresolved):
                key = (id(tool.func), tool.name)
                if key not in registered:
                    registered.add(key)
                    tools.append(tool)
    return tools


#: The standalone tool decorator of fastmcp 3 (``from fastmcp.tools import tool``): "Standalone
#: decorator to mark a function as an MCP tool. Returns the original function with metadata
#: attached. Register with a server using mcp.add_tool()" (``fastmcp.tools.function_tool.tool``);
#: a ``FileSystemProvider`` registers every function so marked in the files it scans.
STANDALONE_TOOL_DECORATORS = frozenset({"fastmcp.tools.tool", "fastmcp.tools.function_tool.tool"})

#: The server id of tools marked by a standalone decorator (their server is whichever adds them).
STANDALONE_SERVER = "fastmcp.tools.tool()"


#: Server constructors that make one tool per operation of an API at run time (fastmcp).
_GENERATORS = {"from_openapi": "one per operation of an OpenAPI spec",
               "from_fastapi": "one per route of a FastAPI app"}


def _passed_server(mod: ParsedModule, project: Project, servers: ServerRegistry, values: Values,
                   fn: cst.FunctionDef, receiver: cst.BaseExpression) -> tuple[str, str] | None:
    """The server a registration function is handed: ``receiver`` is a parameter of the
    module-level function enclosing ``fn`` (``def register_file_tools(app): @app.tool() ...``,
    in a module that imports no MCP SDK), and a call of that function somewhere in the run passes
    a server object (``register_file_tools(mcp)``). None otherwise."""
    if not isinstance(receiver, cst.Name):
        return None
    scope = context_of(mod, fn)[0]
    if len(scope) != 1 or receiver.value not in _param_names(scope[0]):
        return None
    calls = values.call_envs(mod, scope[0])
    found = _handed_server(project, servers, values, calls, receiver.value)
    if found is not None:
        return found
    if not calls and not _AGENTISH.search(receiver.value):
        # no call of the function can be read (``importlib.import_module(name).register(app)``):
        # ``@app.tool()`` on its parameter registers a tool all the same (outside agent
        # frameworks, only MCP servers have a ``tool`` decorator method)
        return f"{mod.module_name}.{receiver.value}", UNRESOLVED_FRAMEWORK
    return None


def _handed_server(project: Project, servers: ServerRegistry, values: Values, calls, param: str,
                   depth: int = 0) -> tuple[str, str] | None:
    """The server some call of ``calls`` (argument environments of a function's calls) passes as
    ``param``; a parameter of the module-level function making that call is followed to that
    function's own calls in turn (``register_tools(mcp)`` passing its ``mcp`` on to
    ``register_device_tools(mcp)``), up to three functions deep. None when none is found."""
    for env in calls:
        given = env.get(param)
        if given is None:
            continue
        for leaf in [given, *values.expand(given)]:
            node = leaf.node
            found = servers.server_of(leaf.mod, cast(cst.BaseExpression, node), project, leaf.cls) \
                if isinstance(node, (cst.Name, cst.Attribute)) else None
            if (found is None or found[1] == UNRESOLVED_FRAMEWORK) and depth < 3 and isinstance(node, cst.Name) \
                    and len(leaf.scope) == 1 and node.value in _param_names(leaf.scope[0]):
                found = _handed_server(project, servers, values, values.call_envs(leaf.mod, leaf.scope[0]),
                                       node.value, depth + 1) or found
            if found is not None:
                return found
    return None


#: Parameter names of LLM agent frameworks whose ``@agent.tool`` registers an agent's tool, not
#: an MCP server's (pydantic-ai ``Agent.tool``).
_AGENTISH = re.compile(r"agent", re.I)


def _outside_maker(mod: ParsedModule, project: Project, receiver: cst.BaseExpression) -> str | None:
    """The callee a module-level name is bound to a call of (``app = make_app()``) when that
    callee is outside the run (an import tokenlint cannot read): its dotted name as written;
    None for anything else (a class or function of the run, a parameter, a local)."""
    name = dotted_name(receiver)
    if name is None or "." in name:
        return None
    for stmt in mod.tree.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if not (isinstance(small, cst.Assign) and isinstance(small.value, cst.Call)
                    and any(dotted_name(t.target) == name for t in small.targets)):
                continue
            callee = dotted_name(small.value.func)
            if callee is None or callee in mod.functions or callee in mod.classes:
                return None
            qn = mod.imports.qualify(small.value.func)
            if qn is None or project.find_function(qn) or project.resolve_class(qn):
                return None
            return callee
    return None


def _forwarded_server(mod: ParsedModule, project: Project, servers: ServerRegistry,
                      target: cst.BaseExpression) -> tuple[str, str] | None:
    """The server of a decorator that forwards to a server's ``tool`` (``def tool(*args,
    **kwargs): return get_instance().tool(*args, **kwargs)``, in this module or imported): its
    server when the forwarding expression names one, else one known only at run time (the
    framework ``UNRESOLVED_FRAMEWORK``, keyed by the forwarding function). None when ``target``
    is no such function."""
    if not isinstance(target, (cst.Name, cst.Attribute)):
        return None
    hit = None
    if isinstance(target, cst.Name) and target.value in mod.functions:
        hit = (mod, mod.functions[target.value])
    else:
        qn = mod.imports.qualify(target)
        hit = project.find_function(qn) if qn else None
    if hit is None:
        return None
    fmod, fdef = hit
    body = [st for st in function_body(fdef) if not _is_docstring(st)]
    if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or \
            not isinstance(body[0].body[0], cst.Return):
        return None
    ret = body[0].body[0].value
    if not (isinstance(ret, cst.Call) and isinstance(ret.func, cst.Attribute) and ret.func.attr.value == "tool"
            and any(a.star in ("*", "**") for a in ret.args)):
        return None
    found = servers.server_of(fmod, ret.func.value, project)
    return found or (f"{fmod.module_name}.{fdef.name.value}()", UNRESOLVED_FRAMEWORK)


def _imported_decorator(
    mod: ParsedModule, project: Project, servers: ServerRegistry, values: Values, fn: cst.FunctionDef,
    expr: cst.BaseExpression, cls: str | None,
) -> tuple[tuple[str, str], str | None] | None:
    """``(server, name)`` when ``expr``, a decorator of ``fn``, is a home-made decorator of
    another module of the run that registers what it decorates: ``@register`` where ``def
    register(fn): mcp.add_tool(Tool.from_function(fn)); return fn``, or ``@netbox_tool(mcp,
    config, tags=...)`` where the factory returns such a decorator and registers on the server
    it is handed (bound here, where the decorator is applied, and followed like a registration
    function's parameter). ``name`` is the registration's ``name=`` through the factory's
    arguments, else the decorator call's own ``name=``, else None (the function's name). A
    decorator of ``fn``'s own module is read from its registration (``_decorated_by``)."""
    call = expr if isinstance(expr, cst.Call) else None
    target = call.func if call is not None else expr
    if not isinstance(target, (cst.Name, cst.Attribute)):
        return None
    qn = mod.imports.qualify(target)
    hit = project.find_function(qn) if qn else None
    if hit is None or hit[0] is mod:
        return None
    fmod, fdef = hit
    decorator = _returned_decorator(fdef) if call is not None else fdef
    if decorator is None:
        return None
    found = _decorator_registration(decorator)
    if found is None:
        return None
    reg, receiver, name_call = found
    env = arguments_env(Val(mod, call, context_of(mod, call)[0], cls), [p.name.value for p in fdef.params.params]) \
        if call is not None else {}
    server = None
    given = env.get(receiver.value) if isinstance(receiver, cst.Name) and decorator is not fdef else None
    if given is not None:
        for leaf in [given, *values.expand(given)]:
            if isinstance(leaf.node, (cst.Name, cst.Attribute)):
                server = servers.server_of(leaf.mod, leaf.node, project, leaf.cls)
                if (server is None or server[1] == UNRESOLVED_FRAMEWORK) and leaf.mod is mod:
                    # a parameter of the registration function: the server its callers hand it
                    server = _passed_server(mod, project, servers, values, fn, leaf.node) or server
            if server is not None:
                break
    else:
        server = servers.server_of(fmod, receiver, project)
    if server is None:
        return None
    scope = context_of(fmod, reg)[0]
    name = _registration_name(values, fmod, name_call, scope, None, env, skip_first=name_call is reg)
    if name is None and call is not None:
        name = next((_literal_name(a.value, mod) for a in call.args
                     if a.keyword is not None and a.keyword.value == "name"), None)
    return server, name


def _returned_decorator(factory: cst.FunctionDef) -> cst.FunctionDef | None:
    """The ``def`` nested in ``factory`` that ``factory`` returns by name (``def
    decorator(fn): ...; return decorator``); None when there is none."""
    returned = {n.value.value for n in walk(factory.body)
                if isinstance(n, cst.Return) and isinstance(n.value, cst.Name)}
    for node in walk(factory.body):
        if isinstance(node, cst.FunctionDef) and node.name.value in returned:
            return node
    return None


def _decorator_registration(
    decorator: cst.FunctionDef,
) -> tuple[cst.Call, cst.BaseExpression, cst.Call] | None:
    """``(registration call, receiver, call holding the name)`` for the server registration in
    ``decorator`` of the function it decorates (its first parameter), handed over directly or
    through locals made of it (``tool = Tool.from_function(fn, **kwargs)``, ``tool =
    Tool.from_tool(tool, ...)``): ``x.add_tool(tool)``, ``x.tool(fn, ...)``, ``x.tool(...)(fn)``.
    None when ``decorator`` registers nothing it is given."""
    params = decorator.params.params
    if not params:
        return None
    made = {params[0].name.value}
    assigns = [n for n in walk(decorator.body) if isinstance(n, cst.Assign) and
               isinstance(n.value, (cst.Call, cst.Name)) and len(n.targets) == 1 and
               isinstance(n.targets[0].target, cst.Name)]
    for _ in range(3):
        for a in assigns:
            if _made_of(a.value, made):
                made.add(cast(cst.Name, a.targets[0].target).value)
    for node in walk(decorator.body):
        if not isinstance(node, cst.Call) or not node.args or node.args[0].keyword is not None:
            continue
        if not _made_of(node.args[0].value, made):
            continue
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ("add_tool", "tool"):
            return node, func.value, node
        if isinstance(func, cst.Call) and isinstance(func.func, cst.Attribute) and func.func.attr.value == "tool":
            return node, func.func.value, func
    return None


def _made_of(node: cst.BaseExpression, made: set[str]) -> bool:
    """Whether ``node`` is one of the names ``made`` or a call wrapping one positionally, maybe
    through other calls (``func``, ``_wrap_tool(func)``, ``guard(with_errors(func), Error)``)."""
    if isinstance(node, cst.Name):
        return node.value in made
    return isinstance(node, cst.Call) and any(
        _made_of(arg.value, made) for arg in node.args if arg.keyword is None and not arg.star)


def _registers_given(decorator: cst.FunctionDef, call: cst.Call) -> bool:
    """Whether ``call`` is the server registration by which ``decorator`` registers the function
    it is given, handed over through locals made of it (``wrapped = with_errors(op)(func);
    mcp.local_provider.add_tool(wrapped)``: ``_decorator_registration``)."""
    found = _decorator_registration(decorator)
    return found is not None and found[0] is call


def _is_docstring(stmt: cst.CSTNode) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and \
        isinstance(stmt.body[0], cst.Expr) and isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _call_registration(
    mod: ParsedModule, project: Project, servers: ServerRegistry, values: Values, call: cst.Call,
    cls: str | None, unresolved: list | None,
) -> list[ToolDef]:
    """Tools registered by a call: ``x.tool(name=...)(fn)``, ``x.tool(fn, name=...)``,
    ``x.add_tool(fn, name=...)``, ``x.add_tool(Tool.from_function(fn, name=...))``, where ``fn``
    is followed through local names, loop bindings, wrappers and imports (``values``)."""
    func = call.func
    name_call: cst.Call | None = None
    if (
        isinstance(func, cst.Call)
        and isinstance(func.func, cst.Attribute)
        and func.func.attr.value == "tool"
        and call.args
        and call.args[0].keyword is None
    ):
        registered = _registered_argument(call)
        server = servers.server_of(mod, func.func.value, project, cls)
        name_call = func
    elif isinstance(func, cst.Attribute) and func.attr.value in ("add_tool", "tool"):
        registered = _registered_argument(call)
        if registered is None:
            return []
        server = servers.server_of(mod, func.value, project, cls)
        name_call = call
    else:
        return []
    if server is None or registered is None:
        return []
    first = registered.value
    if isinstance(first, (cst.SimpleString, cst.ConcatenatedString)):
        return []
    scope, _, chain = context_of(mod, call)
    envs = values.loop_envs(chain, mod, call) if any(
        isinstance(a, (cst.For, cst.CompFor, cst.ListComp, cst.GeneratorExp, cst.SetComp)) for a, _ in chain) else [{}]
    out: list[ToolDef] = []
    given = isinstance(first, cst.Name) and bool(scope) and first.value in _param_names(scope[-1])
    if scope and (not values.callables(Val(mod, first, scope, cls), envs[0]) if given
                  else _registers_given(scope[-1], call)):
        # the registration is inside a home-made decorator (``def decorator(func):
        # server.tool(func, name=name)``, maybe made by a factory ``register_tool(name)``): the
        # tools are the functions it decorates, named through the factory's arguments
        for target, bound in _decorated_by(values, mod, scope, cls):
            fn = target.node
            name = _registration_name(values, mod, name_call, scope, cls, bound, skip_first=name_call is call)
            out.append(_make(target.mod, servers, fn, server, name or fn.name.value, None, call))
        if out:
            return out

    def register(envs: list) -> None:
        for env in envs:
            found = values.callables(Val(mod, first, scope, cls), env)
            if not found and not env:
                legacy = _resolve_callable(mod, project, first, cls)
                if legacy is not None:
                    found = [(Val(legacy[0], legacy[1], (legacy[1],), legacy[2]), None)]
            made = [f for f in found if not returns_nested_def(cast(cst.FunctionDef, f[0].node))]
            if made and len(made) < len(found):
                # (a factory reached beside what it makes, through branches read together:
                # ``base_func(explorer=e) if ... else build_tool(base_func=base_func)``: the
                # function it returns is the tool, not the factory)
                found = made
            for target, wrapper in found:
                fn = cast(cst.FunctionDef, target.node)  # (callables yields function definitions)
                name = _registration_name(values, mod, name_call, scope, cls, env, skip_first=name_call is call)
                if name is None and wrapper is not None:
                    wrapper_call = cast(cst.Call, wrapper.node)  # callables' wrappers are calls
                    name = _registration_name(values, wrapper.mod, wrapper_call, wrapper.scope, wrapper.cls, env,
                                              skip_first=True)
                if name is None:
                    name = _marker_name(values, target)
                fcls = target.cls if target.mod.functions.get(f"{target.cls}.{fn.name.value}") is fn else None
                out.append(_make(target.mod, servers, fn, server, name or fn.name.value, fcls, call))

    register(envs)
    if not out and scope:
        # a registration helper (``def register_all(server, modules): ... server.tool(name)(fn)``)
        # whose functions come in through its parameters: read them at each call of the helper
        calls = values.call_envs(mod, scope[0]) if len(scope) == 1 else []
        if calls:
            register(values.loop_envs(chain, mod, call, calls))
    if not out and unresolved is not None and not _applied_elsewhere(mod, project, scope, call):
        unresolved.append((mod, call, f"the function registered by `{_code(mod, call)}` could not be resolved"))
    return out


def _registered_argument(call: cst.Call) -> cst.Arg | None:
    """The argument of ``x.add_tool(...)`` / ``x.tool(...)`` that is the function or tool
    registered: the first positional one, or the keyword the SDKs name it by (mcp 1.x
    ``FastMCP.add_tool(fn, ...)``, fastmcp ``add_tool(tool)``: ``add_tool(fn=definition.fn,
    name=...)``); None when there is none."""
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        return call.args[0]
    return next((a for a in call.args if a.keyword is not None and a.keyword.value in ("fn", "tool")), None)


def _applied_elsewhere(mod: ParsedModule, project: Project, scope, call: cst.Call) -> bool:
    """Whether ``call`` registers what the home-made decorator ``scope[-1]`` decorates (a
    module-level decorator, or one its enclosing factory returns) and another module of the run
    names that decorator or factory and is checked for tools (it passes the byte prefilter): its
    tools are found where it is applied (``_imported_decorator``), so the registration is no
    unresolved one. A decorator applied only in modules that are never read for tools stays an
    unresolved registration (never a silent zero tools)."""
    if not scope:
        return False
    found = _decorator_registration(scope[-1])
    if found is None or found[0] is not call:
        return False
    if len(scope) == 1:
        name = scope[0].name.value
    elif len(scope) == 2 and _returned_decorator(scope[0]) is scope[1]:
        name = scope[0].name.value
    else:
        return False
    return any(other != mod.module_name and project.mentions(other, name) and project.may_define_tools(other)
               for other in project.module_files)


def _registry_write(
    mod: ParsedModule, project: Project, servers: ServerRegistry, values: Values, assign: cst.Assign,
    cls: str | None, unresolved: list | None,
) -> list[ToolDef]:
    """Tools written straight into a server's tool table: ``mcp._tool_manager._tools[key] =
    value`` (any attribute chain on a server ending in a ``*tools`` attribute).

    ``value`` is followed like a registration's argument (``Tool.from_function(fn)``); when it
    wraps a plugin object instead (``make_tool(obj)``), the objects are the items the enclosing
    loop iterates over, or, when those cannot be listed, the project subclasses of the loop
    variable's declared type (``def iter_tools(self) -> Iterator[BaseTool]``) in that class's
    package. Each object's tool is the method its classes implement (the one the value names,
    else the method most subclasses define that the base does not), named by ``key``
    (``obj.name``, a method returning a literal or deriving the name from the class name)."""
    target = assign.targets[0].target
    assert isinstance(target, cst.Subscript)
    table = dotted_name(target.value)
    if not table or "." not in table or not table.rsplit(".", 1)[1].lower().endswith("tools"):
        return []
    head = table.split(".")[0]
    server = servers.server_of(mod, cst.Name(head), project, cls)
    if server is None or len(target.slice) != 1 or not isinstance(target.slice[0].slice, cst.Index):
        return []
    key = target.slice[0].slice.value
    scope, _, chain = context_of(mod, assign)
    out: list[ToolDef] = []
    for env in values.loop_envs(chain, mod, assign):
        for fn_val, wrapper in values.callables(Val(mod, assign.value, scope, cls), env):
            fn = cast(cst.FunctionDef, fn_val.node)  # callables yields only defs
            name = string_value(values, Val(mod, key, scope, cls), env) or fn.name.value
            out.append(_make(fn_val.mod, servers, fn, server, name, fn_val.cls, assign))
    if out:
        return out
    loops = [a for a, _ in chain if isinstance(a, cst.For) and isinstance(a.target, cst.Name)]
    if loops:
        loop = loops[-1]
        var = cast(cst.Name, loop.target).value  # (loops keeps For over a Name)
        objs = _plugin_classes(values, mod, scope, cls, loop)
        method = _named_method(assign.value, var)
        for cmod, cdef in objs:
            meth_name = method or _implemented_method(values, objs)
            hit = find_method(values, cmod, cdef, meth_name) if meth_name else None
            if hit is None:
                continue
            obj_name = _object_name(values, cmod, cdef, key, var)
            if obj_name is None:
                continue
            mmod, fn, owner = hit
            out.append(_make(mmod, servers, fn, server, obj_name, owner, fn))
    if not out and unresolved is not None:
        unresolved.append((mod, assign, f"the tools written into `{table}` by `{_code(mod, assign)}` could not be resolved"))
    return out


def _plugin_classes(values: Values, mod, scope, cls, loop: cst.For):
    """The classes of the objects a loop iterates over (items listed, else subclasses of the
    item type declared by the iterable's return annotation)."""
    out: list[tuple[ParsedModule, cst.ClassDef]] = []
    for item in values.elements(Val(mod, loop.iter, scope, cls)):
        for leaf in values.expand(item):
            node = leaf.node.func if isinstance(leaf.node, cst.Call) else leaf.node
            hit = class_of(values, Val(leaf.mod, node, leaf.scope, leaf.cls))
            if hit is not None and all(hit[1] is not c for _, c in out):
                out.append(hit)
    if out:
        return out
    it = loop.iter
    if isinstance(it, cst.Call):
        for callee in values.expand(Val(mod, it.func, scope, cls)):
            fn = callee.node
            if isinstance(fn, cst.FunctionDef) and fn.returns is not None:
                ann = fn.returns.annotation
                if isinstance(ann, cst.Subscript) and len(ann.slice) == 1 and isinstance(ann.slice[0].slice, cst.Index):
                    ann = ann.slice[0].slice.value
                base = class_of(values, Val(callee.mod, ann))
                if base is not None:
                    return subclasses(values, base[0], base[1])
    return []


def _named_method(node: cst.CSTNode, var: str) -> str | None:
    """``m`` when ``node`` passes the bound method ``var.m`` (not a call of it)."""
    called = {id(n.func) for n in walk(node) if isinstance(n, cst.Call)}
    for n in walk(node):
        if isinstance(n, cst.Attribute) and dotted_name(n.value) == var and id(n) not in called:
            return n.attr.value
    return None


def _implemented_method(values: Values, classes) -> str | None:
    """The public method most of ``classes`` define in their own body (the plugin's entry)."""
    counts: dict[str, int] = {}
    for cmod, cdef in classes:
        for item in cdef.body.body if isinstance(cdef.body, cst.IndentedBlock) else ():
            if isinstance(item, cst.FunctionDef) and not item.name.value.startswith("_"):
                counts[item.name.value] = counts.get(item.name.value, 0) + 1
    if not counts:
        return None
    best = max(counts.values())
    winners = sorted(n for n, c in counts.items() if c == best)
    return winners[0] if best * 2 > len(classes) else None


def _object_name(values: Values, cmod, cdef, key: cst.BaseExpression, var: str) -> str | None:
    """The client name ``key`` gives an instance of ``cdef``: ``var.attr`` or ``var.method()``."""
    if isinstance(key, cst.Call):
        key = key.func
        if isinstance(key, cst.Attribute) and dotted_name(key.value) == var:
            hit = find_method(values, cmod, cdef, key.attr.value)
            if hit is not None:
                return class_derived_name(values, hit[0], cdef, hit[1])
        return None
    if isinstance(key, cst.Attribute) and dotted_name(key.value) == var:
        return instance_attr(values, cmod, cdef, key.attr.value)
    return None


def _registration_name(values: Values, mod: ParsedModule, call: cst.Call, scope, cls, env,
                       skip_first: bool) -> str | None:
    """The ``name=`` (or, for ``x.tool("n")``, first positional) argument of a registration
    call, evaluated through loop bindings, constants and f-strings of them; None when absent or
    not a string."""
    args = list(call.args)
    for arg in args:
        if arg.keyword is not None and arg.keyword.value == "name":
            return _literal_name(arg.value, mod) or _string_of(values, Val(mod, arg.value, scope, cls), env)
    if not skip_first:
        for arg in args:
            if arg.keyword is None:
                return _literal_name(arg.value, mod) or _string_of(values, Val(mod, arg.value, scope, cls), env)
    return None


#: Parameters of a marker decorator whose positional string describes a tool, never names it.
_NOT_NAMES = frozenset({"title", "description", "desc", "summary", "doc", "help", "category", "group", "tag", "tags"})


def _marker_name(values: Values, target: Val) -> str | None:
    """The tool name a marker decorator of the run gives the registered function
    (``@tool("notes_read")`` from ``pkg.registry``, which tags the function for a later
    ``server.tool(name)(fn)``): the decorator call's ``name=`` or first positional string; None
    when the function has no such decorator."""
    fn = target.node
    assert isinstance(fn, cst.FunctionDef)
    for dec in fn.decorators:
        expr = dec.decorator
        if not isinstance(expr, cst.Call):
            continue
        factories = [c.node for c in values.expand(Val(target.mod, expr.func, (), None))
                     if isinstance(c.node, cst.FunctionDef)]
        if not factories:
            continue
        first = next((p.name.value for p in (*factories[0].params.posonly_params, *factories[0].params.params)), "")
        if first in _NOT_NAMES and not any(a.keyword is not None and a.keyword.value == "name" for a in expr.args):
            continue  # (``def tool(title)``: the positional string is not the name)
        name = _tool_name_args(expr, target.mod)
        if name is not None and not any(c.isspace() for c in name):
            # (``@tool("Find cheapest products")`` gives a title: tool names have no spaces,
            # SEP-986 of the MCP spec)
            return name
    return None


def _string_of(values: Values, v: Val, env) -> str | None:
    """``string_value``, also of an f-string whose every part evaluates (``f"wiki_{name}"``)."""
    node = v.node
    if isinstance(node, cst.FormattedString):
        out = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                out.append(part.value)
            elif isinstance(part, cst.FormattedStringExpression) and part.format_spec is None:
                s = string_value(values, Val(v.mod, part.expression, v.scope, v.cls), env)
                if s is None:
                    return None
                out.append(s)
            else:
                return None
        return "".join(out)
    return string_value(values, v, env)


def _param_names(fn: cst.FunctionDef) -> set[str]:
    return {p.name.value for p in parameters(fn)}


def _decorated_by(values: Values, mod: ParsedModule, scope, cls: str | None):
    """``(function Val, env)`` for every def of ``mod`` decorated by the home-made decorator
    ``scope[-1]`` (whose first parameter is the decorated function): ``@decorator`` itself,
    or ``@factory(args)`` when the enclosing ``factory`` returns it; ``env`` binds the factory's
    parameters to the arguments of that decorator call."""
    decorator = scope[-1]
    factory = decorator_factory(scope)
    out = []
    for node in walk(mod.tree):
        if not isinstance(node, cst.FunctionDef) or node is decorator:
            continue
        for dec in node.decorators:
            expr = dec.decorator
            env: dict = {}
            if isinstance(expr, cst.Name) and expr.value == decorator.name.value and factory is None:
                pass
            elif factory is not None and isinstance(expr, cst.Call) and dotted_name(expr.func) == factory.name.value:
                env = arguments_env(Val(mod, expr, context_of(mod, expr)[0], cls),
                                    [p.name.value for p in factory.params.params])
            else:
                continue
            out.append((Val(mod, node, context_of(mod, node)[0] + (node,), cls), env))
            break
    return out


def _code(mod: ParsedModule, node: cst.CSTNode) -> str:
    text = mod.tree.code_for_node(node).strip().splitlines()[0]
    return text if len(text) <= 80 else text[:77] + "..."


def _resolve_callable(
    mod: ParsedModule, project: Project, node: cst.BaseExpression, cls: str | None, depth: int = 0
) -> tuple[ParsedModule, cst.FunctionDef, str | None] | None:
    """The def behind ``fn``, ``self.method``, ``obj.method``, an imported function, or a
    module-level alias of one (``run = _metadata.run_async``, ``run = wraps(fn)``)."""
    hit = _resolve_direct(mod, project, node, cls)
    if hit is not None or depth > 3:
        return hit
    if isinstance(node, cst.Name):
        value = _module_assignment(mod, node.value)
        if value is not None:
            return _resolve_callable(mod, project, value, cls, depth + 1)
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        # obj.method where ``obj = SomeClass(...)`` at module level (class here or imported)
        value = _module_assignment(mod, node.value.value)
        if isinstance(value, cst.Call):
            cls_name = dotted_name(value.func)
            if cls_name and f"{cls_name}.{node.attr.value}" in mod.functions:
                return mod, mod.functions[f"{cls_name}.{node.attr.value}"], cls_name
            qn = mod.imports.qualify(value.func)
            if qn:
                found = project.resolve(qn)
                if found:
                    omod, oname = found
                    fn = omod.functions.get(f"{oname}.{node.attr.value}")
                    if fn is not None:
                        return omod, fn, oname
    if isinstance(node, cst.Call) and node.args:
        # a wrapper call: functools.partial(fn, ...), wraps(fn), some_decorator(fn)
        return _resolve_callable(mod, project, node.args[0].value, cls, depth + 1)
    return None


def _module_assignment(mod: ParsedModule, name: str) -> cst.BaseExpression | None:
    for stmt in mod.tree.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Assign) and any(dotted_name(t.target) == name for t in small.targets):
                    return small.value
    return None


def _resolve_direct(
    mod: ParsedModule, project: Project, node: cst.BaseExpression, cls: str | None
) -> tuple[ParsedModule, cst.FunctionDef, str | None] | None:
    if isinstance(node, cst.Name):
        fn = mod.functions.get(node.value)
        if fn is not None:
            return mod, fn, None
        nested = _find_nested_def(mod, node.value)
        if nested is not None:
            return mod, nested, None
        qn = mod.imports.qualify(node)
        if qn:
            hit = project.find_function(qn)
            if hit:
                return hit[0], hit[1], None
        return None
    if isinstance(node, cst.Attribute):
        meth = node.attr.value
        base = node.value
        if isinstance(base, cst.Name) and base.value in ("self", "cls") and cls:
            fn = mod.functions.get(f"{cls}.{meth}")
            if fn is not None:
                return mod, fn, cls
        # obj.method where exactly one class of the module defines ``method``
        owners = [k for k in mod.functions if k.endswith(f".{meth}")]
        if len(owners) == 1:
            return mod, mod.functions[owners[0]], owners[0].split(".")[0]
        qn = mod.imports.qualify(node)
        if qn:
            hit = project.find_function(qn)
            if hit:
                return hit[0], hit[1], None
    return None


def _find_nested_def(mod: ParsedModule, name: str) -> cst.FunctionDef | None:
    """The first ``def name`` anywhere in the module (an index built once per module)."""
    index = _DEFS.get(mod)
    if index is None:
        index = {}
        for node, _ in mod.nodes():
            if isinstance(node, cst.FunctionDef):
                index.setdefault(node.name.value, node)
        _DEFS[mod] = index
    return index.get(name)


_DEFS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _make(
    mod: ParsedModule,
    servers: ServerRegistry,
    fn: cst.FunctionDef,
    server: tuple[str, str],
    name: str,
    cls: str | None,
    registration: cst.CSTNode,
) -> ToolDef:
    server_id, framework = server
    return ToolDef(
        name=servers.prefixed(server_id, name),
        function=fn.name.value,
        framework=framework,
        module=mod,
        func=fn,
        body=function_body(fn),
        anchor=fn,
        server_id=server_id,
        suppress_nodes=[fn, *fn.decorators],
        decorator=registration,
        class_name=cls,
    )
