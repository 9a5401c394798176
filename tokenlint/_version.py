"""Versions of tokenlint's two distributions (built from this repository).

``tokenlint`` is a PEP 420 namespace package shared by two distributions:

- ``mcp-tokenlint``, the linter and codemod (``tokenlint.cli``, ``tokenlint.analysis``, ...);
- ``mcp-tokenlint-runtime``, the standard-library-only runtime that rewritten servers import
  (``tokenlint.runtime``), built from ``tokenlint/runtime/pyproject.toml``.

Neither ships ``tokenlint/__init__.py``, so either installs alone and both install side by side
(editable too). The name ``tokenlint`` on PyPI belongs to an unrelated project.
"""

__version__ = "0.1.0"

#: The runtime distribution, the requirement the linter declares and ``fix`` writes into the
#: projects it rewrites (PEP 440 compatible release: any 0.1.x runtime serves code written by
#: this linter). Kept equal to ``[project].dependencies`` in pyproject.toml (tested).
RUNTIME_DISTRIBUTION = "mcp-tokenlint-runtime"
RUNTIME_REQUIREMENT = f"{RUNTIME_DISTRIBUTION}~=0.1.0"
