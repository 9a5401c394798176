"""Data and tool bodies shared by the fixture servers (standard library + tokenlint.runtime only).

Each fixture server (one per SDK flavour) exposes the same tools and calls these functions, so the
test suite can compute the expected full results in its own environment.
"""

from __future__ import annotations

import os
import random
from typing import Any

from tokenlint.runtime import ResultStore, fit_response

#: Budget of every paged tool in the fixture servers, in tokens (small, so pages are many).
MAX_TOKENS = int(os.environ.get("TL_TEST_MAX_TOKENS", "2000"))
#: Store of the paged tools: small bounds so 1,000 distinct calls must evict.
STORE = ResultStore(max_entries=40, max_bytes=2_000_000)
#: Store whose results expire after one second (the expired-cursor test).
SHORT_STORE = ResultStore(ttl_seconds=1)

ROLES = ["admin", "editor", "viewer", "owner"]


def users(n: int, role: str | None = None) -> list[dict[str, Any]]:
    """``n`` deterministic user records (filtered by ``role`` afterwards)."""
    rnd = random.Random(n)
    out = []
    for i in range(n):
        out.append({
            "id": i,
            "name": f"user-{i:05d}",
            "email": f"user{i}@example.com",
            "role": ROLES[rnd.randrange(4)],
            "active": rnd.random() < 0.7,
            "bio": " ".join(rnd.choice(["data", "grows", "tokens", "página", "数据", "🚀", "ok"])
                            for _ in range(rnd.randrange(5, 40))),
        })
    return [u for u in out if role is None or u["role"] == role]


def report(n: int) -> dict[str, Any]:
    """A dict holding one list, as many tools return."""
    return {"query": f"select * from users limit {n}", "rows": users(n), "count": n}


def document() -> str:
    """A markdown document: prose, small fenced blocks, and one block larger than a page."""
    rnd = random.Random(7)
    words = ["the", "server", "returns", "rows", "budget", "token", "page", "cursor", "model",
             "context", "grows", "with", "data", "naïve", "日本語", "🙂"]
    parts = []
    for sec in range(40):
        parts.append(f"## Section {sec}\n")
        for _ in range(3):
            parts.append(" ".join(rnd.choice(words) for _ in range(rnd.randrange(20, 90))) + ".\n")
        if sec % 5 == 2:
            parts.append("```python\n" + "".join(
                f"def f{sec}_{i}(x):\n    return x * {i}  # {rnd.choice(words)}\n"
                for i in range(rnd.randrange(3, 12))) + "```\n")
        if sec == 20:
            parts.append("~~~text\n" + "".join(
                f"log line {i}: " + " ".join(rnd.choice(words) for _ in range(12)) + "\n"
                for i in range(900)) + "~~~\n")
    return "\n".join(parts)


def big_records() -> list[dict[str, Any]]:
    """Records where one is larger than the whole budget."""
    rnd = random.Random(3)
    recs: list[dict[str, Any]] = [{"id": i, "note": "small"} for i in range(5)]
    recs.append({"id": 5, "blob": " ".join(f"{rnd.getrandbits(32):08x}" for _ in range(3000))})
    recs += [{"id": i, "note": "small again"} for i in range(6, 9)]
    return recs


def many_rows(i: int, rows: int = 40) -> list[dict[str, Any]]:
    """An over-budget list, different for every ``i`` (the store-bounds tests): ``rows`` records
    of about 250 bytes each (40: ~10 KB stored; 800: ~200 KB)."""
    return [{"call": i, "row": j, "text": "lorem ipsum dolor sit amet " * 8} for j in range(rows)]


def args(**kwargs: Any) -> dict[str, Any]:
    return dict(kwargs)


def page_list_users(n: int, role: str | None, cursor: str | None, session_id: str | None = None,
                    tool: str = "list_users"):
    """``list_users`` (with ``role``) or a variant tool ``tool`` (arguments ``n`` and ``cursor``)."""
    arguments = args(n=n, role=role, cursor=cursor) if tool == "list_users" else \
        args(n=n, cursor=cursor)
    return fit_response(users(n, role), tool=tool, arguments=arguments, cursor=cursor,
                        max_tokens=MAX_TOKENS, session_id=session_id, store=STORE)


def page_get_report(n: int, cursor: str | None, session_id: str | None = None):
    return fit_response(report(n), tool="get_report", arguments=args(n=n, cursor=cursor),
                        cursor=cursor, max_tokens=MAX_TOKENS, session_id=session_id, store=STORE)


def page_read_doc(cursor: str | None, session_id: str | None = None):
    return fit_response(document(), tool="read_doc", arguments=args(cursor=cursor), cursor=cursor,
                        max_tokens=MAX_TOKENS, session_id=session_id, store=STORE)


def page_big_records(cursor: str | None, session_id: str | None = None):
    return fit_response(big_records(), tool="big_records", arguments=args(cursor=cursor),
                        cursor=cursor, max_tokens=MAX_TOKENS, session_id=session_id, store=STORE)


def page_expiring(cursor: str | None, session_id: str | None = None):
    return fit_response(users(200), tool="expiring", arguments=args(cursor=cursor), cursor=cursor,
                        max_tokens=MAX_TOKENS, session_id=session_id, store=SHORT_STORE)


def page_many(i: int, cursor: str | None, session_id: str | None = None, rows: int = 40):
    arguments = args(i=i, cursor=cursor) if rows == 40 else args(i=i, rows=rows, cursor=cursor)
    return fit_response(many_rows(i, rows), tool="many", arguments=arguments,
                        cursor=cursor, max_tokens=MAX_TOKENS, session_id=session_id, store=STORE)


def store_stats() -> dict[str, int]:
    return STORE.stats()


def serve(server: Any, flavour: str) -> None:
    """Run ``server`` over stdio, or over streamable HTTP on 127.0.0.1:$TL_HTTP_PORT when set.

    ``flavour``: ``"sdk1"`` (mcp 1.x FastMCP), ``"sdk2"`` (mcp 2.x MCPServer) or ``"fastmcp"``
    (standalone fastmcp 3.x/4.x).
    """
    port = os.environ.get("TL_HTTP_PORT")
    if not port:
        server.run(show_banner=False) if flavour == "fastmcp" else server.run()
    elif flavour == "sdk1":
        server.settings.host, server.settings.port = "127.0.0.1", int(port)
        server.run(transport="streamable-http")
    elif flavour == "sdk2":
        server.run(transport="streamable-http", host="127.0.0.1", port=int(port))
    else:
        server.run(transport="http", host="127.0.0.1", port=int(port), show_banner=False)
