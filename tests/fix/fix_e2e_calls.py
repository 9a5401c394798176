"""What the ``tokenlint fix`` end-to-end tests run: servers x SDKs, and the calls made on each.

A call is ``large`` (its original response is over the budget: the rewrite must page it),
``small`` (within the budget: the rewrite must return exactly the same result) or ``capped``
(the original silently cuts the rows with ``[:50]`` (TL301); the rewrite drops the cut, so its
pages must hold every row of ``full_sql``, the original's rows first).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Budget given to ``tokenlint fix --max-response-tokens``, in tokens (cl100k). Small, so the
#: data (tests/fix/fix_e2e_data.py) and the tests stay small and fast.
BUDGET_TOKENS = 2000

#: (id, venv, script in fixtures/runnable/) of every server x SDK run.
SERVERS = [
    ("fastmcp-v1", "mcp1", "inventory_fastmcp_v1.py"),
    ("mcpserver-v2", "mcp2", "customers_mcpserver_v2.py"),
    ("standalone-fastmcp3", "mcp1", "orders_fastmcp.py"),
    ("standalone-fastmcp4", "mcp2", "orders_fastmcp.py"),
    ("lowlevel-v1", "mcp1", "warehouse_lowlevel_v1.py"),
    ("lowlevel-v2", "mcp2", "shipping_lowlevel_v2.py"),
    # registration forms found by discovery: a registry of handler objects whose schemas no
    # literal names (the cursor is declared by ``declare_cursor`` in list_tools), a single-tool
    # handler named by list_tools, tools that are bound methods, an SDK client's listing, a
    # closure run in a worker thread
    ("registry-lowlevel-v1", "mcp1", "registry_lowlevel_v1.py"),
    ("single-tool-lowlevel-v2", "mcp2", "logbook_single_tool_v2.py"),
    ("methods-fastmcp3", "mcp1", "catalog_methods_fastmcp.py"),
]


@dataclass(frozen=True)
class Call:
    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    kind: str = "large"
    full_sql: str | None = None

    @property
    def id(self) -> str:
        args = ",".join(f"{k}={v}" for k, v in self.args.items())
        return f"{self.tool}({args})"


CALLS: dict[str, list[Call]] = {
    "inventory_fastmcp_v1.py": [
        Call("list_products"),
        Call("read_log"),
        Call("read_log", {"name": "small.log"}, "small"),
        Call("export_orders"),
        Call("export_orders", {"status": "lost"}, "small"),
        Call("category_report", {"category": "hardware"}),
        Call("category_report", {"category": "books"}, "small"),
        Call("recent_orders", {"limit": 200}),
        Call("recent_orders", {}, "small"),
        Call("low_stock", {}, "capped", "SELECT * FROM products WHERE stock < 10 ORDER BY stock, id"),
        Call("get_product", {"product_id": 3}, "small"),
    ],
    "customers_mcpserver_v2.py": [
        Call("list_customers"),
        Call("read_audit_log"),
        Call("export_products", {"category": "hardware"}),
        Call("export_products", {"category": "books"}, "small"),
        Call("customer_orders", {"customer_id": 1}),
        Call("customer_orders", {"customer_id": 2}, "small"),
        Call("search_customers", {"text": "e", "limit": 200}),
        Call("search_customers", {"text": "Reykjavik"}, "small"),
        Call("top_customers", {}, "capped",
             "SELECT c.id, c.name, c.city, SUM(o.quantity) AS items FROM customers c "
             "JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY items DESC, c.id"),
        Call("count_orders", {"status": "open"}, "small"),
    ],
    "orders_fastmcp.py": [
        Call("list_orders", {"status": "shipped"}),
        Call("list_orders", {"status": "lost"}, "small"),
        Call("read_log"),
        Call("read_log", {"name": "small.log"}, "small"),
        Call("orders_json", {"customer_id": 1}),
        Call("orders_json", {"customer_id": 2}, "small"),
        Call("product_orders", {"product_id": 1}),
        Call("product_orders", {"product_id": 2}, "small"),
        # ~1,200 tokens as fastmcp renders it (compact JSON), over 2,000 as indented JSON
        Call("product_orders", {"product_id": 3}, "small"),
        Call("latest_orders", {"limit": 250}),
        Call("latest_orders", {}, "small"),
        Call("stale_orders", {}, "capped", "SELECT * FROM orders WHERE status = 'open' ORDER BY created_at, id"),
        Call("get_order", {"order_id": 9}, "small"),
    ],
    "warehouse_lowlevel_v1.py": [
        Call("list_products"),
        Call("read_log"),
        Call("read_log", {"name": "small.log"}, "small"),
        Call("export_customers", {"city": "Lyon"}),
        Call("export_customers", {"city": "Reykjavik"}, "small"),
        Call("stock_summary", {"category": "hardware"}),
        Call("stock_summary", {"category": "books"}, "small"),
        Call("recent_orders", {"limit": 200}),
        Call("recent_orders", {}, "small"),
        Call("reorder_list", {}, "capped",
             "SELECT id, sku, name, stock FROM products WHERE stock < 10 ORDER BY stock, id"),
        Call("product", {"product_id": 3}, "small"),
    ],
    "registry_lowlevel_v1.py": [
        Call("list_stock", {"category": "hardware"}),
        Call("list_stock", {"category": "books"}, "small"),
        Call("read_stock_log"),
        Call("read_stock_log", {"name": "small.log"}, "small"),
        Call("count_products", {}, "small"),
    ],
    "logbook_single_tool_v2.py": [
        Call("logbook"),
        Call("logbook", {"name": "small.log"}, "small"),
    ],
    "catalog_methods_fastmcp.py": [
        Call("catalog_orders", {"customer_id": 1}),
        Call("catalog_orders", {"customer_id": 2}, "small"),
        Call("catalog_log"),
        Call("catalog_log", {"name": "small.log"}, "small"),
        Call("widgets", {"category": "hardware"}),
        Call("widgets", {"category": "books"}, "small"),
        Call("widget", {"widget_id": 3}, "small"),
        Call("orders_by_status", {"status": "shipped"}),
        Call("orders_by_status", {"status": "lost"}, "small"),
    ],
    "shipping_lowlevel_v2.py": [
        Call("shipments"),
        Call("carrier_log"),
        Call("export_status", {"status": "open"}),
        Call("status_report", {"status": "cancelled"}),
        Call("recent_shipments", {"limit": 150}),
        Call("recent_shipments", {}, "small"),
        Call("delayed", {}, "capped",
             "SELECT id, customer_id, created_at FROM orders WHERE status = 'open' ORDER BY created_at, id"),
        Call("shipment", {"order_id": 5}, "small"),
    ],
}
