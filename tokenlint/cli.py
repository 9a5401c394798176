"""Command line: ``tokenlint check`` (and ``tokenlint rule``).

Exit codes (ruff, bandit): 0 nothing at or above ``--fail-on``; 1 findings; 2 a usage or
configuration error, or tokenlint's own failure. A file that cannot be parsed is a TL001
finding, not an exit 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from tokenlint import __version__
from tokenlint.config import DEFAULT_MAX_RESPONSE_TOKENS, FAIL_ON_CHOICES, ConfigError, find_config, load_settings
from tokenlint.model import Risk


def _codes(value: str | None) -> tuple[str, ...] | None:
    if not value:
        return None
    return tuple(c.strip().upper() for c in value.split(",") if c.strip())


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tokenlint")
def main() -> None:
    """tokenlint: find MCP tools whose responses grow with data, rate their risk, fix them.

    MCP clients cap tool output (Claude Code warns above 10,000 tokens and refuses above
    25,000). tokenlint finds every tool of FastMCP (mcp 1.x), MCPServer (mcp 2.x), standalone
    fastmcp and low-level Server code, traces what each response is built from, and reports
    unbounded collections, unclamped limits, missing token estimation and silent truncation.
    """


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-f", "--format", "--output-format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Report format: text (diagnostics + risk table) or json (versioned contract).")
@click.option("--select", help="Comma-separated rule codes or prefixes to enable (e.g. TL1,TL201; ALL).")
@click.option("--extend-select", help="Codes or prefixes to enable on top of the configured selection.")
@click.option("--ignore", help="Comma-separated rule codes or prefixes to disable.")
@click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default=None,
              help="Exit 1 only if a tool is at or above this risk (any: on any finding). [default: any]")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings (2 still means failure).")
@click.option("--max-response-tokens", type=click.IntRange(min=1), default=None,
              help=f"Token budget per tool response. [default: {DEFAULT_MAX_RESPONSE_TOKENS:,}]")
@click.option("--config", "config_path", type=click.Path(dir_okay=False),
              help="Use this pyproject.toml instead of the nearest one with [tool.tokenlint].")
@click.option("--force-exclude", is_flag=True, default=None,
              help="Apply `exclude` to files named on the command line too (for pre-commit).")
@click.option("--no-respect-gitignore", "no_gitignore", is_flag=True, help="Also check files .gitignore ignores.")
@click.option("-q", "--quiet", is_flag=True, help="Print diagnostics only: no risk table, no summary.")
def check(paths, fmt, select, extend_select, ignore, fail_on, exit_zero, max_response_tokens, config_path,
          force_exclude, no_gitignore, quiet) -> None:
    """Check PATHS (default: .) and report each finding and each tool's risk level.

    Text output is one line per finding, `path:line:col: CODE [*] message` ([*] = fixable with
    `tokenlint fix`), then a table of tools sorted by risk; the summary goes to stderr.
    """
    from tokenlint.engine import check_paths
    from tokenlint.report import render
    from tokenlint.report.text import summary

    paths = list(paths) or ["."]
    try:
        config_file = Path(config_path) if config_path else find_config(Path(paths[0]) if Path(paths[0]).exists() else Path.cwd())
        if config_path and not Path(config_path).is_file():
            raise ConfigError(f"{config_path}: no such file")
        overrides = {
            "select": _codes(select),
            "extend_select": _codes(extend_select),
            "ignore": _codes(ignore),
            "fail_on": fail_on,
            "max_response_tokens": max_response_tokens,
            "force_exclude": force_exclude,
            "respect_gitignore": False if no_gitignore else None,
        }
        settings = load_settings(config_file, overrides)
    except ConfigError as exc:
        click.echo(f"tokenlint: error: {exc}", err=True)
        sys.exit(2)
    try:
        run = check_paths(paths, settings)
    except Exception as exc:  # tokenlint's own failure: one line, exit 2
        click.echo(f"tokenlint: internal error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(2)
    result = run.result
    if quiet and fmt == "text":
        from dataclasses import replace

        out = render(fmt, replace(result, tools=()))
    else:
        out = render(fmt, result)
    click.echo(out, nl=False)
    for err in run.internal_errors:
        click.echo(f"tokenlint: {err}", err=True)
    if fmt == "text" and not quiet:
        click.echo(summary(result), err=True)
    if run.internal_errors:
        sys.exit(2)
    if exit_zero:
        sys.exit(0)
    sys.exit(1 if _fails(result, settings.fail_on) else 0)


def _fails(result, fail_on: str) -> bool:
    if any(f.code == "TL001" for f in result.findings):
        return True
    if fail_on == "any":
        return bool(result.findings)
    threshold = Risk.parse(fail_on)
    return any(t.risk >= threshold for t in result.tools)


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print every rule.")
def rule(code, show_all) -> None:
    """Print the documentation of rule CODE (e.g. TL101), or of every rule with --all."""
    from tokenlint.rules import REGISTRY, all_rules

    if show_all:
        rules = all_rules()
    elif code and code.upper() in REGISTRY:
        rules = [REGISTRY[code.upper()]]
    else:
        click.echo(f"tokenlint: error: unknown rule {code!r}; try `tokenlint rule --all`", err=True)
        sys.exit(2)
    for i, r in enumerate(rules):
        if i:
            click.echo("")
        fix = "Fix is available with `tokenlint fix`." if r.fixable else "No automatic fix."
        click.echo(f"# {r.name} ({r.code})\n\n{r.summary}\n\n{fix}\n\n{r.docs()}")


if __name__ == "__main__":  # pragma: no cover
    main()
