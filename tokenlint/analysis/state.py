"""What the mixins of ``FunctionInterpreter`` read of it, declared for the type checker.

``ExternalCalls``, ``LibraryCalls``, ``FollowedCalls`` and ``Constants`` are parts of one
interpreter: they read its state (``self.env``, ``self.mod``...) and call each other's methods and
the interpreter's own (``self.expr``, ``self.bound_from``...). ``InterpreterState`` is their common
base and says what those are. At run time it is an empty class: everything in it is under
``TYPE_CHECKING``, so no declaration here can shadow the real attribute or method (mypy checks
that each real definition matches its declaration).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Literal, Union

if TYPE_CHECKING:
    import libcst as cst

    from tokenlint.analysis.entry_points import Literal as EntryLiteral
    from tokenlint.analysis.interpreter import Analyzer, Summary
    from tokenlint.analysis.shapes import Shape
    from tokenlint.analysis.taints import Bound, Flow, Marker, Param, Site
    from tokenlint.source.project import ParsedModule

#: The bound a query's text puts on its rows (``LibraryCalls.sql_bound``): a ``Bound``,
#: ``"aggregate"`` for a statement that returns no rows (a count, a write), or None (unbounded).
SqlBound = Union["Bound", Literal["aggregate"], None]


class InterpreterState:
    """The common base of ``FunctionInterpreter``'s mixins (empty at run time)."""

    if TYPE_CHECKING:
        # -- state (set in ``FunctionInterpreter.__init__``) -----------------------------------
        a: Analyzer
        mod: ParsedModule
        fn: cst.FunctionDef
        function_name: str
        action_name: str
        depth: int
        helper: bool
        args_style: str
        class_name: str | None
        summary: Summary
        env: dict[str, Flow]
        strings: dict[str, str]
        string_nodes: dict[str, cst.BaseExpression]
        string_items: dict[str, list[str]]
        sql_of: dict[str, SqlBound]
        columns_of: dict[str, tuple[str, ...]]
        exception_names: set[str]
        param_defaults: dict[str, Param]
        filled_params: set[str]
        switches_on: dict[str, EntryLiteral]
        assigned_from_call: set[str]
        bound_methods: dict[str, str]
        rebinding: tuple[cst.BaseExpression, frozenset[str]] | None
        while_depth: int
        row_reads: set[Site]
        element_names: set[str]
        built_records: set[str]
        dict_entries: dict[str, list[tuple[str | None, cst.BaseExpression]]]
        _callable_params: frozenset[str] | None
        _active: frozenset[int]
        _synthetic: list[cst.Call]
        _synthetic_origin: dict[int, cst.Call]
        _tuple_results: dict[int, list[Flow]]
        _dict_results: dict[int, dict[str, Flow]]

        def __init__(self, analyzer: Analyzer, module: ParsedModule, fn: cst.FunctionDef, *, depth: int = 0,
                     helper: bool = False, args_style: str = "signature", class_name: str | None = None,
                     param_families: dict[str, str] | None = None) -> None: ...

        # -- FunctionInterpreter ---------------------------------------------------------------
        def run(self, stmts: Iterable[cst.CSTNode]) -> Summary: ...
        def expr(self, node: cst.BaseExpression | None) -> Flow: ...
        def call(self, node: cst.Call) -> Flow: ...
        def one_of(self, base: Flow, node: cst.CSTNode) -> Flow: ...
        def bound_from(self, expr: cst.BaseExpression, node: cst.CSTNode) -> Bound | None: ...
        def accumulate(self, container: cst.BaseExpression, flow: Flow, entry: cst.BaseExpression | None = None) -> str | None: ...
        def init_data(self, family: str) -> Flow: ...
        def _model_objects(self, flow: Flow) -> frozenset[Marker]: ...
        def _args_flow(self, node: cst.Call) -> Flow: ...
        def value_scalar(self, flow: Flow, exprs: Iterable[cst.BaseExpression]) -> Flow: ...
        def command_lines(self, first: cst.BaseExpression) -> list[list[str | None]]: ...
        def mapping_param(self, key: str, default: cst.BaseExpression | None, node: cst.CSTNode,
                          required: bool = False) -> Flow: ...

        # -- Constants -------------------------------------------------------------------------
        def const_int(self, node: cst.BaseExpression | None, depth: int = 0) -> int | None: ...
        def string_value(self, node: cst.BaseExpression | None) -> str | None: ...
        def string_items_of(self, node: cst.BaseExpression) -> list[str] | None: ...

        # -- LibraryCalls ----------------------------------------------------------------------
        def query_argument(self, node: cst.Call) -> cst.BaseExpression: ...
        def sql_bound(self, sql_node: cst.BaseExpression | None, argflow: Flow, site: Site) -> SqlBound: ...

        # -- FollowedCalls ---------------------------------------------------------------------
        def lambda_result(self, fn: cst.Lambda) -> Flow: ...

        # -- ExternalCalls ---------------------------------------------------------------------
        def _external_root(self, expr: cst.BaseExpression, method: str | None = None) -> str | None: ...
        def _external_sql(self, node: cst.Call, name: str, shape: Shape, site: Site) -> Flow | None: ...
        def request_response(self, node: cst.Call, site: Site) -> Flow: ...
        def cursor_bound(self, node: cst.Call) -> Bound | None: ...
        def dispatched_call(self, node: cst.Call, name: str, site: Site, callee: str | None = None) -> Flow: ...
        def url_parts(self, node: cst.BaseExpression, depth: int = 0) -> list[str | cst.BaseExpression | None]: ...
        def returned_url_parts(self, call: cst.Call, depth: int = 0) -> list[str | cst.BaseExpression | None]: ...
        def list_bound(self, expr: cst.BaseExpression, node: cst.CSTNode) -> Bound | None: ...
        def flow_list_bound(self, flow: Flow, node: cst.CSTNode) -> Bound | None: ...
        def records_of_identifiers(self, flow: Flow, node: cst.Call) -> Flow: ...
        def pairs_bound(self, pairs: list[tuple[str | None, cst.BaseExpression]],
                        node: cst.CSTNode) -> Bound | None: ...
        def _dict_pairs(self, value: cst.BaseExpression, depth: int = 0) -> list[tuple[str | None, cst.BaseExpression]]: ...
        def request_object(self, first: cst.BaseExpression | None) -> cst.Call | None: ...
        def request_bound(self, node: cst.Call) -> Bound | None: ...
