"""Record classes of the run: dataclasses, named tuples, typed dicts and pydantic models.

How a record class is made (``record_kind``), the fields its generated ``__init__`` takes
(``dataclass_fields``), and whether an instance holds a fixed set of small fields whatever data
it is made of (``fixed_model``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from tokenlint.analysis import catalogue as cat
from tokenlint.analysis.shapes import open_field
from tokenlint.analysis.values import (
    annotation_class,
    is_protocol,
    optional_inner,
    run_class_named,
    statements_of,
)
from tokenlint.source.imports import dotted_name
from tokenlint.source.walk import node_code

if TYPE_CHECKING:
    from tokenlint.source.project import ParsedModule, Project


def record_kind(cls: cst.ClassDef) -> str | None:
    """How ``cls`` is a record class: ``"positional"`` when a decorator (``@dataclass``, attrs'
    ``@define`` / ``@frozen``) or a ``NamedTuple`` base generates an ``__init__`` taking its
    annotated fields in order, ``"keywords"`` for a ``TypedDict`` or pydantic ``BaseModel``
    (made by field name); None for any other class (matched on the last segment of the name)."""
    marks = [dotted_name(d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator) or ""
             for d in cls.decorators]
    bases = [dotted_name(b.value) or "" for b in cls.bases]
    if any(m.split(".")[-1] in ("dataclass", "define", "frozen") for m in marks) or \
            any(b.split(".")[-1] == "NamedTuple" for b in bases):
        return "positional"
    if any(b.split(".")[-1] in ("TypedDict", "BaseModel") for b in bases):
        return "keywords"
    return None


def dataclass_fields(cls: cst.ClassDef) -> list[str] | None:
    """The fields of ``cls`` in the order its generated ``__init__`` takes them, for a
    ``"positional"`` record class (``record_kind``: its annotated class attributes, ``ClassVar``
    ones left out); None for any other class, or one that writes its own ``__init__``."""
    if record_kind(cls) != "positional":
        return None
    out: list[str] = []
    for stmt in statements_of(cls.body):
        if isinstance(stmt, cst.FunctionDef) and stmt.name.value == "__init__":
            return None
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name) and \
                        "ClassVar" not in node_code(small.annotation.annotation):
                    out.append(small.target.value)
    return out




#: Names of small values a field can be annotated with besides ``catalogue.SCALAR_TYPES``: a
#: short string, pydantic's constrained and network types (pydantic docs, "Network Types",
#: "Standard Library Types").
_SMALL_ANNOTATIONS = frozenset({
    "str", "int", "float", "bool", "bytes", "None", "NoneType",
    "HttpUrl", "AnyUrl", "AnyHttpUrl", "EmailStr", "NameEmail", "IPvAnyAddress", "SecretStr",
    "PositiveInt", "NonNegativeInt", "PositiveFloat", "NonNegativeFloat", "StrictStr", "StrictInt",
    "StrictBool", "StrictFloat", "AwareDatetime", "NaiveDatetime", "PastDatetime", "FutureDatetime",
})

#: Library bases a record class of the run may have beside the record base itself.
_NEUTRAL_BASES = frozenset({"object", "Generic", "ABC", "str"})


#: The last word of a library class whose instances are services a tool is handed, never a value
#: a model could send as JSON (``httpx.AsyncClient``, ``sqlalchemy.Engine``, ``acme_sdk.Client``).
_SERVICE_CLASS = re.compile(r"(Client|Session|Connection|Conn|Engine|Service|Driver|Cursor|Pool|Repository|Api|API)$")


def service_class(project: Project, module: ParsedModule, ann: cst.BaseExpression | None) -> str | None:
    """The qualified class of a tool parameter that holds a service object the tool is handed
    (by a wrapper that injects it, as ``Depends`` does), never a value the model supplies: a
    ``Protocol`` of the run, a class of the run that is no record (``record_kind``), no scalar
    and has methods of its own, or a library class named for a service (``_SERVICE_CLASS``). An
    MCP SDK builds a tool's input schema from its parameters' annotations (mcp ``FastMCP``:
    pydantic's ``create_model``), and none of these has one, so a registered tool can only get
    them injected. None for any other annotation (a value, a record, an ``Enum``)."""
    qn = annotation_class(module, ann) if ann is not None else None
    if qn is None:
        return None
    hit = project.resolve_class(qn)
    if hit is None:
        return qn if _SERVICE_CLASS.search(qn.rsplit(".", 1)[-1]) and not qn.startswith(("mcp.", "fastmcp.")) \
            else None
    cmod, cname = hit
    cls = cmod.classes[cname]
    if is_protocol(cls):
        return qn
    if cls.bases or record_kind(cls) is not None:
        return None  # (a base may make it a record, a scalar, an exception: not read here)
    methods = [st for st in statements_of(cls.body) if isinstance(st, cst.FunctionDef)
               and not (st.name.value.startswith("__") and st.name.value.endswith("__"))]
    return qn if methods else None


def scalar_class(project: Project, qualified: str | None) -> bool:
    """Whether ``qualified`` names a class of the run whose instances are scalars: a subclass of
    a type of ``catalogue.SCALAR_TYPES`` (``class ItemType(str, Enum)``, ``class Level(IntEnum)``).
    Its attributes on the class are members, constants of the code; an instance's methods are the
    scalar's own (``item_type.value.upper()``)."""
    hit = project.resolve_class(qualified) if qualified else None
    if hit is None:
        return False
    cmod, cname = hit
    return any(cmod.imports.qualify(b.value) in cat.SCALAR_TYPES for b in cmod.classes[cname].bases)


def object_class(project: Project, module: ParsedModule, ann: cst.BaseExpression | None) -> str | None:
    """The class of the run a parameter annotated ``ann`` in ``module`` holds an object of
    (``client: ProxmoxClient``, ``Optional[Client]``: ``values.annotation_class``), its methods
    then followed; None for a class outside the run and for a scalar class of it
    (``scalar_class``: ``item_type: ItemType``, an ``Enum``, is a constant)."""
    qn = annotation_class(module, ann) if ann is not None else None
    if qn is None or project.resolve_class(qn) is None or scalar_class(project, qn):
        return None
    return qn


def fixed_model(project: Project, qualified: str, depth: int = 0) -> bool:
    """Whether an instance of the run's record class ``qualified`` holds a fixed set of small
    fields whatever data it is made of: a pydantic ``BaseModel`` (its default ``extra="ignore"``
    drops every key it does not declare: pydantic docs, "Models: Extra data"), a ``@dataclass``
    or a ``NamedTuple`` (a key they do not declare is an error), whose every field, its bases'
    included, is annotated with a small value (``str``, ``int``, ``bool``, a ``datetime``, a
    ``Literal``, an ``Enum`` or another such record class of the run; optional or not) and is not
    named for a payload (``shapes.open_field``: ``content``, ``description``, ``items``).

    Not fixed: a ``TypedDict`` (a plain dict, every key kept), a model that allows extra fields
    (``model_config = ConfigDict(extra="allow")``, pydantic v1's ``class Config: extra =
    "allow"``), a field of a list, a dict or anything else, a class that is no record, or a
    chain of nested records more than three deep."""
    if depth > 3:
        return False
    hit = project.resolve_class(qualified)
    if hit is None:
        return False
    mod, name = hit
    cls = mod.classes[name]
    record = record_kind(cls) is not None
    for base in cls.bases:
        base_name = dotted_name(base.value) or ""
        last = base_name.split(".")[-1]
        if last == "TypedDict":
            return False
        if last in ("BaseModel", "NamedTuple") or last in _NEUTRAL_BASES:
            continue
        base_qn = run_class_named(project, mod, base.value)
        if base_qn is None or not fixed_model(project, base_qn, depth + 1):
            return False  # (a library base other than the record's, or a base of open fields)
        record = True  # (``class Team(Resource)``, ``Resource`` a fixed model of the run)
    if not record:
        return False
    for stmt in statements_of(cls.body):
        if isinstance(stmt, cst.ClassDef) and stmt.name.value == "Config" and "allow" in node_code(stmt):
            return False  # pydantic v1: ``class Config: extra = Extra.allow``
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Assign) and any(
                    isinstance(t.target, cst.Name) and t.target.value == "model_config" for t in small.targets) and \
                    "allow" in node_code(small.value):
                return False
            if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                ann = small.annotation.annotation
                if "ClassVar" in node_code(ann):
                    continue
                if open_field(small.target.value) or not _small_annotation(project, mod, ann, depth):
                    return False
    return True


def _small_annotation(project: Project, mod: ParsedModule, ann: cst.BaseExpression, depth: int) -> bool:
    """Whether a field annotation names a small value (``fixed_model``): ``Optional[X]``,
    ``X | None``, ``Annotated[X, ...]`` and a string forward reference unwrapped."""
    if isinstance(ann, cst.SimpleString):
        text = ann.evaluated_value
        try:
            ann = cst.parse_expression(text) if isinstance(text, str) else ann
        except cst.ParserSyntaxError:
            return False
    ann = optional_inner(ann)
    if isinstance(ann, cst.BinaryOperation) and isinstance(ann.operator, cst.BitOr):
        return _small_annotation(project, mod, ann.left, depth) and _small_annotation(project, mod, ann.right, depth)
    if isinstance(ann, cst.Subscript):
        head = (dotted_name(ann.value) or "").split(".")[-1]
        first = ann.slice[0].slice if ann.slice else None
        if head == "Literal":
            return True
        if head in ("Annotated", "Union") and isinstance(first, cst.Index):
            parts = [first.value] if head == "Annotated" else \
                [e.slice.value for e in ann.slice if isinstance(e.slice, cst.Index)]
            return all(_small_annotation(project, mod, p, depth) for p in parts)
        return False
    if not isinstance(ann, (cst.Name, cst.Attribute)):
        return False
    written = dotted_name(ann) or ""
    qn = mod.imports.qualify(ann) or (f"{mod.module_name}.{written}" if written in mod.classes else written)
    if written in _SMALL_ANNOTATIONS or qn.split(".")[-1] in _SMALL_ANNOTATIONS and qn.startswith("pydantic") or \
            qn in cat.SCALAR_TYPES:
        return True
    hit = project.resolve_class(qn)
    if hit is None:
        return False
    if scalar_class(project, qn):
        return True  # an ``Enum`` of the run
    return fixed_model(project, qn, depth + 1)
