"""TL104 unbounded-process-output."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules._source import SourceRule


class UnboundedProcessOutput(SourceRule):
    """## What it does
    Finds process output returned whole: `subprocess.run(..., capture_output=True).stdout`,
    `check_output()`, `communicate()`, reading a process's `stdout`.

    A helper that runs the command line it is given (`def run(command): ...`) returns what each
    caller's command prints. A program's usage text (`kubectl get --help`, `helm help`, a last
    f-string hole named for the flag: `f"{tool} {command} {help_flag}"`) is the text the program
    ships, the same whatever the data: not reported. Neither is a subcommand that changes the
    objects it names and prints one acknowledgement line each (`kubectl delete pod web`,
    `["scale", "deployment", name, ...]` handed to such a helper, `rollout restart`): as long as
    the caller's own list of objects. A read (`get`, `logs`, `describe`), a change asked to print
    the objects (`-o yaml`), or a command line that is a change in one branch and a read in
    another is reported.

    ## Why is this bad?
    `git log`, `kubectl logs` or a test run print as much as the repository or cluster holds;
    the tool's response is as large as that output.

    ## Example
    ```python
    @mcp.tool()
    def git_log(repo: str) -> str:
        return subprocess.run(["git", "log"], cwd=repo, capture_output=True, text=True).stdout
    ```

    ## Fix
    Page the text (`fit_response`), or bound the command itself (`git log -n 50 --skip N`) and
    say in the response how to get the next page.

    ## References
    - [Claude Code: MCP output limits](https://code.claude.com/docs/en/mcp)
    """

    code = "TL104"
    name = "unbounded-process-output"
    summary = "`subprocess` `stdout`, `check_output`, `communicate()`, GitPython commands returned whole"
    noun = "all of a process's output"
    VALID = [
        Valid(
            "import subprocess\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('git')\n"
            "@mcp.tool()\n"
            "def git_ok(repo: str) -> int:\n"
            "    return subprocess.run(['git', 'status'], cwd=repo, capture_output=True).returncode\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import subprocess\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('git')\n"
            "@mcp.tool()\n"
            "def git_log(repo: str) -> str:\n"
            "    return subprocess.check_output(['git', 'log'], cwd=repo, text=True)\n",
            ("TL104@6", "TL201@6"),
        ),
    ]
