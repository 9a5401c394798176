"""TL108 unbounded-external-result."""

from __future__ import annotations

from tokenlint.model import Invalid, Valid
from tokenlint.rules._source import SourceRule


class UnboundedExternalResult(SourceRule):
    """## What it does
    Finds data of unknown size that reaches a tool's response whole. tokenlint treats a value
    from outside the tool as **unbounded until shown small**: NONE needs evidence.

    ### What is of unknown size
    - the result of a call into code tokenlint cannot read: an installed SDK or library client
      (redis-py, docker, boto3, your own `acme_sdk`), any call that is neither in the checked
      files nor a source tokenlint knows;
    - data held outside the tool: a module-level collection filled at run time (`notes = {}`,
      a list loaded at start-up) or an instance's (`self.pending = []`); one entry of it looked
      up by key and returned whole (`jobs[job_id].copy()`) is a record of open-ended contents,
      unless only literals or values named for one identifier or number are ever stored into it
      (`JOBS[job_id] = "queued"`, `self._urls[key] = url`); one the module
      fills only from the process's own command line or environment (`ROOTS[:] = [Path(a)
      .resolve() for a in sys.argv[1:]]`, through its functions and their callers) holds what
      the operator named and is not data;
    - a collection the tool builds one entry per element of such data is as long as that data,
      even when each entry is one number or one name (`[r["id"] for r in rows]`,
      `names.append(r["name"])` in a loop, `text += f"…"` per item, an attribute of a library
      object iterated: `for room in bot.rooms`); `sum(…)`, `max(<generator>)`, the first match
      and at most 100 scalars cut at a fixed count are small;
    - I/O: the kinds tokenlint knows have their own rules (TL101 rows, TL102 files, TL103
      listings, TL104 process output, TL105 HTTP bodies); SQL text or a caller-supplied query
      passed to any receiver (`client.query("SELECT …")`, `client.command("SHOW DATABASES")`)
      is TL101.

    Code in the checked files is read, not guessed: helpers across the package, methods of
    objects whose class is there (`self.store.all()`, a module-level `store = Store()`), nested
    functions, the locals of a server factory a nested tool reads as closures
    (`def create_server(): store = Store(); @mcp.tool() def list_items(): return store.all()`),
    a module-level `client = None` a start-up function sets with `global client`, a client made
    at import only when configured (`client = WebClient(token=t) if t else None`), one-line
    bodies (`def cat(p): return Path(p).read_text()`), and callables run elsewhere (`asyncio.to_thread(fn)`,
    `anyio.to_thread.run_sync(fn)`, `loop.run_in_executor(None, fn)`, `executor.submit(fn)`,
    `functools.partial(fn, …)`), and a method a helper looks up by the name each caller gives it
    (`call("conversations_history", channel=c)` running `getattr(client, method_name)(**kwargs)`:
    judged as a call of that name, with the arguments it forwards), or one kept in a local and
    called there (`fetch = client.list_papers; fetch(q)`); names a `from .helpers import *`
    brings in (a name only a library's `from acme_sdk import *` can bind is that library's), an
    instance a generic accessor gives (`def get_tool(self, cls: type[T]) -> T` called with a
    class of the run), and a nested function handed to a helper that calls it with the run's
    own client (`async def _call(client: BrokerClient)`: its parameter is that class's object).
    A value read as one small record by its name is a collection once used as one, in the tool
    or in a helper it is passed to: iterated or sliced as it is (`[t for t in todos if …]`,
    `items[start:end]`), unless the helper tests its type first (`isinstance(obj, list)`). A
    small field a helper picks from each element of what it is given (`[f.title for f in
    folders]`, `getattr(tag, "name")` in a loop) is one value per element, as many as the
    caller passes; from the one record it is given (`raw.get("name")`, `raw.get("classifier")`:
    a singular key, as the tool picking it would read it), one value. A JSON body
    its URL names as one record (a singular noun: `GET /api/v1/project`, an API naming its
    collections in the singular) but iterated as it is (`[norm(p) for p in raw]`) is the
    listing. `conn.get("/path")` on the run's own client class is that class's method, not a
    dict's `get`; a method found by its name alone among the module's classes is never the
    function being read itself (a wrapper `get_documents` calling the SDK's
    `index.get_documents()`), nor a method every dict, list and set has (`response.headers
    .get(k)` is a mapping's `get`, whichever class of the module defines `get`). A key spelled
    as a noun glued to `list` (`hostlist`, `watchlist`) names a listing, as `host_list` does.
    A generator gives its caller every value it yields, once per round of the loops around the
    `yield` (`yield from rows`: every element), as a list it appended them to would; a `return`
    under a counter test in its loop caps that as `break` does, and `next(gen(...), None)` is
    one value. `"".join(fh)` or `b"".join(proc.stdout)` reads the whole stream, as `list()`
    does. A method that returns the object itself (`return asdict(self)`, `vars(self)`,
    `return self`) gives back everything the object was made of. A field a class declares with
    a class of the run (`client: AcmeClient` in a dataclass, never assigned in a method) holds
    an object of it, whose methods are followed (`ctx.client.get(...)`); one declared with an
    `Enum` of the run holds a constant. A method a `Protocol` (or an abstract base) only declares,
    implemented by no class of the run, is no code to follow: a call of it is judged by its
    name, as a library's is, and one declared to return a class of the run (`def open(self) ->
    Access: ...`) gives an object of it. `ctx.request_context.lifespan_context` is the object the
    server's lifespan yields (`-> AsyncIterator[AppContext]`, or `yield AppContext(...)`): its
    declared fields and the collections its methods fill are read as the class says; its other
    fields are what the server was set up with.

    ### Evidence of small
    - constants: literals and module constants nothing fills (`PLATFORMS = ["linux", "macos"]`),
      members of an enumeration of the run and what their methods give (`Kind.tag`,
      `kind.value.upper()` of a parameter typed `kind: Kind`);
    - scalars: numbers and flags (`len(notes)`, `count_…`, `exists`, `is_…`), an aggregate
      query (`SELECT COUNT(*)`), the counter a write or DDL statement returns (`INSERT INTO`,
      `CREATE TABLE`, `ALTER TABLE … DELETE`);
    - echoes of the arguments, and what the standard library makes of them
      (`f"deleted {widget_id}"`, `Path(p).resolve()`);
    - one fixed-shape record: fields picked from one record (`{"title": info["title"]}`), one
      element looked up by key (`notes[title]["colour"]`), the first match returned from inside
      a loop, a status-like record whose fields the platform fixes (`get_health()`, `…_status`,
      `…_version`, `…_stats`, `…_config`), an identifier, name, link or timestamp picked from a
      record (`info["organization_name"]`, `page.title`, `item["web_url"]`, `…_at`,
      `permalink`), the acknowledgement of a write (also of a helper named for one,
      `conn.unlink(model, ids)`, and of an RPC method that writes, `_call("reactions.add", …)`;
      not a listing such a helper reads beside it under a key naming a collection, `{"columns":
      df.columns.tolist()}`), a handle (`Client(...)`). A record returned whole (`return client.get_build_info(n)`,
      `listing()[0]`, `next(iter(pages.values()))`) is of open-ended contents, every field the service sends, unless it is
      status-like or an entity whose fields the API fixes (a user, an account, a project, a task,
      a contact, a label, a datasource, a quote…: `get_datasource_by_uid(uid)`, the first of
      `users`, `users[0]`, a client's bare `info()` or `stats()`, the counters of the server it is, not `client.indices.stats()`, one per member;
      labelling rule 5's "one user, one DAG"); an issue, an item, a document, an index, a build
      or a page stays open-ended. A field is picked by subscript or `.get("…")`, in the tool or in a helper
      it is passed to (`quote.get("last")`), but a field named for the record's payload
      (`Item`, `content`, `body`, `description`, `results`, `value`, `entries`…) is as large as
      the record, picked by subscript, `.get` or attribute (`mr.description`),
      and so is what a helper makes by walking the payload of the one record it is given
      (`for frame in event.get("entries")`). An SDK model's serializer (`.model_dump()`,
      `.to_dict()`) gives its declared fields, one fixed-shape record; so does a pydantic model
      (or dataclass) of the run made of a body (`Team.model_validate(body)`, `Team(**body)`)
      whose every field is small (`str`, numbers, flags, times, `Literal`s, `Enum`s, nested
      models of the same) and none named for a payload, as it drops every key it does not
      declare (not with `extra="allow"`);
    - a limit-like argument the call is given (`limit=`, `max_results=`, `top_k=`,
      `n_results=`, also through `**params`) or a cap set on a request object that is then sent
      (`Query(q).paging(0, k)`, `arxiv.Search(q, max_results=10)`): judged like any other bound,
      a fixed cap is MEDIUM (TL301), a caller's limit with no maximum MEDIUM (TL107), a clamped
      page with a working continuation LOW.

    ### The call-name lexicon
    Without evidence from its use, the name of the call decides (its last segment, split into
    words: `getAllUsers` → get, all, users; `tokenlint.analysis.shapes`):

    | the name | result | examples |
    |---|---|---|
    | a verb that reads many things | collection or text | `list_widgets`, `search_widgets`, `query`, `scan`, `find`, `hgetall`, `lrange`, `smembers`, `describe_instances`, `dump`, `diff`, `export_csv`, `conversations_list`, `box_file_text_extract` |
    | `get` (or `describe`) with a plural or text noun, or with all | collection or text | `get_tables`, `get_logs`, `get_transcript`, `get_page`, `getAllUsers`, `schema`, `describe_workers` |
    | a plural before a preposition (`by`, `with`, `for`, `in`, `of`...), or a batch word after it | collection or text | `get_users_by_role`, `getWindowsWithTitle`, `get_items_for_project`, `get_dag_runs_batch`, `fetch_users_page` |
    | a conversion to a text format | collection or text | `to_markdown`, `convert_to_html`, `export_csv` |
    | a verb that changes one thing | an acknowledgement | `create_widget`, `update_widget`, `delete_widget`, `set`, `send_message`, `start_build`, `index` |
    | `get` (or `describe`) with a singular noun, a constructor | one record, a handle | `get_widget`, `get_health`, `describe_cluster`, `Client` |
    | a number or a flag | a scalar | `count_widgets`, `widget_exists`, `is_ready`, `llen` |
    | nothing either way | unknown: a collection | `frobnicate`, `get` |

    A name that puts the resource first and the verb after it reads as the verb acting on the
    resource: the Slack Web API's `conversations_list`, `users_info`, and toolkits that prefix
    every function with their product (`box_file_text_extract` is `extract` of a file's text,
    `box_docgen_template_list` a listing). A field read by name off what a call named for one
    document gave (`wiki.page(title).summary`) is one field of that object, since neither a list
    nor a string has fields; its text (`page.text`) and its listings (`page.links`) are the data.
    A field of the run's own record (a `@dataclass`, a `NamedTuple` or a model made with keywords:
    `Source(text, path.name)` returned by a helper) is what that field was given, so
    `source.main_file` is a name and `source.content` the text; an `Enum` member a helper returns
    (`-> "Kind"`) is a constant. One line a position picks out of a text cut into lines
    (`content.splitlines()[line - 1]`, outside any loop) is one small value. What a helper hands
    the callable it was given (`items.append(item_constructor(item))`) comes back in what the
    callable returns.

    A collection the platform's configuration sizes (`get_available_transitions`, `list_kernels`,
    `get_issue_link_types`: transitions, kernels, languages, locales, qualified `…_types`) is a
    handful fixed by how the instance is set up, not by the user's data (labelling rule 6): no
    finding (`NONE?`), also when a method of the server's own client is named for it
    (`client.get_work_item_types(project)` making the request). The types of a schema's parts
    (`get_field_types`, `column_types`) are the schema, not configuration. Nor is a part of the
    process's own configuration object (`self._config.connections.items()` with `_config` a
    `KafkaConfig` / `AppSettings`: a class whose name ends in Config, Configuration, Settings,
    Options or Preferences): what the operator set up, not data; a directory or a service it
    names is still read as data. A call handed the
    caller's page cursor (`starting_after=cursor`) returns one page of the API's own size: MEDIUM.
    So does a listing method of a REST client class (`…Api`, the OpenAPI generator's
    convention: `DAGApi(client).get_dags(**kwargs)`) handed the caller's page offset or page
    number (`offset=`, `page=`, `startAt=`): the service pages it at its own size when no limit
    is named (labelling rule 8). A database's client given `offset=` and `limit=None` returns the
    rest (chromadb's `list_collections`): HIGH.

    A method of the run's own class called on an object made from data
    (`Notebook(**model["content"]).page(start, limit)`) gives that data back as the method cuts
    its fields: `self.cells[start:start + limit]` is the caller's limit, `len(self.cells)` a
    number, a loop over every cell all of it.

    A number, flag or digest a helper makes of what it is given (`int(n)`,
    `sha256(text.encode()).hexdigest()`) is a scalar for each caller: a write that answers with
    the digest of the file it rewrote returns no file.

    A conversion of data the tool holds (`Message.to_dict(m)`, `json.dumps(rows)`) is that data.
    Calls judged small by their name alone are listed per tool as `untraced_calls` in the JSON
    report and mark the verdict `NONE?` / `LOW?` in the text report, so a NONE can be audited;
    `extra-sources` and `extra-bounds` (access paths such as `acme_sdk.Client.list_widgets` or
    `*.dump_all`) override the judgement.

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
