"""Structured output: a return annotation under which both the unchanged value and a page validate.

The SDKs (mcp 1.x ``FastMCP``, mcp 2.x ``MCPServer``, standalone fastmcp) turn a tool's return
annotation into an ``outputSchema`` and validate what the tool returns against it. A rewritten tool
returns either its old value (within budget) or a page (over budget), so its annotation must accept
both. The codemod changes ``-> T`` into ``-> Paged[T]``::

    from tokenlint.runtime import Paged, fit_response

    @mcp.tool()
    def list_users(role: str, cursor: str | None = None) -> Paged[list[User]]:
        return fit_response(query(role), tool="list_users", arguments={"role": role, "cursor": cursor},
                            cursor=cursor)

``Paged[T]`` is ``Union[PageEnvelope, T]``: the SDK publishes an ``anyOf`` schema of the page
envelope and ``T`` (wrapped in ``{"result": ...}`` as it does for any non-object type), and
pydantic's smart union validates a returned list or model as ``T`` and an envelope as
``PageEnvelope``. ``PageEnvelope`` is a ``TypedDict`` (standard library, no pydantic import) whose
only required key is ``next_action`` (present, possibly null, in every page), so an unchanged value
never validates as a page by accident; it allows extra keys (``__pydantic_config__``), so the
other keys of a dict-shaped result (``{"rows": [...], "count": 3}``) survive into
``structuredContent``. ``T = str`` needs nothing: text pages are str.

Without a return annotation (or with ``structured_output=False``) nothing needs to change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Union

try:
    from typing import Annotated
except ImportError:  # pragma: no cover - Python < 3.9
    from typing_extensions import Annotated

if TYPE_CHECKING:  # the checker's view: typing_extensions (typeshed has it on every version)
    from typing_extensions import TypedDict
else:
    try:
        # pydantic (which every MCP SDK uses) requires typing_extensions.TypedDict before Python
        # 3.12, and installs typing_extensions; without it (no SDK around) the stdlib one does.
        from typing_extensions import TypedDict
    except ImportError:  # stdlib-only environments (tests/runtime/test_runtime_stdlib_only.py)
        from typing import TypedDict

__all__ = ["PageEnvelope", "NextActionDict", "Paged", "Cursor", "CURSOR_DESCRIPTION"]


class NextActionDict(TypedDict):
    """How to get the next page: call ``tool`` with ``arguments`` (the same ones plus ``cursor``)."""

    tool: str
    arguments: Dict[str, Any]


# ``PageEnvelope``'s one required key among optional ones, without ``Required``/``NotRequired``
# (typing has them from Python 3.11 only, and the runtime needs no typing_extensions on 3.10): the
# keys before ``next_action`` (total=False), ``next_action`` (total=True), the keys after it
# (total=False, in ``PageEnvelope``). A TypedDict's keys are its bases' then its own, so the
# order, and the published schema's, is the declared one. (``PageEnvelope``'s docstring is the
# schema's description that SDKs publish: keep it as it is.)
class _PageEnvelopeHead(TypedDict, total=False):
    items: List[Any]
    total: int
    page: str
    next_cursor: Optional[str]


class _PageEnvelopeNextAction(_PageEnvelopeHead):
    next_action: Optional[NextActionDict]


class PageEnvelope(_PageEnvelopeNextAction, total=False):
    """One page of an over-budget result (see ``fit_response``).

    ``items``: the records of this page (whole records); ``total``: records in the full result;
    ``page``: human-readable position (``"items 1-50 of 200"``); ``next_cursor``/``next_action``:
    the continuation (null on the last page); ``resource_uri``: where the full result can be read;
    ``omitted``: summary of what the first page leaves out; ``item_json``/``item_index``/
    ``item_part``/``item_parts``: a text page of one record too large for the budget;
    ``value_json``: a text page of a non-list value too large for the budget.
    """

    resource_uri: str
    omitted: Dict[str, Any]
    item_json: str
    item_index: int
    item_part: int
    item_parts: int
    value_json: str


# pydantic reads this attribute (what ``pydantic.with_config`` sets); a plain dict keeps the runtime
# free of a pydantic import.
PageEnvelope.__pydantic_config__ = {"extra": "allow"}  # type: ignore[attr-defined]


class _PagedMeta(type):
    def __getitem__(cls, item: Any) -> Any:
        return Union[PageEnvelope, item]


class Paged(metaclass=_PagedMeta):
    """``Paged[T]`` is ``Union[PageEnvelope, T]``: annotate a rewritten tool with it (see module)."""


#: What the model is told about a rewritten tool's ``cursor`` argument (its input schema).
CURSOR_DESCRIPTION = "Opaque cursor from a previous response's next_action; omit for the first page."


class _Description:
    """``Annotated`` metadata giving a parameter's JSON schema a ``description``: pydantic calls
    ``__get_pydantic_json_schema__`` on metadata that has it, so the runtime needs no pydantic
    import (``pydantic.Field(description=...)`` would)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> Any:
        schema = handler(core_schema)
        schema["description"] = self.text
        return schema

    def __repr__(self) -> str:
        return f"_Description({self.text!r})"


#: The annotation of a rewritten tool's ``cursor`` parameter (``cursor: Cursor = None``): an
#: optional str whose input-schema property carries ``CURSOR_DESCRIPTION`` in mcp 1.x FastMCP,
#: mcp 2.x MCPServer and standalone fastmcp (low-level servers: ``with_cursor_parameter``).
Cursor = Annotated[Optional[str], _Description(CURSOR_DESCRIPTION)]
