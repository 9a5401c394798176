"""Let the runtime's errors reach the model through every SDK's error masking.

mcp 2.x ``MCPServer`` shows the model only the messages of ``ToolError`` / ``ResourceError``
(anything else becomes "Error executing tool X"), and fastmcp does the same with
``mask_error_details``. The runtime cannot import an SDK, so ``CursorError`` and
``ResultNotFoundError`` instances are created from a subclass that also derives from the SDK's
``ToolError`` / ``ResourceError`` of every SDK *already imported* by the process (checked in
``sys.modules``, never imported here). ``except CursorError`` / ``except ValueError`` keep working.
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["flavoured"]

_SDK_ERRORS = {
    "tool": (("mcp.server.mcpserver.exceptions", "ToolError"),
             ("mcp.server.fastmcp.exceptions", "ToolError"),
             ("fastmcp.exceptions", "ToolError")),
    "resource": (("mcp.server.mcpserver.exceptions", "ResourceError"),
                 ("mcp.server.fastmcp.exceptions", "ResourceError"),
                 ("fastmcp.exceptions", "ResourceError")),
}
_CACHE: dict[tuple[Any, ...], type] = {}


def flavoured(cls: type, kind: str) -> type:
    """``cls`` or a subclass of ``cls`` and the loaded SDKs' error classes of ``kind``
    (``"tool"``: ``ToolError``, ``"resource"``: ``ResourceError``), created once per set of
    bases. Raises ``KeyError`` for another ``kind``."""
    bases: list[type] = []
    for module_name, attr in _SDK_ERRORS[kind]:
        module = sys.modules.get(module_name)
        err = getattr(module, attr, None) if module is not None else None
        if isinstance(err, type) and issubclass(err, Exception) and err not in bases \
                and not issubclass(cls, err):
            bases.append(err)
    if not bases:
        return cls
    key = (cls, *bases)
    if key not in _CACHE:

        def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
            getattr(cls, "__init__")(self, *args, **kwargs)  # the class's own, not the SDK's
            for base in bases:  # let each SDK error set its own attributes (e.g. log_level)
                try:
                    getattr(base, "__init__")(self, *args[:1])
                except Exception:  # pragma: no cover - defensive
                    pass

        try:
            _CACHE[key] = type(cls.__name__, (cls, *bases),
                               {"__module__": cls.__module__, "__init__": __init__,
                                "__qualname__": cls.__qualname__})
        except TypeError:  # incompatible layouts: fall back to the plain class
            _CACHE[key] = cls
    return _CACHE[key]
