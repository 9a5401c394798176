"""The check pipeline: files → prefilter → groups → analysis of each group → merge.

``Pipeline.run`` reads and prefilters the files (``inputs.read_files``), splits the candidates
into independent groups (``RunPlan.groups``), has an executor analyse them
(``GroupAnalysis``) and merges the results (``results.merge``). Two executors:

- ``InProcess``: every group in this process, one after another, keeping each tool's facts
  (live LibCST nodes) for ``tokenlint fix``; optional ``overrides`` replace files' text.
- ``Pooled``: through the cache (``run.cache``; unchanged groups are not analysed, unchanged
  files not even read) and, for more than a handful of files, a pool of worker processes,
  largest groups first (``tokenlint check``). LibCST and the analysis are imported only if some
  group needs analysing: a fully cached run never loads them.

Results are merged in group order and sorted, so the report is the same for either executor,
any number of jobs, with or without the cache.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Protocol

from tokenlint.run.inputs import Candidate, FileIndex, RunPlan, read_files
from tokenlint.run.results import GroupResult, RunResult, merge, named_only
from tokenlint.source.files import SourcePath, context_files, expand_paths

if TYPE_CHECKING:
    from tokenlint.analysis.facts import ToolFacts
    from tokenlint.config import Settings
    from tokenlint.run.cache import Cache

#: Below this many candidate files to analyse, a pool costs more than it saves (forking and
#: warming workers takes about as long as analysing a few files): they run in this process.
MIN_PARALLEL_FILES = 8

#: ``progress(done, total)``: counts of files, called after each analysed group.
Progress = Callable[[int, int], None]
#: Why ``tokenlint fix`` would leave a tool alone, None when it would rewrite it (the CLI passes
#: ``cli.fix_unfixable_reason``): check is given it, never imports fix.
UnfixableReason = Callable[["ToolFacts"], "str | None"]


@dataclass(frozen=True)
class GroupAnalysis:
    """The analysis of one group, with what every group of a run shares. Picklable (it is sent
    to worker processes) when ``unfixable_reason`` is a module-level function.

    ``unfixable_reason``: fix's test of a tool (see ``UnfixableReason``); a finding of a fixable
    rule is marked fixable (``[*]``) only if its tool passes it. None: findings keep their
    rule's ``fixable``. ``overrides`` maps a file's path to source text used instead of its
    content on disk (``tokenlint fix`` re-checks its rewrites before writing them).
    """

    settings: Settings
    unfixable_reason: UnfixableReason | None = None
    overrides: dict[Path, str] | None = None

    def __call__(self, members: list[Candidate], plan: RunPlan, *, keep_facts: bool = False) -> GroupResult:
        """Parse, discover and analyse one group of candidates (see ``RunPlan.groups``).

        Modules outside the group are parsed on demand when an analysis follows a helper or a
        re-export into them; each such lookup is recorded in ``GroupResult.looked_up`` with the
        digest of the file it found, so the cache knows what else the result depends on.
        ``keep_facts``: also return each tool's facts (live LibCST nodes; not picklable).
        Imports LibCST and the analysis on first use.
        """
        from tokenlint.run.analyse import analyse_group

        return analyse_group(self, members, plan, keep_facts)


class Executor(Protocol):
    """How a pipeline's groups are analysed: the file index it reads files through (None: read
    every file) and ``analyse``, yielding ``(group index, result)`` for every group."""

    @property
    def index(self) -> FileIndex | None:
        """The file index files are read through (a cache's: unchanged files go unread), or None
        to read every file."""

    def analyse(self, groups: list[list[Candidate]], plan: RunPlan,
                job: GroupAnalysis) -> Iterator[tuple[int, GroupResult]]:
        """``(index into groups, result)`` once for every group (a list of the candidate files
        analysed together), in any order, each analysed by ``job`` against ``plan``."""

    def close(self) -> None:
        """Release what the executor holds (a worker pool, the cache to save); ``Pipeline.run``
        calls it once, after ``analyse``, also when analysis fails."""


@dataclass
class Pipeline:
    """One run of the check pipeline with ``settings``.

    ``unfixable_reason``: ``tokenlint fix``'s test of a tool, for the ``[*]`` marks (see
    ``GroupAnalysis``); the caller passes it, check never imports fix.
    ``progress(done, total)``: called with counts of files as groups are analysed.
    """

    settings: Settings
    unfixable_reason: UnfixableReason | None = None
    progress: Progress | None = None

    def run(self, files: list[SourcePath], executor: Executor, *,
            context: list[SourcePath] | tuple[SourcePath, ...] = (),
            overrides: dict[Path, str] | None = None) -> RunResult:
        """Check ``files`` with ``executor``. ``context``: more files read only to understand
        ``files`` (``source.files.context_files``); groups of them alone are not analysed, and
        only the tools, findings and facts of ``files`` are returned. ``overrides`` maps a
        file's path to source text used instead of its content on disk. Raises only on
        tokenlint's own failure (a file's problem is a TL001 finding)."""
        plan = read_files(files, context, overrides, executor.index)
        named = {s.display for s in files}
        groups = plan.groups()
        if context:  # groups of context files alone report nothing: not analysed
            groups = [g for g in groups if any(c.source.display in named for c in g)]
        job = GroupAnalysis(self.settings, self.unfixable_reason, overrides)
        results: list[GroupResult | None] = [None] * len(groups)
        done = len(files) - sum(len(g) for g in groups)
        try:
            for i, result in executor.analyse(groups, plan, job):
                results[i] = result
                done += len(groups[i])
                if self.progress is not None:
                    self.progress(max(0, done), len(files))
        finally:
            executor.close()
        run = merge(plan.files_checked, plan.file_findings, [r for r in results if r is not None], self.settings)
        return named_only(run, named) if context else run


@dataclass
class InProcess:
    """Every group analysed in this process, in run order, keeping each tool's facts; no cache."""

    index: FileIndex | None = None

    def analyse(self, groups: list[list[Candidate]], plan: RunPlan,
                job: GroupAnalysis) -> Iterator[tuple[int, GroupResult]]:
        """``(group index, result)`` for every group, in order."""
        for i, members in enumerate(groups):
            yield i, job(members, plan, keep_facts=True)

    def close(self) -> None:
        """Nothing to release."""


@dataclass
class Pooled:
    """Groups taken from ``cache`` (None: no cache, nothing written) or analysed by ``jobs``
    worker processes (None: one per CPU); no facts are kept (they hold LibCST nodes)."""

    jobs: int | None = None
    cache: Cache | None = None

    @property
    def index(self) -> FileIndex | None:
        """The cache's file index, through which unchanged files go unread."""
        return self.cache.index if self.cache is not None else None

    def analyse(self, groups: list[list[Candidate]], plan: RunPlan,
                job: GroupAnalysis) -> Iterator[tuple[int, GroupResult]]:
        """``(group index, result)`` for every group: cached ones first, then the others as the
        workers finish them (each stored in the cache)."""
        todo: list[int] = []
        for i, members in enumerate(groups):
            hit = self.cache.lookup(members, plan) if self.cache is not None else None
            if hit is not None:
                yield i, hit
            else:
                todo.append(i)
        for i, result in _analyse(groups, todo, plan, job, self.jobs or default_jobs()):
            if self.cache is not None:
                self.cache.store(groups[i], result)
            yield i, result

    def close(self) -> None:
        """Save the cache (file index, pruning)."""
        if self.cache is not None:
            self.cache.save()


def check_paths(paths: list[str], settings: Settings, *, unfixable_reason: UnfixableReason | None = None,
                executor: Executor | None = None, progress: Progress | None = None) -> RunResult:
    """Check every Python file under ``paths`` (files or directories; files named there are
    understood with the other modules of their package, read for context only).

    ``executor``: ``InProcess()`` (the default: facts kept) or ``Pooled(jobs, cache)``.
    Returns findings and tools sorted by path and line."""
    files = expand_paths(paths, settings)
    # files named on the command line are analysed with the project modules they may import
    # (pre-commit passes the staged tool module alone); findings are reported for them only
    context = context_files(paths, files, settings)
    pipeline = Pipeline(settings, unfixable_reason, progress)
    return pipeline.run(files, executor if executor is not None else InProcess(), context=context)


def check_files(files: list[SourcePath], settings: Settings, *, overrides: dict[Path, str] | None = None,
                context: list[SourcePath] | tuple[SourcePath, ...] = ()) -> RunResult:
    """Check ``files`` (already expanded) in this process, keeping every tool's facts: what
    ``tokenlint fix`` analyses and re-checks its rewrites with (``overrides``: path → new
    text). ``context`` as in ``Pipeline.run``. No ``[*]`` marks are computed."""
    return Pipeline(settings).run(files, InProcess(), context=context, overrides=overrides)


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _analyse(groups: list[list[Candidate]], todo: list[int], plan: RunPlan, job: GroupAnalysis,
             jobs: int) -> Iterator[tuple[int, GroupResult]]:
    """Yield ``(group index, result)`` for every group in ``todo``."""
    if not todo:
        return
    files = sum(len(groups[i]) for i in todo)
    if jobs <= 1 or len(todo) < 2 or files < MIN_PARALLEL_FILES:
        for i in todo:
            yield i, job(groups[i], plan)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed
    import multiprocessing

    _warm_up()
    # largest groups first, so that no worker is left with a big one at the end
    order = sorted(todo, key=lambda i: -sum(_size(c) for c in groups[i]))
    shared = RunPlan(plan.files_checked, [], [], plan.module_files, plan.packages)
    sent = {i: [c.stripped() for c in groups[i]] for i in todo}
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(max_workers=min(jobs, len(todo)), mp_context=context,
                             initializer=_init_worker, initargs=(shared, job)) as pool:
        futures = {pool.submit(_work, sent[i]): i for i in order}
        for future in as_completed(futures):
            yield futures[future], future.result()


def _size(c: Candidate) -> int:
    if c.data is not None:
        return len(c.data)
    try:
        return c.source.path.stat().st_size
    except OSError:
        return 0


_WORKER: tuple[RunPlan, GroupAnalysis] | None = None


def _init_worker(plan: RunPlan, job: GroupAnalysis) -> None:
    global _WORKER
    _WORKER = (plan, job)


def _work(members: list[Candidate]) -> GroupResult:
    assert _WORKER is not None
    plan, job = _WORKER
    return job(members, plan)


def _warm_up() -> None:
    """Import the analysis and run the parser and walker once before forking, so that every
    worker starts with them loaded (LibCST's own parallel codemod runner does the same)."""
    from tokenlint.source.parsing import parse_source
    from tokenlint.source.walk import walk

    for _ in walk(parse_source("import x\n\n@x.tool()\ndef f(a: int = 1) -> str:\n    return str(a)\n").tree):
        pass
