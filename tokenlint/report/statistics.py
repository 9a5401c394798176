"""``--statistics``: how many findings each rule produced, instead of the findings themselves.

Text: one line per rule, ``count<TAB>code<TAB>[*] name`` (ruff's layout; ``[*]`` when
``tokenlint fix`` can fix it), most frequent first. JSON: a list of
``{"code", "name", "count", "fixable"}`` in the same order.
"""

from __future__ import annotations

import json
from collections import Counter

from tokenlint.model import CheckResult, Finding

#: Formats ``--statistics`` can be printed in.
STATISTICS_FORMATS = ("text", "json")


def statistics(result: CheckResult) -> list[dict]:
    """Per rule code: name, count, fixable; sorted by count (descending), then code."""
    n = Counter(f.code for f in result.findings)
    first: dict[str, Finding] = {}
    for f in result.findings:
        first.setdefault(f.code, f)
    return [
        {"code": code, "name": first[code].name, "count": count, "fixable": first[code].fixable}
        for code, count in sorted(n.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def render_statistics(fmt: str, result: CheckResult) -> str:
    """The ``--statistics`` report of ``result``: for ``fmt`` ``"json"`` the list of
    ``statistics(result)`` as JSON (indented by 2, ``[]`` when there are no findings); for any other
    format the text table, one ``count<TAB>code<TAB>[*] name`` line per rule with the counts
    right-aligned (empty when there are no findings)."""
    rows = statistics(result)
    if fmt == "json":
        return json.dumps(rows, indent=2) + "\n"
    width = max((len(str(r["count"])) for r in rows), default=1)
    return "".join(
        f"{r['count']:>{width}}\t{r['code']}\t{'[*] ' if r['fixable'] else ''}{r['name']}\n" for r in rows
    )
