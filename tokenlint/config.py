"""``[tool.tokenlint]`` in ``pyproject.toml``: discovery, validation, command-line overrides.

The nearest ``pyproject.toml`` holding a ``[tool.tokenlint]`` table, searched upward from the
first path checked (or the current directory), wins; ``--config PATH`` names one explicitly.
Unknown keys and wrong types raise ``ConfigError`` (exit code 2), naming the key, as ruff does.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

#: Directory names never descended into (virtual environments are also recognised by their
#: ``pyvenv.cfg``).
DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", ".eggs", "__pycache__",
    "build", "dist", "node_modules", "site-packages", ".mypy_cache", ".pytest_cache",
    ".ruff_cache", ".tokenlint_cache", ".venvs", "*.egg-info",
)

#: Claude Code warns above 10,000 tokens per tool result (field.md §2).
DEFAULT_MAX_RESPONSE_TOKENS = 10_000
#: Per tool definition (description + input schema), in tokens (design.md).
DEFAULT_MAX_DEFINITION_TOKENS = 500

FAIL_ON_CHOICES = ("any", "low", "medium", "high")
SOURCE_CODES = ("TL101", "TL102", "TL103", "TL104", "TL105", "TL106", "TL108")


class ConfigError(Exception):
    """An invalid configuration file or option; the message names the file and key."""


@dataclass(frozen=True)
class Settings:
    """Every setting of a run; frozen and picklable. Token budgets are in tokens."""

    select: tuple[str, ...] = ("TL",)
    ignore: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    max_response_tokens: int = DEFAULT_MAX_RESPONSE_TOKENS
    max_definition_tokens: int = DEFAULT_MAX_DEFINITION_TOKENS
    fail_on: str = "any"
    extra_sources: dict[str, str] = field(default_factory=dict)
    extra_bounds: frozenset[str] = frozenset()
    respect_gitignore: bool = True
    force_exclude: bool = False
    #: ``fix`` declares ``mcp-tokenlint-runtime`` in the rewritten project's manifest.
    declare_dependency: bool = True
    #: client profile (``tokenlint.runtime.limits.PROFILES``: claude-code, codex, copilot-cli,
    #: claude-desktop, generic); None: the token budget alone. ``check`` names its limits and
    #: ``fix`` writes ``client=...`` into each runtime call, so pages keep them.
    client: str | None = None
    #: ``fix`` adds one sentence on paging to each rewritten tool's description (``fix.codemod.PAGING_HINT``).
    paging_hint: bool = True
    config_file: str | None = None
    root: str = "."

    def selects(self, code: str) -> bool:
        """Whether ``code`` is enabled: selected by a prefix (``"TL1"``, ``"ALL"``) and not
        ignored by a longer-or-equal prefix. TL001 (a file that cannot be analysed) is always
        enabled: no selection lets a broken file pass (``exclude`` the file instead)."""
        if code == "TL001":
            return True
        chosen = [p for p in (*self.select, *self.extend_select) if p == "ALL" or code.startswith(p)]
        if not chosen:
            return False
        best = max(len(p) if p != "ALL" else 0 for p in chosen)
        return not any(code.startswith(p) and len(p) >= best for p in self.ignore)


#: Key of [tool.tokenlint] -> the TOML type its value must have.
_KEYS: dict[str, type[Any]] = {
    "select": list, "ignore": list, "extend-select": list, "exclude": list,
    "extend-exclude": list, "per-file-ignores": dict, "max-response-tokens": int,
    "max-definition-tokens": int, "fail-on": str, "extra-sources": dict, "extra-bounds": list,
    "respect-gitignore": bool, "force-exclude": bool, "declare-dependency": bool, "client": str,
    "paging-hint": bool,
}


def find_config(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` with a ``[tool.tokenlint]`` table at or above ``start``."""
    start = start.resolve()
    for directory in [start, *start.parents] if start.is_dir() else [start.parent, *start.parent.parents]:
        candidate = directory / "pyproject.toml"
        if candidate.is_file():
            try:
                data = tomllib.loads(candidate.read_text(encoding="utf-8"))
            except OSError:
                continue
            except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise ConfigError(f"{candidate}: invalid TOML: {exc}") from None
            if "tokenlint" in data.get("tool", {}):
                return candidate
    return None


def load_settings(config_file: Path | None, overrides: dict[str, Any] | None = None) -> Settings:
    """Settings from ``config_file`` (if any) with command-line ``overrides`` (already in
    ``Settings`` field names) applied on top. Raises ``ConfigError``."""
    settings = Settings()
    if config_file is not None:
        try:
            data = tomllib.loads(config_file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"{config_file}: cannot read: {exc.strerror or exc}") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise ConfigError(f"{config_file}: invalid TOML: {exc}") from None
        table = data.get("tool", {}).get("tokenlint", {})
        settings = _apply_table(settings, table, config_file)
    for key, value in (overrides or {}).items():
        if value is not None:
            settings = replace(settings, **{key: value})
    if settings.client is not None:
        settings = _with_client(settings)
    if settings.fail_on not in FAIL_ON_CHOICES:
        raise ConfigError(f"fail-on must be one of {', '.join(FAIL_ON_CHOICES)}, not {settings.fail_on!r}")
    _check_selectors(settings)
    return settings


#: The client profiles ``--client`` and ``client = ...`` accept: the names of
#: ``tokenlint.runtime.limits.PROFILES`` (spelled out so the CLI starts without importing the
#: runtime; tests/test_client_profiles.py checks they agree).
CLIENT_NAMES = ("claude-code", "codex", "copilot-cli", "claude-desktop", "generic")


def _with_client(settings: Settings) -> Settings:
    """Check ``client`` and bound ``max_response_tokens`` by the profile's token limit (tokens).
    Raises ``ConfigError`` for an unknown profile."""
    from tokenlint.runtime.limits import PROFILES

    profile = PROFILES.get(settings.client or "")
    if profile is None:
        raise ConfigError(f"client must be one of {', '.join(PROFILES)}, not {settings.client!r}")
    return replace(settings, max_response_tokens=profile.budget_tokens(settings.max_response_tokens))


def _check_selectors(settings: Settings) -> None:
    """Every code or prefix in select/extend-select/ignore/per-file-ignores must name at least
    one rule (or be ``ALL``): a typo such as ``TL20l`` would otherwise select or ignore nothing,
    silently. Raises ``ConfigError`` naming the selector."""
    codes = rule_codes()
    groups = [("select", settings.select), ("extend-select", settings.extend_select), ("ignore", settings.ignore)]
    groups += [(f"per-file-ignores.{pattern}", codes) for pattern, codes in settings.per_file_ignores]
    for key, selectors in groups:
        for selector in selectors:
            if selector != "ALL" and not any(code.startswith(selector) for code in codes):
                raise ConfigError(
                    f"unknown rule selector `{selector}` in {key}: it matches no rule "
                    f"(codes: {', '.join(codes)}; a prefix such as TL1 selects a group)"
                )


def rule_codes() -> tuple[str, ...]:
    """Every rule's code, sorted, read from the rule modules' file names
    (``rules/tl101_unbounded_query_result.py`` → ``TL101``) without importing them: importing
    the rules loads LibCST, which a fully cached run never needs. ``tests/test_speed.py``
    checks that this equals ``tokenlint.rules.REGISTRY``."""
    import pkgutil

    rules_dir = str(Path(__file__).with_name("rules"))
    names = (m.name for m in pkgutil.iter_modules([rules_dir]))
    return tuple(sorted(n.split("_")[0].upper() for n in names if n.startswith("tl")))


def _apply_table(settings: Settings, table: dict, path: Path) -> Settings:
    changes: dict[str, Any] = {"config_file": str(path), "root": str(path.parent)}
    for key, value in table.items():
        expected = _KEYS.get(key)
        if expected is None:
            raise ConfigError(
                f"{path}: unknown key `{key}` in [tool.tokenlint]; known keys: {', '.join(sorted(_KEYS))}"
            )
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ConfigError(f"{path}: `{key}` must be a {expected.__name__}, not {type(value).__name__}")
        attr = key.replace("-", "_")
        if key in ("select", "ignore", "extend-select", "exclude", "extend-exclude"):
            _strings(path, key, value)
            changes[attr] = tuple(value)
        elif key == "per-file-ignores":
            pairs = []
            for pattern, codes in value.items():
                _strings(path, f"per-file-ignores.{pattern}", codes)
                pairs.append((pattern, tuple(codes)))
            changes[attr] = tuple(pairs)
        elif key == "extra-sources":
            for name, code in value.items():
                if code not in SOURCE_CODES:
                    raise ConfigError(
                        f"{path}: extra-sources.{name} must be one of {', '.join(SOURCE_CODES)}, not {code!r}"
                    )
            changes[attr] = dict(value)
        elif key == "extra-bounds":
            _strings(path, key, value)
            changes[attr] = frozenset(value)
        elif key in ("max-response-tokens", "max-definition-tokens") and value <= 0:
            raise ConfigError(f"{path}: `{key}` must be a positive number of tokens")
        else:
            changes[attr] = value
    return replace(settings, **changes)


def _strings(path: Path, key: str, value: list) -> None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{path}: `{key}` must be a list of strings")


def settings_text(settings: Settings) -> str:
    """``--show-settings``: every setting as a TOML-like ``key = value`` line, keys spelled as
    in ``[tool.tokenlint]`` (``config-file`` and ``root`` say where the settings came from)."""
    import json
    from dataclasses import fields

    def value(v: Any) -> str:
        if isinstance(v, (frozenset, set)):
            v = sorted(v)
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(k)} = {value(x)}" for k, x in v.items()) + " }" if v else "{}"
        if isinstance(v, (tuple, list)):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return json.dumps(v)

    lines = []
    for f in fields(settings):
        v = getattr(settings, f.name)
        if f.name == "per_file_ignores":
            v = dict(v)
        lines.append(f"{f.name.replace('_', '-')} = {value(v) if v is not None else '(none)'}\n")
    return "".join(lines)
