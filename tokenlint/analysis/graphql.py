"""What a GraphQL document asks for, read from its text: one record, a page of a list, every item
of a list, or a write.

A GraphQL response has the shape of the document's selection set (GraphQL spec §6.4.1, "Response
shape"): each root field gives one object, or a list when the field is a list or a connection.
Lists are paged by arguments the schema defines (Relay connections: ``first`` / ``last``; other
schemas: ``limit``, ``count``, ``size`` ...). So the document itself says how much comes back:

* ``query { me { username } }``, ``query($urn: String!) { dataset(urn: $urn) { name } }``: one
  record per root field (``RECORD``);
* ``query { issues(first: 20) { nodes { title } } }``: at most 20 items (the number), or as many as
  a variable says (``-1``);
* ``query { datasets { name } }``, ``{ searchAll(query: $q) { ... } }``: every item (``None``);
* ``mutation { ... }``: a write, its result the written record (``WRITE``).

A field's name says whether it is a list when no paging argument does: a plural noun or a
collection verb (``shapes.is_plural``, ``shapes.COLLECTION_VERBS``). Lists nested inside one
record are part of that record (labelling rule 5: one record of fixed shape).
"""

from __future__ import annotations

import re
from typing import Literal

from tokenlint.analysis.shapes import COLLECTION_VERBS, is_plural, words

#: The judgement of a document that asks for one record per root field.
RECORD: Literal["record"] = "record"
#: The judgement of a ``mutation`` document.
WRITE: Literal["write"] = "write"

#: The start of an executable GraphQL document (spec §2.3): a named operation or one with
#: variables (``query Name($v: T) {``, ``mutation ($v: T) {``), or an anonymous one or the query
#: shorthand whose first field has arguments or a selection of its own (``query { me { id } }``,
#: ``{ user(id: 1) { name } }``; not an f-string hole: ``{base}/users``, ``f"query {term}"``).
_OPERATION = re.compile(
    r"\A\s*(?:(?:query|subscription|mutation)\s*(?:\w+\s*)?\([^)]*\)\s*\{|(?:query|subscription|mutation)\s+\w+\s*\{"
    r"|(?:(?:query|subscription|mutation)\s*)?\{(?=\s*\w+[^{}]*[{(]))\s*[A-Za-z_]")
#: The operation type a document starts with, if it names one (the shorthand is a query).
_OPERATION_TYPE = re.compile(r"\s*(query|subscription|mutation)\b")

#: Arguments that page a list, by the names schemas give them (Relay ``first``/``last``; others).
_PAGING_ARGUMENT = re.compile(
    r"\b(first|last|limit|count|size|pageSize|page_size|perPage|per_page|take|top|maxResults|max_results)"
    r"\s*:\s*(\d+|\$\w+)")

#: A root field: an optional alias, the field's name, and the start of its arguments or selection.
_FIELD = re.compile(r"\s*(?:(\w+)\s*:\s*)?(\w+)\s*")
#: A fragment spread (``...Fields``) or an inline fragment's type condition (``... on User``).
_SPREAD = re.compile(r"\.\.\.\s*(?:on\s+)?\w*\s*")


def is_document(text: str) -> bool:
    """Whether ``text`` reads as an executable GraphQL document (``_OPERATION``)."""
    return bool(_OPERATION.match(text))


def document_rows(text: str) -> int | None | Literal["record", "write"]:
    """What the GraphQL document ``text`` asks for: ``WRITE`` for a mutation; ``RECORD`` when every
    root field names one object; else the number of items a paging argument of every list field
    allows (the largest literal; ``-1`` when a variable sets one), or None when a list field has no
    paging argument (every item).

    Raises ``ValueError`` when ``text`` is no GraphQL document (``is_document``)."""
    m = _OPERATION.match(text)
    if m is None:
        raise ValueError("not a GraphQL document")
    kind = _OPERATION_TYPE.match(text)
    if kind is not None and kind.group(1) == "mutation":
        return WRITE
    body = re.sub(r"#[^\n]*", "", text[text.rfind("{", 0, m.end()):])  # (from the root selection's ``{``)
    pages: list[int] = []
    for name, arguments in _root_fields(body):
        paged = [p for _, p in _PAGING_ARGUMENT.findall(arguments)]
        ws = words(name)
        if paged:
            pages.extend(int(p) if p.isdigit() else -1 for p in paged)
        elif name.startswith("__") or not ws or not (is_plural(ws[-1]) or ws[0] in COLLECTION_VERBS):
            continue  # one object (``me``, ``dataset(urn: $urn)``, ``__typename``)
        else:
            return None
    if not pages:
        return RECORD
    return -1 if -1 in pages else max(pages)


def _root_fields(body: str) -> list[tuple[str, str]]:
    """The root fields of the selection set that starts ``body`` (at its ``{``): each field's
    name and the text of its arguments (``""`` when it has none); fragments spread at the root are
    skipped."""
    fields: list[tuple[str, str]] = []
    i, depth = 1, 1
    while i < len(body) and depth > 0:
        c = body[i]
        if c == "}":
            depth -= 1
            i += 1
            continue
        if c == "{":
            depth += 1
            i += 1
            continue
        if depth == 1 and (c.isalpha() or c == "_"):
            m = _FIELD.match(body, i)
            assert m is not None  # (a letter starts a name)
            i = m.end()
            arguments = ""
            if i < len(body) and body[i] == "(":
                close = _closing(body, i, "(", ")")
                arguments, i = body[i + 1:close], close + 1
            fields.append((m.group(2), arguments))
            continue
        if depth == 1 and body.startswith("...", i):  # a fragment spread: skip its name
            m = _SPREAD.match(body, i)
            i = m.end() if m else i + 3
            continue
        i += 1
    return fields


def _closing(text: str, start: int, opening: str, closing: str) -> int:
    """Index of the bracket that closes the one at ``start`` (or the end of ``text``)."""
    depth = 0
    for j in range(start, len(text)):
        if text[j] == opening:
            depth += 1
        elif text[j] == closing:
            depth -= 1
            if depth == 0:
                return j
    return len(text)
