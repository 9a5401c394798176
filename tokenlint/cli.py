"""Command line: ``tokenlint check`` (and ``tokenlint rule``).

Exit codes (ruff, bandit): 0 nothing at or above ``--fail-on``; 1 findings; 2 a usage or
configuration error, or tokenlint's own failure. A file that cannot be parsed is a TL001
finding, not an exit 2.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from tokenlint._version import RUNTIME_REQUIREMENT, __version__
from tokenlint.config import (
    DEFAULT_MAX_RESPONSE_TOKENS, FAIL_ON_CHOICES, ConfigError, Settings, find_config, load_settings, settings_text,
)
from tokenlint import baseline
from tokenlint.model import CheckResult, Risk
from tokenlint.report import FORMATS, RENDERERS

if TYPE_CHECKING:
    from tokenlint.analysis.facts import ToolFacts
    from tokenlint.run.results import RunResult


def _codes(value: str | None) -> tuple[str, ...] | None:
    if not value:
        return None
    return tuple(c.strip().upper() for c in value.split(",") if c.strip())


def _file_options(command):
    """``--config``, ``--force-exclude`` and ``--no-respect-gitignore``, shared by check and fix."""
    for option in reversed([
        click.option("--config", "config_path", type=click.Path(dir_okay=False),
                     help="Use this pyproject.toml instead of the nearest one with [tool.tokenlint]."),
        click.option("--force-exclude", is_flag=True, default=None,
                     help="Apply `exclude` to files named on the command line too (for pre-commit)."),
        click.option("--no-respect-gitignore", "no_gitignore", is_flag=True,
                     help="Also include files .gitignore ignores."),
    ]):
        command = option(command)
    return command


def _client_option(command):
    """``--client NAME``, shared by check and fix."""
    from tokenlint.config import CLIENT_NAMES

    return click.option(
        "--client", type=click.Choice(CLIENT_NAMES), default=None,
        help="Client profile whose limits (tokens, chars, bytes, lines; the tightest binds) the "
             "budget keeps: check names them, fix writes them into each rewritten tool.")(command)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tokenlint")
def main() -> None:
    """tokenlint: find MCP tools whose responses grow with data, rate their risk, fix them.

    MCP clients cap tool output (Claude Code warns above 10,000 tokens and refuses above
    25,000). tokenlint finds every tool of FastMCP (mcp 1.x), MCPServer (mcp 2.x), standalone
    fastmcp and low-level Server code, traces what each response is built from, and reports
    unbounded collections, unclamped limits, missing token estimation and silent truncation.
    """


def _existing(ctx, param, paths: tuple[str, ...]) -> tuple[str, ...]:
    """Every path named on the command line must exist (a link that cannot be read counts: it
    is a TL001): a typo is a usage error, exit 2, as in ruff, not a finding."""
    import os

    for path in paths:
        if not os.path.lexists(path):
            raise click.BadParameter(f"Path '{path}' does not exist.", ctx=ctx, param=param)
    return paths


PATHS = click.argument("paths", nargs=-1, type=click.Path(), callback=_existing)


def _warn_if_empty(files_checked: int, paths: list[str]) -> None:
    """A warning on stderr when ``paths`` held no Python file at all (an empty directory, a
    wrong directory): a run that checked nothing must not look like a clean one."""
    if not files_checked:
        click.echo(f"tokenlint: warning: no Python files to check in {', '.join(paths)} "
                   "(none found, or all excluded)", err=True)


@main.command()
@PATHS
@click.option("-f", "--format", "--output-format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True,
              help="Report format: " + "; ".join(f"{k}: {r.HELP}" for k, r in RENDERERS.items()) + ".")
@click.option("-o", "--output-file", type=click.Path(dir_okay=False),
              help="Write the report to this file instead of stdout (the summary still goes to stderr).")
@click.option("--statistics", is_flag=True,
              help="Print how many findings each rule produced (count, code, name) instead of the findings.")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False),
              help="Report only findings beyond those recorded in this file by --write-baseline.")
@click.option("--write-baseline", "write_baseline_file", type=click.Path(dir_okay=False),
              help="Record every current finding in this file (per path, tool and code, with counts) and exit 0.")
@click.option("--show-files", is_flag=True, help="Print the files that would be checked, one per line, and exit.")
@click.option("--show-settings", is_flag=True, help="Print the settings in effect (after config and flags) and exit.")
@click.option("--select", help="Comma-separated rule codes or prefixes to enable (e.g. TL1,TL201; ALL).")
@click.option("--extend-select", help="Codes or prefixes to enable on top of the configured selection.")
@click.option("--ignore", help="Comma-separated rule codes or prefixes to disable.")
@click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default=None,
              help="Exit 1 only if a tool is at or above this risk (any: on any finding). [default: any]")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are findings (2 still means failure).")
@click.option("--max-response-tokens", type=click.IntRange(min=1), default=None,
              help=f"Token budget per tool response. [default: {DEFAULT_MAX_RESPONSE_TOKENS:,}]")
@_client_option
@_file_options
@click.option("-q", "--quiet", is_flag=True, help="Print diagnostics only: no risk table, no summary.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes for large runs (a handful of files is checked in one). [default: one per CPU]")
@click.option("--no-cache", is_flag=True, envvar="TOKENLINT_NO_CACHE",
              help="Neither read nor write the cache: analyse every file. [env: TOKENLINT_NO_CACHE]")
@click.option("--cache-dir", type=click.Path(file_okay=False), envvar="TOKENLINT_CACHE_DIR",
              help="Where to keep the cache. [default: .tokenlint_cache next to the config file, "
                   "else in the working directory; env: TOKENLINT_CACHE_DIR]")
def check(paths, fmt, output_file, statistics, baseline_file, write_baseline_file, show_files, show_settings,
          select, extend_select, ignore, fail_on, exit_zero, max_response_tokens, client, config_path,
          force_exclude, no_gitignore, quiet, jobs, no_cache, cache_dir) -> None:
    """Check PATHS (default: .) and report each finding and each tool's risk level.

    Text output is one line per finding, `path:line:col: CODE [*] message` ([*] = fixable with
    `tokenlint fix`), then a table of tools sorted by risk; the summary goes to stderr.
    """
    paths = list(paths) or ["."]
    settings = _settings(paths, config_path, {
        "select": _codes(select),
        "extend_select": _codes(extend_select),
        "ignore": _codes(ignore),
        "fail_on": fail_on,
        "max_response_tokens": max_response_tokens,
        "client": client,
        "force_exclude": force_exclude,
        "respect_gitignore": False if no_gitignore else None,
    })
    if show_settings:
        click.echo(settings_text(settings), nl=False)
        sys.exit(0)
    if show_files:
        from tokenlint.source.files import expand_paths

        for source in expand_paths(paths, settings):
            click.echo(source.display)
        sys.exit(0)
    from tokenlint.report import is_human
    from tokenlint.report.statistics import STATISTICS_FORMATS

    if statistics and fmt not in STATISTICS_FORMATS:
        _usage_error(f"--statistics prints text or json, not {fmt}")
    known = _load_baseline(baseline_file)
    run = _run_check(paths, settings, jobs=jobs, cache_dir=None if no_cache else _cache_dir(cache_dir, settings),
                     human=is_human(fmt), quiet=quiet)
    result, held_back = _apply_baseline(run.result, known, baseline_file, write_baseline_file)
    try:
        _emit(_render(fmt, result, statistics=statistics, quiet=quiet), output_file)
    except OSError as exc:
        _usage_error(f"cannot write {output_file}: {exc.strerror or exc}")
    _notes(run, result, settings, paths)
    if is_human(fmt) and not quiet:
        from tokenlint.report.text import summary

        note = f" ({held_back} more in the baseline {baseline_file})" if known is not None else ""
        click.echo(summary(result) + note, err=True)
        if write_baseline_file:
            click.echo(f"Wrote {len(run.result.findings)} findings to the baseline {write_baseline_file}.", err=True)
    _warn_if_empty(result.files_checked, paths)
    sys.exit(_check_exit_code(run, result, settings.fail_on, exit_zero=exit_zero or bool(write_baseline_file),
                              only_reported=known is not None))


def fix_unfixable_reason(facts: ToolFacts) -> str | None:
    """``tokenlint fix``'s dry run on one tool, which ``check`` passes to the pipeline for its
    ``[*]`` marks: why fix would leave the tool alone, None if it would rewrite it
    (``fix.planner.unfixable_reason``, imported on first use: a fully cached run of ``check``
    loads no LibCST)."""
    from tokenlint.fix.planner import unfixable_reason

    return unfixable_reason(facts)


def _usage_error(message: str) -> NoReturn:
    """Print ``tokenlint: error: message`` on stderr and exit 2."""
    click.echo(f"tokenlint: error: {message}", err=True)
    sys.exit(2)


def _load_baseline(baseline_file: str | None) -> Counter[baseline.Key] | None:
    """The recorded findings of ``--baseline`` (None without one); exit 2 if it is missing or
    malformed."""
    try:
        return baseline.load(baseline_file) if baseline_file else None
    except baseline.BaselineError as exc:
        _usage_error(str(exc))


def _run_check(paths: list[str], settings: Settings, *, jobs: int | None, cache_dir: Path | None,
               human: bool, quiet: bool) -> RunResult:
    """Run the pipeline as ``check`` does: ``jobs`` worker processes, the cache in ``cache_dir``
    (None: no cache), ``[*]`` marks from fix's planner, a progress bar for people. On
    tokenlint's own failure, print one line and exit 2."""
    from tokenlint.progress import make_progress
    from tokenlint.run.cache import Cache
    from tokenlint.run.pipeline import Pooled, check_paths

    progress = make_progress(human, quiet)
    try:
        cache = Cache(cache_dir, settings, fix_unfixable_reason) if cache_dir is not None else None
        return check_paths(paths, settings, unfixable_reason=fix_unfixable_reason,
                           executor=Pooled(jobs, cache), progress=progress)
    except Exception as exc:  # tokenlint's own failure: one line, exit 2
        click.echo(f"tokenlint: internal error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(2)
    finally:
        if progress is not None:
            progress.close()


def _apply_baseline(result: CheckResult, known: Counter[baseline.Key] | None, baseline_file: str | None,
                    write_baseline_file: str | None) -> tuple[CheckResult, int]:
    """Write ``--write-baseline`` (every finding of ``result``) and keep, with ``--baseline``,
    only the new findings. Returns the result to report and how many findings the baseline
    held back (0 without one). Exit 2 if a baseline cannot be written or read."""
    try:
        if write_baseline_file:
            baseline.write(result.findings, write_baseline_file)
        if known is not None and baseline_file is not None:
            filtered = baseline.filter_new(result, known, baseline_file)
            return filtered.result, filtered.known
    except baseline.BaselineError as exc:
        _usage_error(str(exc))
    return result, 0


def _render(fmt: str, result: CheckResult, *, statistics: bool, quiet: bool) -> str:
    """The report in format ``fmt``: the per-rule counts with ``--statistics``; the findings
    alone (no tool table) with ``--quiet`` in text."""
    from dataclasses import replace

    from tokenlint.report import render
    from tokenlint.report.statistics import render_statistics

    if statistics:
        return render_statistics(fmt, result)
    if quiet and fmt == "text":
        return render(fmt, replace(result, tools=()))
    return render(fmt, result)


def _notes(run: RunResult, result: CheckResult, settings: Settings, paths: list[str]) -> None:
    """Internal errors, then configured ``extra-sources``/``extra-bounds`` that matched no call,
    on stderr."""
    from tokenlint.analysis.knowledge import unmatched_entries

    for err in run.internal_errors:
        click.echo(f"tokenlint: {err}", err=True)
    if result.files_checked:
        for entry in unmatched_entries(settings.extra_sources, settings.extra_bounds, run.matched_knowledge):
            click.echo(f"tokenlint: warning: {entry} in the configuration matched no call in the checked files",
                       err=True)


def _check_exit_code(run: RunResult, result: CheckResult, fail_on: str, *, exit_zero: bool,
                     only_reported: bool) -> int:
    """2 on an internal error; else 0 with ``exit_zero`` (``--exit-zero``, ``--write-baseline``);
    else 1 if the reported ``result`` fails (``_fails``), 0 if not."""
    if run.internal_errors:
        return 2
    if exit_zero:
        return 0
    return 1 if _fails(result, fail_on, only_reported=only_reported) else 0


def _emit(text: str, output_file: str | None) -> None:
    """The report to stdout, or to ``output_file`` (UTF-8, parent directories created).

    A lone surrogate (a tool named with ``"\\ud800"``) has no UTF-8 form: it is written as its
    escape ``\\ud800`` (``backslashreplace``), which is also the JSON escape of that character,
    so JSON and SARIF reports stay valid and load back to the same string.
    """
    text = _utf8_safe(text)
    if not output_file:
        click.echo(text, nl=False)
        return
    path = Path(output_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _utf8_safe(text: str) -> str:
    """``text``, each lone surrogate replaced by its six-character escape (``\\udXXX``)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _cache_dir(option: str | None, settings: Settings) -> Path:
    """``--cache-dir``, else ``.tokenlint_cache`` in the configuration's directory (``root``:
    the working directory when no pyproject.toml configures tokenlint), as ruff places its own."""
    from tokenlint.run.cache import CACHE_DIR_NAME

    return Path(option) if option else Path(settings.root) / CACHE_DIR_NAME


def _fails(result: CheckResult, fail_on: str, only_reported: bool = False) -> bool:
    """Whether the run exits 1: a TL001, or any finding (``fail_on="any"``), or a tool at or
    above ``fail_on``. With a baseline (``only_reported``), only tools with a new finding count."""
    if any(f.code == "TL001" for f in result.findings):
        return True
    if fail_on == "any":
        return bool(result.findings)
    threshold = Risk.parse(fail_on)
    reported = {f.tool_id for f in result.findings}
    return any(t.risk >= threshold and (not only_reported or t.id in reported) for t in result.tools)


def _settings(paths: list[str], config_path: str | None, overrides: dict) -> Settings:
    """Settings from the nearest ``[tool.tokenlint]`` (or ``--config``) with CLI overrides; on a
    configuration error, print it and exit 2."""
    try:
        if config_path and not Path(config_path).is_file():
            raise ConfigError(f"{config_path}: no such file")
        start = Path(paths[0]) if Path(paths[0]).exists() else Path.cwd()
        config_file = Path(config_path) if config_path else find_config(start)
        return load_settings(config_file, overrides)
    except ConfigError as exc:
        click.echo(f"tokenlint: error: {exc}", err=True)
        sys.exit(2)


@main.command()
@PATHS
@click.option("--diff", is_flag=True,
              help="Print a unified diff of the changes instead of writing them (exit 1 if any).")
@click.option("--max-response-tokens", type=click.IntRange(min=200), default=None,
              help=f"Token budget written into each rewritten tool. [default: {DEFAULT_MAX_RESPONSE_TOKENS:,}]")
@click.option("--no-declare-dependency", is_flag=True,
              help="Do not add the runtime requirement (mcp-tokenlint-runtime) to the rewritten "
              "project's pyproject.toml or requirements.txt.")
@click.option("--no-paging-hint", is_flag=True,
              help="Do not add the sentence on paging to each rewritten tool's description "
              "(its docstring, or a low-level Tool's description). [config: paging-hint = false]")
@_client_option
@_file_options
@click.option("-q", "--quiet", is_flag=True, help="Print only errors and tools left unfixed.")
def fix(paths, diff, max_response_tokens, no_declare_dependency, no_paging_hint, client, config_path, force_exclude,
        no_gitignore, quiet) -> None:
    """Rewrite every HIGH or MEDIUM tool under PATHS (default: .) to keep its response in budget.

    Each data-carrying `return` goes through `tokenlint.runtime` (`fit_response`, or
    `fit_json_text` in place of `json.dumps`): within the budget the tool returns exactly what it
    returned before; over it, the largest page of whole records (50, 40, 30, 20 or 10) or of text
    that fits, with a `next_action` carrying a `cursor` that fetches the rest. The tool gains a
    `cursor` parameter described in its input schema (low-level servers: a `cursor` property in
    its inputSchema) and one sentence on paging in its description (--no-paging-hint), a return
    annotation `T` becomes `Paged[T]`, unclamped limits (TL107) get a maximum and constant
    slices that silently cut the response (TL301) are dropped.

    Files are written atomically and only when changed, after the new text has been parsed,
    compiled and checked again: every rewritten tool is LOW afterwards. Tools that cannot be
    rewritten safely are listed with the reason (`check` still reports them), and so are files
    that cannot be analysed (TL001). Exit 0 when every HIGH/MEDIUM tool was fixed, 1 when some
    are left or a file could not be analysed (or, with --diff, when changes are pending), 2 on an
    error.
    """
    from tokenlint.fix.driver import fix_paths
    from tokenlint.fix.write import write_changes

    paths = list(paths) or ["."]
    settings = _settings(paths, config_path, {
        "max_response_tokens": max_response_tokens,
        "client": client,
        "force_exclude": force_exclude,
        "respect_gitignore": False if no_gitignore else None,
        "declare_dependency": False if no_declare_dependency else None,
        "paging_hint": False if no_paging_hint else None,
    })
    try:
        result = fix_paths(paths, settings)
    except Exception as exc:  # tokenlint's own failure: one line, exit 2
        click.echo(f"tokenlint: internal error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(2)
    errors = list(result.errors)
    if result.before is not None:
        _warn_if_empty(result.before.result.files_checked, paths)
    unreadable = [f for f in result.before.result.findings if f.code == "TL001"] if result.before else []
    for f in unreadable:  # files fix could not analyse: named, and they make the run fail
        click.echo(f"{f.path}:{f.line}:{f.column}: {f.code} {f.message}", err=True)
    if diff:
        for change in result.changes:
            click.echo(change.diff(), nl=False)
    else:
        errors += write_changes(result.changes)
    for o in result.outcomes:
        if not o.fixed:
            click.echo(f"{o.path}:{o.line}: tool `{o.name}` ({o.risk.name}) not fixed: {o.reason}", err=True)
        elif not quiet:
            for note in o.notes:
                click.echo(f"{o.path}:{o.line}: tool `{o.name}`: {note}", err=True)
    for err in errors:
        click.echo(f"tokenlint: {err}", err=True)
    for advice in result.advice if result.changes else ():
        click.echo(f"tokenlint: {advice}", err=True)
    if not quiet:
        for change in result.changes:
            if change.manifest:
                click.echo(f"{change.display}: {'would declare' if diff else 'declared'} the runtime "
                           f"requirement {RUNTIME_REQUIREMENT}", err=True)
        files = sum(not c.manifest for c in result.changes)
        verb = "Would fix" if diff else "Fixed"
        left = f"; {len(result.unfixed)} left unfixed" if result.unfixed else ""
        click.echo(f"{verb} {len(result.fixed)} tool{'s' * (len(result.fixed) != 1)} in "
                   f"{files} file{'s' * (files != 1)}{left}.", err=True)
    if errors:
        sys.exit(2)
    if diff:
        sys.exit(1 if result.changes or result.unfixed or unreadable else 0)
    sys.exit(1 if result.unfixed or unreadable else 0)


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Print every rule.")
@click.option("-f", "--format", "--output-format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: Markdown as in the README; json: code, name, summary, fixable, "
              "cwe, explanation (an object for CODE, a list with --all).")
def rule(code, show_all, fmt) -> None:
    """Print the documentation of rule CODE (e.g. TL101, or its name), or of every rule with --all."""
    import json

    from tokenlint.rules import REGISTRY, all_rules
    from tokenlint.rules.docs import rule_dict, rule_markdown

    by_name = {r.name: r for r in REGISTRY.values()}
    if show_all:
        rules = all_rules()
    elif code and (code.upper() in REGISTRY or code in by_name):
        rules = [REGISTRY.get(code.upper()) or by_name[code]]
    else:
        what = f"unknown rule {code!r}" if code else "give a rule code (e.g. TL101) or --all"
        click.echo(f"tokenlint: error: {what}; try `tokenlint rule --all`", err=True)
        sys.exit(2)
    if fmt == "json":
        data = [rule_dict(r) for r in rules]
        click.echo(json.dumps(data if show_all else data[0], indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(rule_markdown(r) for r in rules), nl=False)


if __name__ == "__main__":  # pragma: no cover
    main()
