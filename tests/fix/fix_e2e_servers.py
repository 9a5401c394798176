"""The small servers the ``tokenlint fix`` end-to-end tests write, rewrite and run, and the
helpers that run ``tokenlint`` and the drivers on them.

test_computed_once_e2e.py and test_result_resource_e2e.py build their servers from these parts:
a header per SDK generation (``server_header``), the ``read_notes`` tool, the ``_executed``
counter of data-source executions, and the ``__main__`` blocks serving over stdio or streamable
HTTP. Every server reads its data from the environment (``ONCE_NOTES``, ``ONCE_ROWS``,
``ONCE_DB``; ``ONCE_COUNTS`` is the counter file; ``TL_HTTP_PORT`` the port the session driver
picked). (The servers of test_fix_e2e.py are fixtures/runnable's, with fix_e2e_calls.py.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import runtime_sdk_envs as sdk_envs  # tests/runtime/, on sys.path through tests/fix/conftest.py

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]

#: Budget given to ``tokenlint fix --max-response-tokens`` for these servers, in tokens: small,
#: so a few hundred lines of data take several pages.
BUDGET_TOKENS = 1000

#: The notes file ``read_notes`` returns (about 8,000 tokens).
NOTES = "".join(f"note {i}: the quick brown fox jumps over the lazy dog\n" for i in range(600))

#: SDK generation -> (import line, server class) of a FastMCP-style server.
SERVER_CLASSES = {
    "fastmcp-v1": ("from mcp.server.fastmcp import FastMCP", "FastMCP"),
    "mcpserver-v2": ("from mcp.server.mcpserver import MCPServer", "MCPServer"),
    "fastmcp": ("from fastmcp import FastMCP", "FastMCP"),
}


def server_header(kind: str, name: str) -> str:
    """``from ... import FastMCP`` and ``mcp = FastMCP(name)`` for an SDK generation of
    ``SERVER_CLASSES``."""
    line, cls = SERVER_CLASSES[kind]
    return f'{line}\n\nmcp = {cls}("{name}")\n'


#: A FastMCP-style tool returning a whole file.
READ_NOTES_TOOL = '''

@mcp.tool()
def read_notes() -> str:
    """The whole notes file."""
    return Path(os.environ["ONCE_NOTES"]).read_text(encoding="utf-8")
'''

#: ``_executed(source)``: one line appended to the ``ONCE_COUNTS`` file per execution of a data
#: source, which the tests count.
EXECUTED = '''

def _executed(source: str) -> None:
    """One line per execution of a data source: what the test counts."""
    with Path(os.environ["ONCE_COUNTS"]).open("a", encoding="utf-8") as fh:
        fh.write(source + "\\n")
'''

#: ``__main__`` of an mcp 1.x FastMCP server over streamable HTTP.
FASTMCP_V1_HTTP_MAIN = '''

if __name__ == "__main__":
    mcp.settings.host, mcp.settings.port = "127.0.0.1", int(os.environ["TL_HTTP_PORT"])
    mcp.run(transport="streamable-http")
'''

#: ``__main__`` of an mcp 2.x MCPServer over streamable HTTP.
MCPSERVER_HTTP_MAIN = '''

if __name__ == "__main__":
    mcp.run(transport="streamable-http", host="127.0.0.1", port=int(os.environ["TL_HTTP_PORT"]))
'''

#: ``__main__`` of a standalone fastmcp server over HTTP.
FASTMCP_HTTP_MAIN = '''

if __name__ == "__main__":
    mcp.run(transport="http", host="127.0.0.1", port=int(os.environ["TL_HTTP_PORT"]), show_banner=False)
'''

#: ``main()`` and ``__main__`` of a low-level ``server`` over stdio (mcp 1.x and 2.x alike).
LOWLEVEL_STDIO_MAIN = '''

async def main() -> None:
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


if __name__ == "__main__":
    anyio.run(main)
'''


def script_name(server_id: str) -> str:
    """The file a server is written to: ``fastmcp-v1`` -> ``fastmcp_v1.py``."""
    return f"{server_id.replace('-', '_')}.py"


def run_tokenlint(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """``python -m tokenlint ARGS`` from this checkout, run in ``cwd`` (text output captured)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.run([sys.executable, "-m", "tokenlint", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def write_and_fix(root: Path, sources: dict[str, str]) -> subprocess.CompletedProcess:
    """Write each server of ``sources`` (id -> source) to ``root/script_name(id)``, then run
    ``tokenlint fix --max-response-tokens BUDGET_TOKENS .`` there; that run, asserted to exit 0."""
    for server_id, source in sources.items():
        (root / script_name(server_id)).write_text(source, encoding="utf-8")
    fix = run_tokenlint(["fix", "--max-response-tokens", str(BUDGET_TOKENS), "."], cwd=root)
    assert fix.returncode == 0, fix.stderr
    return fix


def assert_fix_is_idempotent(root: Path) -> None:
    """A second ``tokenlint fix --diff`` over ``root`` finds nothing to change."""
    again = run_tokenlint(["fix", "--diff", "--max-response-tokens", str(BUDGET_TOKENS), "."], cwd=root)
    assert (again.returncode, again.stdout) == (0, ""), again.stderr


def drive_rewritten(venv: str, script: Path, env: dict[str, str], calls: list[dict[str, Any]],
                    tmp_path: Path) -> list[dict[str, Any]]:
    """Run ``calls`` (``{"tool", "args"}``) on ``script`` over stdio with the real ``mcp`` client
    of SDK venv ``venv`` (fix_e2e_driver.py, following ``next_action`` to the last page), the
    server's environment ``env``; the driver's observations of each call."""
    spec = {"servers": {"rewritten": str(script)}, "env": env, "calls": calls}
    spec_path, out = tmp_path / "spec.json", tmp_path / "out.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    proc = subprocess.run([str(sdk_envs.ensure_venv(venv)), str(HERE / "fix_e2e_driver.py"),
                           str(spec_path), str(out)], cwd=str(HERE), env=sdk_envs.driver_env(),
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(out.read_text(encoding="utf-8"))["rewritten"]["calls"]


def drive_two_sessions(venv: str, script: Path, notes: Path, tmp_path: Path) -> dict[str, Any]:
    """Call ``read_notes`` of ``script`` over streamable HTTP with two real ``mcp`` clients of
    SDK venv ``venv`` (session_http_driver.py; ``ONCE_NOTES`` is ``notes``); what it saw."""
    out = tmp_path / "out.json"
    env = dict(sdk_envs.driver_env(), ONCE_NOTES=str(notes))
    proc = subprocess.run([str(sdk_envs.ensure_venv(venv)), str(HERE / "session_http_driver.py"),
                           str(script), "read_notes", "{}", str(out)], cwd=str(HERE), env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(out.read_text(encoding="utf-8"))
