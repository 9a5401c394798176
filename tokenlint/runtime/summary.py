"""What a first page leaves out: a small summary of the remaining records.

``summarize_omitted(records)`` returns, for the records not shown::

    {"count": 150,
     "fields": {"id": "int", "name": "str", "manager": "str|null"},
     "value_counts": {"role": {"admin": 12, "viewer": 138}, "active": {"true": 120, "false": 30}}}

``fields`` lists up to ``max_fields`` keys of dict records with the JSON types seen in a sample
(up to ``sample_size`` records, evenly spread); ``value_counts`` gives, for scalar fields with at
most ``max_values`` distinct values over *all* omitted records (low cardinality), the count of
each value. Non-dict records get ``{"count": n, "types": ["int", "str", ...]}``.
"""

from __future__ import annotations

from typing import Any, Sequence

__all__ = ["summarize_omitted", "OmittedSummarizer"]


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _key(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


class OmittedSummarizer:
    """Summaries of ``records[skip:]`` for several ``skip`` values at the cost of one pass.

    Value counts are taken over every record once; ``summary(skip)`` subtracts the first ``skip``
    records (a page holds at most a few dozen).
    """

    def __init__(self, records: Sequence[Any], *, max_fields: int = 25, max_values: int = 8,
                 sample_size: int = 200) -> None:
        self.records = records
        self.max_values = max_values
        n = len(records)
        step = max(1, n // sample_size)
        sample = records[::step][:sample_size]
        self.types: list[str] | None = None
        self.fields: dict[str, str] = {}
        self.counts: dict[str, dict[str, int]] = {}
        if n == 0:
            return
        if not all(isinstance(r, dict) for r in sample):
            self.types = sorted({_type_name(r) for r in sample})
            return
        fields: dict[str, set[str]] = {}
        for r in sample:
            for k, v in r.items():
                if k in fields or len(fields) < max_fields:
                    fields.setdefault(str(k), set()).add(_type_name(v))
        self.fields = {k: "|".join(sorted(t)) for k, t in fields.items()}
        candidates = {k for k, t in fields.items() if t <= {"str", "bool", "int", "null"}}
        counts: dict[str, dict[str, int]] = {k: {} for k in candidates}
        for r in records:
            if not candidates:
                break
            if not isinstance(r, dict):
                continue
            for k in list(candidates):
                v = r.get(k)
                if isinstance(v, (dict, list, float)):
                    candidates.discard(k)
                    counts.pop(k, None)
                    continue
                c = counts[k]
                key = _key(v)
                c[key] = c.get(key, 0) + 1
                if len(c) > max_values:
                    candidates.discard(k)
                    counts.pop(k, None)
        self.counts = counts

    def summary(self, skip: int = 0) -> dict[str, Any]:
        """Summary of ``records[skip:]`` (see the module docstring)."""
        n = len(self.records) - skip
        out: dict[str, Any] = {"count": n}
        if n <= 0:
            return out
        if self.types is not None:
            out["types"] = self.types
            return out
        out["fields"] = dict(self.fields)
        value_counts: dict[str, dict[str, int]] = {}
        for k, c in self.counts.items():
            c = dict(c)
            for r in self.records[:skip]:
                if isinstance(r, dict):
                    key = _key(r.get(k))
                    if key in c:
                        c[key] -= 1
                        if c[key] <= 0:
                            del c[key]
            # a field whose every value is distinct is an id, not a category
            if c and (len(c) < n or n == 1):
                value_counts[k] = dict(sorted(c.items(), key=lambda kv: (-kv[1], kv[0])))
        if value_counts:
            out["value_counts"] = dict(sorted(value_counts.items()))
        return out


def summarize_omitted(records: Sequence[Any], **options: Any) -> dict[str, Any]:
    """Summary of ``records`` (the ones a page leaves out): ``{"count": n, "fields": {key: json
    types}, "value_counts": {key: {value as str: count}}}`` for dict records, ``{"count": n,
    "types": [json type names]}`` otherwise (module docstring). ``options``: ``max_fields``,
    ``max_values``, ``sample_size`` (counts of keys, values and records), as for
    ``OmittedSummarizer``."""
    return OmittedSummarizer(records, **options).summary(0)
