"""Reading the type annotations of a tool ``fix`` rewrites, as source text.

``annotation_change`` says what becomes of a tool's return annotation once its responses are
paged (kept, wrapped in ``Paged[...]``, or a reason to leave the tool alone);
``is_int_annotation`` and ``is_context_annotation`` say whether a parameter can be clamped and
whether it is the SDK's request context. Annotations are matched by their text (as LibCST
prints them), not resolved through imports.
"""

from __future__ import annotations

import enum
import re

#: Return annotations whose values ``fit_response`` can page as they are (JSON-able containers).
_PAGEABLE_ANNOTATION = re.compile(
    r"^(typing\.)?(list|List|dict|Dict|Sequence|Mapping|MutableMapping|Any|tuple|Tuple|Iterable|object)\b"
)
_TEXT_ANNOTATION = re.compile(r"^(builtins\.)?str$")
#: Open dict annotations: a page envelope validates against them as it is, and wrapping them in
#: ``Paged[...]`` (a Union) would make the SDKs nest even small results under ``"result"``.
_OPEN_DICT_ANNOTATION = re.compile(
    r"^(typing\.)?(dict|Dict|Mapping|MutableMapping)(\[\s*str\s*,\s*(typing\.)?(Any|object)\s*\])?$"
)
#: A parameter ``min(p, N)`` may rebind: an int (possibly ``Annotated[int, ...]``).
_INT_ANNOTATION = re.compile(r"^((typing\.)?Annotated\[\s*)?int\b")
#: The SDKs' request context and session types, injected into a tool and not in its schema.
_CONTEXT_ANNOTATIONS = re.compile(r"\b(Context|RequestContext|ServerSession)\b")


class AnnotationChange(str, enum.Enum):
    """What becomes of a paged tool's return annotation (a ``str`` enum: it compares equal to
    ``"keep"`` / ``"paged"`` / ``"refuse"``)."""

    #: unchanged: a page validates against it as it is
    KEEP = "keep"
    #: ``T`` becomes ``Paged[T]``
    PAGED = "paged"
    #: the tool is not rewritten: an arm the runtime cannot page (a model class)
    REFUSE = "refuse"


def annotation_change(annotation: str) -> AnnotationChange:
    """How the return annotation ``annotation`` (source text) must change for a paged tool:
    ``KEEP`` when every arm is text, an open dict, None, a content block or already ``Paged``;
    ``PAGED`` when an arm is a pageable container (``list[...]``, ``dict[str, list]``, ``Any``);
    ``REFUSE`` when an arm is anything else. Raises nothing."""
    changes = set()
    for arm in _union_arms(annotation):
        if arm in ("None", "NoneType") or _TEXT_ANNOTATION.match(arm) or _OPEN_DICT_ANNOTATION.match(arm) \
                or arm.startswith(("Paged[", "tokenlint.runtime.Paged[")):
            changes.add(AnnotationChange.KEEP)
        elif _PAGEABLE_ANNOTATION.match(arm) and "Content" not in arm:
            changes.add(AnnotationChange.PAGED)
        elif re.search(r"TextContent|Content\b", arm):
            changes.add(AnnotationChange.KEEP)  # content blocks: their text is fitted, the list stays
        else:
            changes.add(AnnotationChange.REFUSE)
    for change in (AnnotationChange.REFUSE, AnnotationChange.PAGED):
        if change in changes:
            return change
    return AnnotationChange.KEEP


def is_int_annotation(annotation: str) -> bool:
    """Whether a parameter annotated ``annotation`` (source text) is an int that
    ``p = min(p, N)`` may rebind (``int``, ``Annotated[int, ...]``)."""
    return _INT_ANNOTATION.match(annotation) is not None


def is_context_annotation(annotation: str) -> bool:
    """Whether ``annotation`` (source text) names the SDK's request context or session
    (``Context``, ``RequestContext``, ``ServerSession``), which the SDK injects."""
    return _CONTEXT_ANNOTATIONS.search(annotation) is not None


def _union_arms(annotation: str) -> list[str]:
    """``Optional[X]`` → [X, None]; ``Union[A, B]`` and ``A | B`` → [A, B] (top level only)."""
    annotation = annotation.strip()
    match = re.match(r"^(typing\.)?(Optional|Union)\[(.*)\]$", annotation, re.S)
    if match:
        arms = _split_top(match.group(3), ",")
        return [a for arm in arms for a in _union_arms(arm)] + (["None"] if match.group(2) == "Optional" else [])
    arms = _split_top(annotation, "|")
    return [a.strip() for a in arms] if len(arms) > 1 else [annotation]


def _split_top(text: str, sep: str) -> list[str]:
    """``text`` split at each ``sep`` outside brackets, parts stripped."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts
