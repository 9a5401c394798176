"""Every rule, one module each; importing this package registers them all (``REGISTRY``)."""

from __future__ import annotations

import importlib
import pkgutil

from tokenlint.rules.base import REGISTRY, Rule, RuleContext

for _info in pkgutil.iter_modules(__path__):
    if _info.name.startswith("tl"):
        importlib.import_module(f"{__name__}.{_info.name}")


def all_rules() -> list[type[Rule]]:
    """Every registered rule class, sorted by code."""
    return [REGISTRY[c] for c in sorted(REGISTRY)]


__all__ = ["REGISTRY", "Rule", "RuleContext", "all_rules"]
