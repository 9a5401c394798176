"""TL108 unbounded-external-result."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules._source import SourceRule


class UnboundedExternalResult(SourceRule):
    """## What it does
    Finds data of unknown size that reaches a tool's response whole: the result of a call into
    code tokenlint cannot read (an SDK client such as redis-py, docker, boto3 or your own
    `acme_sdk`), or a module-level or instance collection filled at run time (`notes = {}`).

    tokenlint treats such a value as **unbounded until shown small**. It is judged small only on
    evidence that holds across libraries (`tokenlint.analysis.shapes`):

    - the call's name says an acknowledgement or a handle: a verb that changes one thing
      (`create_…`, `update_…`, `delete_…`, `set`, `send`, `start`, `index`), a constructor
      (`Client(...)`), or a number or flag (`count_…`, `exists`, `is_…`);
    - fields picked from one record (`{"title": info["title"]}`): a fixed shape. The record
      itself returned whole (`return client.get_build_info(n)`, `listing()[0]`) is of open-ended
      contents — every field the service sends — unless it is a status-like record whose fields
      the platform fixes (`get_health()`, `…_status`, `…_version`, `…_stats`, `…_config`);
    - a write statement (`INSERT`, `UPDATE`, `CREATE`…) returns a counter;
    - the first match returned from inside a loop is one item.

    Everything else is a collection or text: names that read many things (`list_…`, `search`,
    `query`, `scan`, `dump`, `diff`, `logs`, `describe_…`, `hgetall`, `lrange`), plural nouns
    (`get_tables`), open-ended text nouns (`get_transcript`, `schema`), and names that say
    nothing either way. SQL text or a caller-supplied query passed to any receiver is TL101.
    A limit-like argument (`limit=`, `max_results=`, `top_k=`, `n_results=`) bounds the result
    as a caller limit or a fixed cap, judged like any other bound (TL107, TL301); so does a cap
    set on a request object that is then sent (`Query(q).paging(0, k)`,
    `arxiv.Search(q, max_results=10)` passed to `client.results(search)`). A conversion of data
    the tool holds (`Message.to_dict(m)`, `json.dumps(rows)`) is that data. Calls judged small by
    their name alone are listed per tool as `untraced_calls` in the JSON report and mark the
    verdict `NONE?` in the text report, so a NONE can be audited; `extra-sources` and
    `extra-bounds` (access paths such as `acme_sdk.Client.list_widgets` or `*.dump_all`) override
    the judgement.

    ## Why is this bad?
    An API listing, a key's value or a collection grows with the data behind it, which the
    tool's author never sees in development; past Claude Code's 25,000-token cap the call fails.

    ## Example
    ```python
    @mcp.tool()
    def list_widgets() -> str:
        return json.dumps(acme.list_widgets())
    ```

    ## Fix
    Pass a clamped page size and return the API's next-page token with a parameter that takes
    it back, or route the result through `tokenlint.runtime.fit_response`. If a call really
    returns one small record, add the receiver's method to `extra-bounds` in `[tool.tokenlint]`.

    ## References
    - [Claude Code: MCP output limits](https://code.claude.com/docs/en/mcp)
    - CodeQL models-as-data (sources, summaries) for the idea of library knowledge as data
    """

    code = "TL108"
    name = "unbounded-external-result"
    summary = "SDK and library calls whose result is a collection or text of unknown size; run-time collections"
    noun = "data of unknown size"
    VALID = [
        Valid(
            "import acme_sdk\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('acme')\n"
            "client = acme_sdk.Client()\n"
            "@mcp.tool()\n"
            "def delete_widget(widget_id: str) -> str:\n"
            "    client.delete_widget(widget_id)\n"
            "    return f'deleted {widget_id}'\n"
        ),
        Valid(
            "import acme_sdk\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('acme')\n"
            "client = acme_sdk.Client()\n"
            "@mcp.tool()\n"
            "def get_widget(widget_id: str) -> dict:\n"
            "    return client.get_widget(widget_id).to_dict()\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import json\n"
            "import acme_sdk\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('acme')\n"
            "client = acme_sdk.Client()\n"
            "@mcp.tool()\n"
            "def list_widgets() -> str:\n"
            "    return json.dumps([w.to_dict() for w in client.list_widgets()])\n",
            ("TL108@8", "TL201@8"),
        ),
        Invalid(
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('notes')\n"
            "notes: dict[str, str] = {}\n"
            "@mcp.tool()\n"
            "def all_notes() -> dict:\n"
            "    return notes\n",
            ("TL108@6", "TL201@6"),
        ),
    ]
