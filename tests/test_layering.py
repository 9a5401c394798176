"""The package layout keeps its one-way data flow: ``check`` never imports ``fix``.

The CLI hands fix's ``unfixable_reason`` to the check pipeline for its ``[*]`` marks; nothing of
check (source, discovery, analysis, rules, risk, run, report) imports ``tokenlint.fix`` itself.
Run in a fresh interpreter, so modules other tests imported do not count.
"""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import FIXTURES, REPO

#: Every module of tokenlint outside ``fix`` (the runtime is its own distribution; ``__main__``
#: runs the CLI when imported).
CHECK_MODULES = sorted(
    ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
    for path in (REPO / "tokenlint").rglob("*.py")
    if path.relative_to(REPO / "tokenlint").parts[0] not in ("fix", "runtime", "__main__.py")
)


def test_check_never_imports_fix():
    assert "tokenlint.run.pipeline" in CHECK_MODULES and "tokenlint.cli" in CHECK_MODULES
    code = (
        "import importlib, json, sys\n"
        f"for name in {CHECK_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "from tokenlint.config import Settings\n"
        "from tokenlint.run.pipeline import check_paths\n"
        f"result = check_paths([{str(FIXTURES / 'runnable')!r}], Settings())\n"
        "print(json.dumps({'tools': len(result.result.tools),\n"
        "                  'fix': sorted(m for m in sys.modules if m.startswith('tokenlint.fix'))}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO).stdout
    seen = json.loads(out)
    assert seen["tools"] > 5
    assert seen["fix"] == []
