"""TL105 unbounded-http-body."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules._source import SourceRule


class UnboundedHttpBody(SourceRule):
    """## What it does
    Finds HTTP bodies returned whole: `requests`/`httpx` `.text`, `.content`, `.json()`,
    aiohttp `await resp.text()` / `.json()`, `urlopen(...).read()`.

    A page size the request asks for caps the body: a limit-like key (`limit`, `per_page`,
    `pageSize`, `max_results`...) in `params=`, `json=` or `data=` (a dict literal or a local
    dict) or in the URL's query string (`f"...?limit={n}"`, also a URL held in a local, split
    over implicitly concatenated f-strings, or built and returned by a helper of the server):
    a fixed one makes the tool MEDIUM (TL301), a caller's unclamped one MEDIUM (TL107). A helper
    that sends the request and returns the response unread (`await _get(client, url, params)`,
    also from a closure it hands to a rate limiter's `run(fn)`) is capped by the parameters or the
    URL each caller passes it, and its response is one record when that URL names one. A request
    for the records of a list of identifiers (`params={"ids": ",".join(ids)}`, `?id_list=...`,
    a page size of `len(ids)`) gets one record per identifier: it is capped as that list is (the
    first `top` hits of a search, the caller's own list), not when the list holds every hit. A
    write is not flagged: the response to a
    `PUT`, `PATCH` or `DELETE` (RFC 9110 §9.3), and to a `POST` sent by a function named for a
    write (`add_task`, `update_label`; a `POST` may also search), is the one resource written.
    So is what a shared request helper returns when the caller passes it such a method
    (`self._request("DELETE", f"labels/{label_id}")`).

    A `GET` of one resource, a URL whose path ends in an identifier placeholder
    (`f"{base}/tasks/{task_id}"`, the REST convention for an item of a collection), returns
    one record: fields picked from its `.json()` are small, the record returned whole is
    still flagged (every field the service sends), unless the collection is of an entity whose
    fields the API fixes (`/users/{id}`, `/projects/{id}`, `/datasources/uid/{uid}`; see
    TL108). `/tasks/{task_id}/comments` or a query string (`?q=`) is a listing. A `GET` of a
    singleton resource (`account/`, `/me`, `/health`: a singular noun of a fixed record as the
    last path segment; `/quotes/latest`, the newest of a collection of fixed records) is one
    small record. A `GET` that names its records by identifiers the
    caller gave, in a query parameter keyed by a bare identifier word (`params={"ids":
    ",".join(ids)}`, `?id=`, `?slug=`, `?symbol=`), returns one record per identifier: its size
    follows the caller's own input, so fields picked from each record are small; the records
    returned whole, or their open-ended payload (`description`), are still flagged. Given
    identifiers the tool read (from a search: as many as it found), or keyed by another entity's
    identifier (`?project_id=`: a listing of that project's items), it is the whole body.

    A JSON body is a listing or one record. A field picked from it by a singular key
    (`body["data"]["plan"]`, `.get("usage", {})`) is one nested record, small; a field picked by a
    payload, listing or plural key (`data`, `result`, `value`, `query`, `search`, `items`,
    `tasks`), with a list default (`.get("markets", [])`), or a picked record iterated, is the
    listing an envelope wraps, as large as the body. A field of a nested record is one field of
    it (`book["publisher"].get("name")`), and so is a nested record picked by a key chosen at run
    time with a mapping default (`quote.get(currency, {})`).

    A request that hands the API a page cursor the caller gave (`cursor`, `page_token`,
    `starting_after`, as a keyword, in `params` or in the query string) gets one page of the
    API's own size: MEDIUM, however the caller's `limit` defaults (labelling rule 8). A cursor
    the API sent back, followed in a loop, drains every page (TL106). A GraphQL `mutation`
    document (every GraphQL operation is a `POST`) is a write, and the record it sends back
    echoes the caller's input. The completion a tool samples from the client's model
    (`response = await ctx.sample(prompt, max_tokens=400)`) is capped by its `max_tokens`: its
    `.text` is no HTTP body, whatever the variable is called.

    ## Why is this bad?
    An API listing or a web page is as large as the server makes it. Proxying it straight to the
    model hands the remote server control of your context window.

    ## Example
    ```python
    @mcp.tool()
    def list_issues(repo: str) -> dict:
        return httpx.get(f"https://api.example.com/repos/{repo}/issues").json()
    ```

    ## Fix
    Request one page (`per_page`, `page`) and return the next page's token, or let
    page the body with `tokenlint.runtime.fit_response`.

    ## References
    - [Claude Code: MCP output limits](https://code.claude.com/docs/en/mcp)
    """

    code = "TL105"
    name = "unbounded-http-body"
    summary = "`requests` / `httpx` / `aiohttp` `.text`, `.json()`, `.content` returned whole"
    noun = "a whole HTTP body"
    VALID = [
        Valid(
            "import httpx\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('api')\n"
            "@mcp.tool()\n"
            "def ping(url: str) -> int:\n"
            "    return httpx.get(url).status_code\n"
        ),
        Valid(
            "import httpx\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('api')\n"
            "@mcp.tool()\n"
            "def delete_issue(issue_id: str) -> dict:\n"
            "    return httpx.delete(f'https://api.example.com/issues/{issue_id}').json()\n"
        ),
    ]
    INVALID = [
        Invalid(
            "import httpx\n"
            "from mcp.server.fastmcp import FastMCP\n"
            "mcp = FastMCP('api')\n"
            "@mcp.tool()\n"
            "def list_issues(repo: str) -> dict:\n"
            "    resp = httpx.get(f'https://api.example.com/repos/{repo}/issues')\n"
            "    return resp.json()\n",
            ("TL105@7", "TL201@7"),
        ),
    ]
