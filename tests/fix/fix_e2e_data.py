"""Deterministic data for the runnable fixture servers (fixtures/runnable/).

``write_dataset(root)`` creates ``root/inventory.db`` (SQLite: ``products``, ``customers``,
``orders``) and ``root/logs/`` (``app.log``, ``audit.log``, ``carrier.log``, ``small.log``) and
returns the environment variables the servers read (``INVENTORY_DB``, ``INVENTORY_LOG_DIR``).

Sizes are chosen against the e2e budget of 2,000 tokens: every "large" call of the tests returns
several budgets' worth (2-10 pages), every "small" call well under one budget. The same seed
gives the same bytes, so a failure reproduces.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

WORDS = ("steel bracket hinge oak panel cordless drill bit set garden hose reel ceramic tile "
         "adhesive copper pipe fitting rubber seal brass valve cedar plank wall anchor lamp "
         "socket wrench ladder paint roller primer sandpaper grit clamp vice bench").split()
CITIES = ["Lyon"] * 6 + ["Porto"] * 3 + ["Gdansk"] * 2 + ["Oslo"]
#: Categories: "hardware" is large, "books" holds two products (a small result).
CATEGORIES = ["hardware"] * 7 + ["garden"] * 2 + ["paint"]
STATUSES = ["open", "shipped", "shipped", "cancelled"]


def _text(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def write_dataset(root: Path, seed: int = 4) -> dict[str, str]:
    """Write the database and the logs under ``root``; return the servers' environment."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    db_path = root / "inventory.db"
    if db_path.exists():
        db_path.unlink()
    db = sqlite3.connect(db_path)
    db.executescript("""
        CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT, name TEXT, category TEXT,
                               price_cents INTEGER, stock INTEGER, description TEXT);
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, email TEXT, city TEXT,
                                notes TEXT);
        CREATE TABLE orders (id INTEGER PRIMARY KEY, product_id INTEGER, customer_id INTEGER,
                             quantity INTEGER, status TEXT, created_at TEXT);
    """)
    products = []
    for i in range(1, 121):
        category = "books" if i in (7, 77) else rng.choice(CATEGORIES)
        stock = rng.randrange(0, 10) if i % 5 < 3 else rng.randrange(10, 400)
        products.append((i, f"SKU-{i:05d}", _text(rng, 3).title(), category,
                         rng.randrange(199, 99_999), stock, _text(rng, 12)))
    db.executemany("INSERT INTO products VALUES (?, ?, ?, ?, ?, ?, ?)", products)
    customers = []
    for i in range(1, 81):
        city = "Reykjavik" if i in (5, 50) else rng.choice(CITIES)
        first = rng.choice(["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana"])
        customers.append((i, f"{first} {_text(rng, 1).title()}", f"{first.lower()}{i}@example.com",
                          city, f"prefers {_text(rng, 10)}"))
    db.executemany("INSERT INTO customers VALUES (?, ?, ?, ?, ?)", customers)
    orders = []
    for i in range(1, 401):
        # customer 1 and product 1 order a lot, product 3 some (over the budget as indented
        # JSON, under it as compact JSON); customer 2 and product 2 once
        customer = 1 if i % 8 == 0 else (2 if i == 100 else rng.randrange(3, 81))
        product = 1 if i % 3 == 0 else (3 if i % 6 == 1 else (2 if i == 152 else rng.randrange(4, 121)))
        day = 1 + (i * 7919) % 180
        orders.append((i, product, customer, rng.randrange(1, 20), rng.choice(STATUSES),
                       f"2024-{1 + (day - 1) // 30:02d}-{1 + (day - 1) % 30:02d}T{i % 24:02d}:00:00Z"))
    db.executemany("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)", orders)
    db.commit()
    db.close()

    logs = root / "logs"
    logs.mkdir(exist_ok=True)
    for name, lines in (("app.log", 500), ("audit.log", 350), ("carrier.log", 300), ("small.log", 6)):
        out = []
        for n in range(lines):
            level = rng.choice(["INFO", "INFO", "INFO", "WARN", "ERROR"])
            out.append(f"2024-05-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:00Z {level} "
                       f"worker-{rng.randrange(1, 9)} order {rng.randrange(1, 401)}: {_text(rng, 6)}")
        (logs / name).write_text("\n".join(out) + "\n", encoding="utf-8")
    return {"INVENTORY_DB": str(db_path), "INVENTORY_LOG_DIR": str(logs)}
