"""Small shared facts about values and names used by every part of the interpreter: what the
standard library and builtins are, which names read as a response, a client, a file or the
low-level ``arguments`` mapping, and how one element of a run-time collection is taken."""

from __future__ import annotations

import builtins
import re
import sys
from typing import TYPE_CHECKING, Iterator, Sequence

import libcst as cst

from tokenlint.analysis.taints import EMPTY, Flow, Marker, Site, Src, Taint
from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import code_children

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule, Project

MAX_HELPER_DEPTH = 4


#: How a TL108 source made from a run-time collection ends its description (an element of such
#: a collection is one record; ``one_element``).
RUNTIME_COLLECTION = "(filled at run time)"


#: Methods that add their arguments to the receiver (``out.append(row)``).
ACCUMULATORS = frozenset({"append", "extend", "add", "update", "insert", "write", "writelines",
                          "appendleft", "put", "put_nowait", "setdefault", "writerow", "writerows"})


def body_of(fn: cst.FunctionDef) -> Sequence[cst.BaseStatement]:
    """The statements of ``fn``'s body: its indented block's statements, or for a one-line
    ``def f(): return x`` the ``SimpleStatementSuite`` itself as the one element."""
    return fn.body.body if isinstance(fn.body, cst.IndentedBlock) else [fn.body]  # type: ignore[list-item]


def is_protocol(cls: cst.ClassDef) -> bool:
    """Whether ``cls`` is a ``typing.Protocol``: one of its bases is named ``Protocol``
    (``Protocol``, ``typing.Protocol``, ``typing_extensions.Protocol``)."""
    return any((dotted_name(b.value) or "").rpartition(".")[2] == "Protocol" for b in cls.bases)


def is_stub(fn: cst.FunctionDef) -> bool:
    """Whether ``fn`` only declares a signature: its body (a docstring aside) is ``...``,
    ``pass`` or ``raise NotImplementedError`` (a ``typing.Protocol`` member, an ``abc``
    abstract method, an interface a subclass or mixin implements). Such a def says nothing of
    what the method returns."""
    stmts: list[cst.BaseSmallStatement] = []
    for st in body_of(fn):
        if isinstance(st, cst.SimpleStatementLine):
            stmts += st.body
        elif isinstance(st, cst.SimpleStatementSuite):
            stmts += st.body
        else:
            return False
    if stmts and isinstance(stmts[0], cst.Expr) and isinstance(stmts[0].value, (cst.SimpleString, cst.ConcatenatedString)):
        stmts = stmts[1:]
    if not stmts:
        return True  # a docstring alone
    for small in stmts:
        if isinstance(small, cst.Pass) or (isinstance(small, cst.Expr) and isinstance(small.value, cst.Ellipsis)):
            continue
        if isinstance(small, cst.Raise) and small.exc is not None and \
                (dotted_name(small.exc.func if isinstance(small.exc, cst.Call) else small.exc) or "") == "NotImplementedError":
            continue
        return False
    return True


def defs_in(fn: cst.FunctionDef) -> Iterator[cst.FunctionDef]:
    """The functions defined directly inside ``fn``'s body, at any depth of its statements but
    not inside another ``def`` or a class (those are theirs), last-written first."""
    stack: list[cst.CSTNode] = list(body_of(fn))
    while stack:
        node = stack.pop()
        if isinstance(node, cst.FunctionDef):
            yield node
        elif not isinstance(node, cst.ClassDef):
            stack.extend(code_children(node))


def statements_of(node: cst.CSTNode | None) -> list:
    """The statements of a block: those of an indented block or of an ``else``/``finally`` clause's
    block; ``[]`` for None; any other node (a one-line ``SimpleStatementSuite``) as a list of
    itself."""
    if node is None:
        return []
    if isinstance(node, cst.IndentedBlock):
        return list(node.body)
    if isinstance(node, (cst.Else, cst.Finally)):
        return statements_of(node.body)
    return [node]


def chain_root(expr: cst.BaseExpression) -> str | None:
    """The name an attribute/call chain starts from (``datetime`` in ``datetime.now().date``)."""
    node = expr
    while isinstance(node, (cst.Attribute, cst.Call, cst.Subscript, cst.Await)):
        node = node.func if isinstance(node, cst.Call) else (
            node.expression if isinstance(node, cst.Await) else node.value)
    return node.value if isinstance(node, cst.Name) else None


RESPONSE_NAME = re.compile(r"(^|[._])(resp|response|res|r|reply|http_response|result_response)$", re.I)


CLIENT_NAME = re.compile(r"(client|session|http|api)$", re.I)


def response_like(name: str | None) -> bool:
    """Whether a variable name reads as an HTTP response (``resp``, ``response``, ``res``, ``r``,
    ``reply``, also as the last part: ``self.resp``; ``RESPONSE_NAME``, any case)."""
    return bool(name and RESPONSE_NAME.search(name))


def client_like(name: str | None) -> bool:
    """Whether a name's last part ends like a client's (``client``, ``session``, ``http``, ``api``:
    ``CLIENT_NAME``, any case) and no part of it contains ``db`` (``db_client`` is a database's)."""
    return bool(name and CLIENT_NAME.search(name.split(".")[-1]) and "db" not in name.lower())


def file_like(name: str | None) -> bool:
    """Whether a name's last part reads as an open file: ``f``, ``fh``, ``fp``, ``file``,
    ``handle``, ``stream``, ``reader`` or ``infile``, alone or after ``_`` (``log_file``)."""
    return bool(name and re.search(r"(^|_)(f|fh|fp|file|handle|stream|reader|infile)$", name.split(".")[-1], re.I))


def is_arguments_name(name: str | None) -> bool:
    """Whether a name's last part is one a low-level ``call_tool`` handler gives the model's
    arguments mapping (``arguments``, ``args``, ``params``, ``kwargs``, ``input``, ...)."""
    return bool(name and name.split(".")[-1] in ("arguments", "args", "params", "tool_args", "input_args", "kwargs", "arguments_dict", "input", "tool_input"))


BUILTINS = frozenset(dir(builtins))


#: Methods of str, bytes, list, dict and set: on a parameter they transform a value.
VALUE_METHODS = frozenset(
    m for t in (str, bytes, list, dict, set) for m in dir(t) if not m.startswith("_")
) - {"count", "index"}


STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | {"builtins", "typing", "typing_extensions"}


def is_stdlib(qn: str) -> bool:
    """Whether the qualified name ``qn`` is of the standard library: its top-level package is in
    ``sys.stdlib_module_names`` (Python 3.10+), or is ``builtins``, ``typing`` or
    ``typing_extensions``."""
    return qn.split(".")[0] in STDLIB


#: Collection types whose call with no argument makes an empty one (``dict()``, ``deque()``);
#: ``defaultdict(list)`` is empty whatever its argument.
EMPTY_FACTORIES = frozenset({"dict", "list", "set", "OrderedDict", "deque", "Counter"})


def empty_collection(value: cst.BaseExpression) -> bool:
    """``{}``, ``[]``, ``set()``, ``dict()``, ``defaultdict(list)``, ``deque()``: empty now, filled later."""
    if isinstance(value, (cst.Dict, cst.List, cst.Set)) and not value.elements:
        return True
    if isinstance(value, cst.Call):
        name = (dotted_name(value.func) or "").split(".")[-1]
        if name in EMPTY_FACTORIES and not value.args:
            return True
        if name == "defaultdict":
            return True
    return False


def is_collection_src(t: Taint) -> bool:
    """Whether ``t`` is the TL108 source of a collection filled at run time (a module-level or
    instance collection: its ``what`` ends with ``RUNTIME_COLLECTION``) or a session registry's
    marker (``registry_element``)."""
    return isinstance(t, Src) and t.code == "TL108" and t.what.endswith(RUNTIME_COLLECTION) or \
        isinstance(t, Marker) and t.kind == "registry"


def registry_element(registry: Marker, iterated: cst.BaseExpression | None, site: Site) -> Flow:
    """One element of a session registry (``registries.session_registry``: as many entries as
    the model's own calls stored) walked at ``site``, ``iterated`` the expression walked: a key
    (nothing of data) for the registry itself or its ``.keys()`` when the registry is keyed
    (``decks[deck_id] = ...``: ``Marker.keys`` holds ``"keyed"``), else one entry, a record
    whole until a field is picked (``one_element``). For ``.items()`` the pair's value is that
    entry and its key nothing (``Interpreter._assign_element``)."""
    view = iterated.func.attr.value if isinstance(iterated, cst.Call) and isinstance(iterated.func, cst.Attribute) \
        else None
    if view == "keys" or (view is None and registry.keys):
        return EMPTY
    return one_element(site)


def one_element(site: Site) -> Flow:
    """An entry of a run-time collection (``notes[name]``, ``tasks.get(task_id)``, at ``site``):
    one record, not the collection; a record of unknown fields filled at run time, whole until a
    field is picked from it (a ``whole`` object marker: a task's stored result is as large as the
    task made it, labelling rule 5)."""
    return frozenset({Marker("object", site, whole=True)})


def method_class(module: ParsedModule, fn: cst.FunctionDef) -> str | None:
    """The class ``fn`` is a method of (its ``Class.method`` key in ``module.functions``), or
    None for a module-level or nested function."""
    return next((k.split(".")[0] for k, v in module.functions.items() if v is fn and "." in k), None)


def annotated_class(module: ParsedModule, fn: cst.FunctionDef) -> str | None:
    """The qualified CapWords class a function's return annotation names, ``Optional[...]`` and
    ``... | None`` unwrapped (``-> Collection``, ``-> Optional[redis.Redis]``), or None. A class
    of the module itself is qualified by the module's name."""
    return annotation_class(module, fn.returns.annotation) if fn.returns is not None else None


def optional_inner(ann: cst.BaseExpression) -> cst.BaseExpression:
    """The ``X`` of an ``Optional[X]`` / ``typing.Optional[X]`` annotation; ``ann`` otherwise."""
    if isinstance(ann, cst.Subscript) and dotted_name(ann.value) in ("Optional", "typing.Optional") \
            and len(ann.slice) == 1 and isinstance(ann.slice[0].slice, cst.Index):
        return ann.slice[0].slice.value
    return ann


def _forward_reference(ann: cst.BaseExpression) -> cst.BaseExpression:
    """The expression a string annotation holds (PEP 484 forward references: ``"Client"``,
    ``"Optional[Client]"``); ``ann`` itself when it is no string or holds no expression."""
    if isinstance(ann, cst.SimpleString):
        text = ann.evaluated_value
        if isinstance(text, str):
            try:
                return cst.parse_expression(text.strip())
            except cst.ParserSyntaxError:
                return ann
    return ann


def run_class_named(project: Project, module: ParsedModule, expr: cst.BaseExpression | None) -> str | None:
    """The qualified class of the run ``expr``, written in ``module``, names (imported there, or
    a class of ``module`` itself), else None."""
    if not isinstance(expr, (cst.Name, cst.Attribute)):
        return None
    qn = module.imports.qualify(expr) or (
        f"{module.module_name}.{expr.value}" if isinstance(expr, cst.Name) and expr.value in module.classes else None)
    return qn if qn is not None and project.resolve_class(qn) is not None else None


def annotation_class(module: ParsedModule, ann: cst.BaseExpression) -> str | None:
    """The qualified CapWords class an annotation names (``Collection``, ``Optional[redis.Redis]``,
    ``ProxmoxClient | None``, a private ``_State``, a forward reference ``"ServicesContainer"``
    whose class is imported under ``if TYPE_CHECKING:``), or None; a class of ``module`` itself
    is qualified by its name."""
    ann = _forward_reference(ann)
    ann = _forward_reference(optional_inner(ann))
    if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
        sides = [x for x in (ann.left, ann.right) if dotted_name(x) != "None"]
        ann = sides[0] if len(sides) == 1 else ann
    if not isinstance(ann, (cst.Name, cst.Attribute)):
        return None
    qn = module.imports.qualify(ann)
    if qn is None and isinstance(ann, cst.Name) and ann.value in module.classes:
        qn = f"{module.module_name}.{ann.value}"
    if qn is None or not qn.rsplit(".", 1)[-1].lstrip("_")[:1].isupper():
        return None  # (a private class of the module is CapWords too: ``_State``)
    return qn
