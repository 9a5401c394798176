"""`tokenlint.fix.layout`: a statement the fix rewrote is laid out as black and `ruff format`
would, comprehensions included (ruff's own output is the reference in test_fix_style)."""

from __future__ import annotations

import textwrap

import libcst as cst

from tokenlint.fix.layout import layout_statement


def _laid_out(code: str, width: int) -> str | None:
    stmt = cst.parse_statement(textwrap.dedent(code))
    assert isinstance(stmt, cst.SimpleStatementLine)
    new = layout_statement(stmt, width)
    return None if new is None else cst.Module(body=[new]).code


def test_a_comprehension_split_over_lines_is_joined_when_it_fits():
    code = '''\
        return fit([
            {"id": t.id} for t in rows
        ], tool="t")
    '''
    assert _laid_out(code, 88) == 'return fit([{"id": t.id} for t in rows], tool="t")\n'


def test_a_comprehension_argument_gets_its_own_line_at_the_width():
    code = 'return fit(rows=[{"id": t.id, "name": t.name} for t in sdk.transitions(task_id)], tool="t")\n'
    assert _laid_out(code, 88) == (
        'return fit(\n'
        '    rows=[{"id": t.id, "name": t.name} for t in sdk.transitions(task_id)], tool="t"\n'
        ')\n'
    )
    assert _laid_out(code, 72) == (
        'return fit(\n'
        '    rows=[\n'
        '        {"id": t.id, "name": t.name} for t in sdk.transitions(task_id)\n'
        '    ],\n'
        '    tool="t",\n'
        ')\n'
    )
    assert _laid_out(code, 60) == (  # its contents alone are longer: element and clause a line each
        'return fit(\n'
        '    rows=[\n'
        '        {"id": t.id, "name": t.name}\n'
        '        for t in sdk.transitions(task_id)\n'
        '    ],\n'
        '    tool="t",\n'
        ')\n'
    )
    assert _laid_out(code, 30) is None  # a clause alone is longer than the line: as written


def test_a_generator_a_call_holds_alone_is_split_at_its_clauses():
    code = """return fit("\\n".join(f"{r['id']}: {r['title']}" for r in await api.overdue(branch) if r), tool="t")\n"""
    assert _laid_out(code, 60) == (
        'return fit(\n'
        '    "\\n".join(\n'
        """        f"{r['id']}: {r['title']}"\n"""
        '        for r in await api.overdue(branch)\n'
        '        if r\n'
        '    ),\n'
        '    tool="t",\n'
        ')\n'
    )


def test_a_comprehension_holding_a_string_over_lines_is_left_alone():
    code = 'return fit([f"""{t}\n""" for t in rows], tool="t")\n'
    assert _laid_out(code, 20) is None


def test_a_parenthesized_call_chain_is_laid_out_one_call_a_line():
    code = 'return fit((svc.sheets().values().get(spreadsheetId=sheet_id, range=cell_range).execute()), tool="read")\n'
    assert _laid_out(code, 60) == (
        'return fit(\n'
        '    (\n'
        '        svc.sheets()\n'
        '        .values()\n'
        '        .get(spreadsheetId=sheet_id, range=cell_range)\n'
        '        .execute()\n'
        '    ),\n'
        '    tool="read",\n'
        ')\n'
    )
    # two calls are no chain to black and ruff: the call's brackets split instead
    assert _laid_out('return fit((svc.sheets().get(spreadsheetId=sheet_id, range=cell_range)), tool="r")\n', 60) == (
        'return fit(\n'
        '    (\n'
        '        svc.sheets().get(\n'
        '            spreadsheetId=sheet_id, range=cell_range\n'
        '        )\n'
        '    ),\n'
        '    tool="r",\n'
        ')\n'
    )
