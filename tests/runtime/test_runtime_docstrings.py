"""Every public function, class and method of ``tokenlint.runtime`` has a docstring.

The runtime is what rewritten servers import and what server authors read: its docstrings give
shapes, units (tokens, characters, bytes) and the errors raised, and the limits module names the
source of each number (the MCP spec; Claude Code's documented 10,000-token warning and
25,000-token maximum of tool output). This test keeps none of them from going missing.
"""

from __future__ import annotations

from helpers import undocumented


def test_every_public_runtime_function_and_class_has_a_docstring():
    assert undocumented("tokenlint.runtime") == []
