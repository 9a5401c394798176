"""``tokenlint fix``: the codemod that rewrites HIGH and MEDIUM tools to keep their responses in
budget.

Modules, in the order a run goes through them:

- ``driver``: ``fix_paths``, the run: check, plan, transform, verify, check again; it writes
  nothing.
- ``planner``: ``plan_module``, what changes in one file, decided from ``check``'s analysis
  (``unfixable_reason`` is its dry run on one tool, which ``check`` is given for its ``[*]``);
  with ``annotations`` (return and parameter annotations read as text), ``result_resource``
  (where ``register_result_resource(<server>)`` goes) and ``cst_helpers`` (printed source and
  names of LibCST nodes, shared with the codemod).
- ``edits``: the plan it makes: ``FilePlan``, edits keyed by ``NodeKey``, one ``ToolOutcome``
  per tool.
- ``codemod``: ``FitToBudget``, the LibCST codemod applying a plan in one pass.
- ``runtime_import``: where the added ``from tokenlint.runtime import ...`` goes, and its layout.
- ``layout`` and ``style``: the added lines laid out as the project's formatter would.
- ``requirement``: the runtime requirement declared in the rewritten project's manifest.
- ``write``: ``FileChange`` (one file's old and new text, its diff) and ``write_changes``, which
  writes them atomically.

Nothing is imported here: ``check`` imports ``planner`` alone (through the CLI, on first use),
and ``codemod`` pulls in ``libcst.codemod`` and ``libcst.matchers``, most of a pre-commit run's
start-up. The check pipeline (``tokenlint.run``) never imports this package.
"""
