"""``tokenlint check`` as the command line runs it: through the cache and a process pool.

``run_check`` reads and prefilters the files (``plan.read_files``; unchanged files are not even
read when the cache's file index knows them), splits the candidates into independent groups
(``RunPlan.groups``), takes each group's result from the cache when its members and the modules
it looked up are unchanged, and analyses the others — in this process for a handful of files,
else in a pool of ``jobs`` worker processes, largest groups first. Results are merged in group
order and sorted (``plan.merge``), so the report is the same for any ``jobs``, with or without
the cache. LibCST and the analysis are imported only if some group needs analysing: a fully
cached run never loads them.

``RunResult.facts`` is always empty here; ``engine.check_files`` is the in-process API that
keeps live facts (``tokenlint fix``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from tokenlint.source.files import context_files, expand_paths
from tokenlint.run.inputs import Candidate, GroupResult, RunPlan, RunResult, merge, named_only, read_files

#: Below this many candidate files to analyse, a pool costs more than it saves (forking and
#: warming workers takes about as long as analysing a few files): they run in this process.
MIN_PARALLEL_FILES = 8


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def run_check(
    paths: list[str],
    settings,
    *,
    jobs: int | None = None,
    cache_dir: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RunResult:
    """Check ``paths`` with ``jobs`` processes (None: one per CPU) and the cache in
    ``cache_dir`` (None: no cache, nothing written)."""
    files = expand_paths(paths, settings)
    # files named on the command line are analysed with the project modules they may import
    # (pre-commit passes the staged tool module alone); findings are reported for them only
    context = context_files(paths, files, settings)
    named = {s.display for s in files}
    cache = None
    if cache_dir is not None:
        from tokenlint.run.cache import Cache

        cache = Cache(cache_dir, settings)
    plan = read_files(files + context, index=cache.index if cache is not None else None)
    groups = plan.groups()
    if context:  # groups of context files alone report nothing: not analysed
        plan.files_checked = len(files)
        groups = [g for g in groups if any(c.source.display in named for c in g)]
    results: list[GroupResult | None] = [None] * len(groups)
    todo: list[int] = []
    for i, members in enumerate(groups):
        hit = cache.lookup(members, plan) if cache is not None else None
        if hit is not None:
            results[i] = hit
        else:
            todo.append(i)
    done = max(0, len(files) - sum(len(groups[i]) for i in todo))
    for i, result in _analyse(groups, todo, plan, settings, jobs or default_jobs()):
        results[i] = result
        if cache is not None:
            cache.store(groups[i], result)
        done += len(groups[i])
        if progress is not None:
            progress(done, len(files))
    if cache is not None:
        cache.save()
    run = merge(plan, [r for r in results if r is not None], settings)
    return named_only(run, named) if context else run


def _analyse(groups: list[list[Candidate]], todo: list[int], plan: RunPlan, settings, jobs: int):
    """Yield ``(group index, result)`` for every group in ``todo``."""
    if not todo:
        return
    from tokenlint.run.analyse import analyse_group

    files = sum(len(groups[i]) for i in todo)
    if jobs <= 1 or len(todo) < 2 or files < MIN_PARALLEL_FILES:
        for i in todo:
            yield i, analyse_group(groups[i], plan, settings)
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
                             initializer=_init_worker, initargs=(shared, settings)) as pool:
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


_WORKER: tuple[RunPlan, object] | None = None


def _init_worker(plan: RunPlan, settings) -> None:
    global _WORKER
    _WORKER = (plan, settings)


def _work(members: list[Candidate]) -> GroupResult:
    from tokenlint.run.analyse import analyse_group

    assert _WORKER is not None
    plan, settings = _WORKER
    return analyse_group(members, plan, settings)


def _warm_up() -> None:
    """Import the analysis and run the parser and walker once before forking, so that every
    worker starts with them loaded (LibCST's own parallel codemod runner does the same)."""
    from tokenlint.source.parsing import parse_source
    from tokenlint.source.walk import walk

    for _ in walk(parse_source("import x\n\n@x.tool()\ndef f(a: int = 1) -> str:\n    return str(a)\n").tree):
        pass
