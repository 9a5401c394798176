"""What the analysis knows about library calls: sources, handles, bounds, reducers, hints.

Qualified names are matched after import resolution (``from subprocess import run`` → ``run``
is ``subprocess.run``). Method names are matched on any receiver only where the name is specific
enough to mean one thing (``read_text``, ``fetchall``, ``iterdir``); generic names (``read``,
``get``, ``all``, ``find``) need a handle of the right kind on the receiver.
"""

from __future__ import annotations

import re

#: Calls whose result is a growing collection or text — rule code and a short description.
SOURCE_FUNCTIONS: dict[str, tuple[str, str]] = {
    "os.listdir": ("TL103", "os.listdir()"),
    "os.scandir": ("TL103", "os.scandir()"),
    "os.walk": ("TL103", "os.walk()"),
    "glob.glob": ("TL103", "glob.glob()"),
    "glob.iglob": ("TL103", "glob.iglob()"),
    "subprocess.check_output": ("TL104", "subprocess.check_output()"),
    "subprocess.getoutput": ("TL104", "subprocess.getoutput()"),
    "subprocess.getstatusoutput": ("TL104", "subprocess.getstatusoutput()"),
    "pandas.read_sql": ("TL101", "pandas.read_sql()"),
    "pandas.read_sql_query": ("TL101", "pandas.read_sql_query()"),
    "pandas.read_sql_table": ("TL101", "pandas.read_sql_table()"),
    "pandas.read_csv": ("TL102", "pandas.read_csv()"),
    "pandas.read_json": ("TL102", "pandas.read_json()"),
    "pandas.read_excel": ("TL102", "pandas.read_excel()"),
    "pandas.read_parquet": ("TL102", "pandas.read_parquet()"),
}

#: Calls that return a handle (``Marker`` kind).
HANDLE_FUNCTIONS: dict[str, str] = {
    # the SQLAlchemy inspector: an object whose methods read the schema (``get_columns(t)``)
    "sqlalchemy.inspect": "object",
    "elasticsearch.helpers.scan": "paginator",
    "elasticsearch.helpers.async_scan": "paginator",
    "open": "file",
    "io.open": "file",
    "codecs.open": "file",
    "gzip.open": "file",
    "bz2.open": "file",
    "lzma.open": "file",
    # an archive: its members (``z.read(name)``, ``z.open(name).read()``: a whole member, a
    # ``.docx``'s ``word/document.xml``) and its listing (``namelist()``)
    "zipfile.ZipFile": "archive",
    "tarfile.open": "archive",
    "aiofiles.open": "file",
    "subprocess.run": "process",
    "subprocess.Popen": "process",
    "asyncio.create_subprocess_exec": "process",
    "asyncio.create_subprocess_shell": "process",
    "requests.get": "http_response",
    "requests.post": "http_response",
    "requests.put": "http_response",
    "requests.patch": "http_response",
    "requests.delete": "http_response",
    "requests.request": "http_response",
    "requests.head": "http_response",
    "httpx.get": "http_response",
    "httpx.post": "http_response",
    "httpx.put": "http_response",
    "httpx.patch": "http_response",
    "httpx.delete": "http_response",
    "httpx.request": "http_response",
    "urllib.request.urlopen": "http_response",
    "requests.Session": "http_client",
    "requests.session": "http_client",
    "httpx.Client": "http_client",
    "httpx.AsyncClient": "http_client",
    "aiohttp.ClientSession": "http_client",
    "sqlite3.connect": "db",
    "aiosqlite.connect": "db",
    "psycopg.connect": "db",
    "psycopg2.connect": "db",
    "psycopg.AsyncConnection.connect": "db",
    "pymysql.connect": "db",
    "mysql.connector.connect": "db",
    "asyncpg.connect": "db",
    "duckdb.connect": "db",
    "sqlalchemy.create_engine": "db",
}

#: Third-party modules whose functions give back one value of fixed size (a date or time, a
#: time zone, a duration, a version), never data: ``dateutil.parser.parse(s)``,
#: ``arrow.get(ts)``, ``pendulum.parse(s)``, ``humanize.naturaltime(d)``, ``semver.Version.parse(v)``.
SCALAR_MODULES = frozenset({"dateutil", "arrow", "pendulum", "iso8601", "ciso8601", "pytz", "tzlocal",
                            "humanize", "dateparser", "isodate", "semver", "packaging"})

#: Standard-library functions that pick at most a count of items from a collection they are
#: given: qualified name -> (position of the count argument, None when it is keyword-only; its
#: keyword; its default, None when it is required). ``heapq.nlargest(10, rows)`` is ten rows;
#: ``difflib.get_close_matches(word, names)`` three names (its documented default ``n=3``).
COUNT_PICKERS: dict[str, tuple[int | None, str, int | None]] = {
    "heapq.nlargest": (0, "n", None),
    "heapq.nsmallest": (0, "n", None),
    "difflib.get_close_matches": (2, "n", 3),
    "random.sample": (1, "k", None),
    "random.choices": (None, "k", 1),
}

#: Functions of the standard library that await what they are given and return its results as
#: they are (``asyncio.gather`` a list of them, one per awaitable; ``wait_for`` and ``shield``
#: the one result): Python's ``asyncio`` documentation, "Coroutines and Tasks".
AWAITED_RESULTS = frozenset({"asyncio.gather", "asyncio.wait_for", "asyncio.shield"})

#: Classes whose objects carry a result another task, thread or process sets later
#: (``asyncio.Future``, ``concurrent.futures.Future``; ``loop.create_future()`` makes the first).
FUTURE_CLASSES = frozenset({"asyncio.Future", "asyncio.futures.Future", "concurrent.futures.Future"})

HTTP_METHODS = frozenset({"get", "post", "put", "patch", "delete", "request", "head", "send", "stream"})

#: Standard-library functions that give back one path made of the paths they are given (Python
#: Library Reference, ``os.path``; ``posixpath`` and ``ntpath`` are its two implementations):
#: ``os.path.join(root, name)``, ``os.path.dirname(p)``. A path is a short string whatever the
#: data around it, so what a tool makes of it (``f"exported to {out}"``) holds no data.
PATH_FUNCTIONS = frozenset(
    f"{module}.{name}" for module in ("os.path", "posixpath", "ntpath")
    for name in ("join", "dirname", "basename", "splitext", "split", "abspath", "realpath", "normpath",
                 "relpath", "expanduser", "expandvars", "normcase", "commonpath", "commonprefix")
) | frozenset({"os.getcwd", "tempfile.gettempdir", "tempfile.mkdtemp", "tempfile.mktemp", "shutil.which"})

#: Types whose every instance is one number, flag, moment or constant of a fixed short size (Python
#: Library Reference: built-in numeric types, ``enum``, ``datetime``, ``decimal``, ``fractions``,
#: ``uuid``, ``numbers``; NumPy's scalar base classes): a branch that runs only when
#: ``isinstance(value, T)`` holds for such types (``if isinstance(value, Enum): return
#: value.value``) handles a scalar there, whatever the caller passes. ``str`` and ``bytes`` are
#: not here: their size is the data's.
SCALAR_TYPES = frozenset({
    "int", "float", "bool", "complex",
    "enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag",
    "datetime.datetime", "datetime.date", "datetime.time", "datetime.timedelta", "datetime.timezone",
    "decimal.Decimal", "fractions.Fraction", "uuid.UUID",
    "numbers.Number", "numbers.Complex", "numbers.Real", "numbers.Rational", "numbers.Integral",
    "numpy.generic", "numpy.number", "numpy.integer", "numpy.floating", "numpy.bool_",
})

#: Builtins whose result is a number or flag, never the data itself.
SCALAR_BUILTINS = frozenset(
    {"bool", "int", "float", "round", "abs", "isinstance", "issubclass", "hasattr", "callable",
     "id", "hash", "ord", "divmod", "any", "all", "sum", "type"}
)

#: Methods whose result is a number or flag (on str, list, dict, file, response...).
SCALAR_METHODS = frozenset(
    {"count", "index", "rindex", "find", "rfind", "startswith", "endswith", "isdigit", "isalpha",
     "isalnum", "isspace", "islower", "isupper", "exists", "is_file", "is_dir", "is_symlink",
     "stat", "fetchone", "fetchrow", "fetchval", "scalar", "scalar_one", "scalar_one_or_none",
     "first", "one", "one_or_none", "get_or_none", "raise_for_status", "close", "commit",
     "rowcount", "wait", "poll", "kill", "terminate", "readline", "tell", "seek", "fileno",
     "total_seconds", "timestamp", "isoformat", "strftime", "hexdigest", "digest", "mkdir",
     "unlink", "write_text", "write_bytes", "touch", "rename", "replace_file"}
)

#: Methods of ``SCALAR_METHODS`` that, given a positional argument, read the thing it names
#: instead: GitPython's ``Repo.commit(rev)`` gives that commit (its message, its diff), where a
#: DB-API ``conn.commit()`` takes none.
READS_WHEN_GIVEN = frozenset({"commit"})

#: Attributes that are scalars whatever their owner. ``counters`` is the fixed record of counts a
#: write reports (neo4j's ``ResultSummary.counters``: nodes_created, properties_set, ...);
#: ``acknowledged`` / ``inserted_id`` / ``upserted_id`` are pymongo's write results.
#: (Not ``name`` or ``size``: on the elements of a collection those are per-item data, and a list
#: of names grows with the collection.)
SCALAR_ATTRIBUTES = frozenset(
    {"returncode", "status_code", "status", "ok", "reason", "rowcount", "lastrowid", "pid",
     "encoding", "closed", "elapsed", "counters", "acknowledged", "inserted_id", "upserted_id"}
)

#: Names of calls that count tokens or estimate them (a ``Measure`` in tokens).
TOKEN_COUNTER = re.compile(r"(count_tokens|estimate_tokens|num_tokens|token_count|tokens_of|"
                           r"count_token|estimate_token|n_tokens|token_len|tokenize)", re.I)

#: Parameter names through which a model continues a paged response.
CONTINUATION_PARAMS = frozenset(
    {"cursor", "offset", "page", "page_token", "pagetoken", "next_token", "start_index", "start",
     "skip", "after", "before", "continuation_token", "start_line", "line_offset", "page_number",
     "marker", "from_", "start_after", "next_cursor", "since_id", "start_row", "chunk", "chunk_index",
     "part", "start_char", "char_offset", "offset_lines", "from_line", "line_start", "first_line"}
)

#: Parameter names that read as "how many": a bound made of one of these is a caller limit.
LIMIT_PARAM = re.compile(
    r"(limit|max|count|size|top|num|^n$|^k$|per_page|perpage|page_size|pagesize|length|lines|rows|"
    r"results|depth|head|tail|number|amount|first|last)", re.I
)

#: Words that, in the response, tell the model how to get the rest.
HINT_WORDS = re.compile(
    r"(next_cursor|nextCursor|next_offset|nextOffset|next_page_token|nextPageToken|next_page|"
    r"nextPage|next_?token|nextToken|next_?marker|nextMarker|end_?cursor|endCursor|has_?next|hasNext|"
    r"continuation_?token|has_more|hasMore|next_action|nextAction|resource_uri|resourceUri|resource_link|"
    r"continuation|next_start|next_index|more_available|remaining_pages|"
    r"(start_index|offset|cursor|page|page_token|start_line|skip)\s*[=:]\s*\{|"
    r"call (again|\w+( again)?) with|pass (offset|cursor|page|start_index)|to (see|get|read) (more|the next)|"
    r"showing page\b|"
    r"\b(offset|cursor|page|page_token|start_index|start_line|skip|start)\s*=\s*$)",
    re.I,
)

#: Runtime entry points that pre-estimate and continue (``tokenlint.runtime``).
RUNTIME_FITTERS = frozenset({"fit_response", "fit_json_text", "paginate", "paginate_items", "page_text",
                             "fit_to_budget", "reduce_to_budget"})

#: A row cap in query text: SQL ``LIMIT n`` / ``TOP n`` / ``FETCH FIRST n``, Cypher ``LIMIT n``,
#: and the Kusto (KQL) operators ``| take n``, ``| limit n``, ``| sample n``, ``| top n by ...``.
_ROW_CAP = r"(\b(LIMIT|TOP|FETCH\s+FIRST)|\|\s*(take|limit|sample|top))\s+"
SQL_LIMIT_FIXED = re.compile(_ROW_CAP + r"(?P<n>\d+)", re.I)
SQL_LIMIT_PARAM = re.compile(_ROW_CAP + r"(\?|%s|%\(\w+\)s|:\w+|\$\w+|@\w+|\{[^}]*\})", re.I)


def outer_statement(sql: str) -> str:
    """``sql`` with every parenthesized part blanked out (subqueries, CTE bodies, function
    arguments), so a ``LIMIT`` found in it caps the statement's own rows, not a subquery's
    (``... WHERE id IN (SELECT id FROM u LIMIT 5)`` is not capped at 5)."""
    out, depth = [], 0
    for ch in sql:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            continue
        out.append(" " if depth else ch)
    return "".join(out)


_SELECT_LIST = re.compile(r"^\s*SELECT\s+(?:DISTINCT\s+)?(?P<cols>.+?)\s+FROM\b", re.I | re.S)


def selected_columns(sql: str) -> tuple[str, ...]:
    """The names of the columns a plain ``SELECT a, t.b, c AS d FROM ...`` returns, in order (an
    alias names its column); ``()`` when they cannot be read (``SELECT *``, an expression without
    an alias, a hole of an f-string, no ``SELECT ... FROM``)."""
    m = _SELECT_LIST.match(outer_statement(sql))
    if m is None:
        return ()
    out = []
    for part in m.group("cols").split(","):
        words = part.split()
        if not words:
            return ()
        name = words[-1].rsplit(".", 1)[-1].strip('"`[]')
        if not re.fullmatch(r"[A-Za-z_]\w*", name):
            return ()
        out.append(name)
    return tuple(out)


SQL_SELECT = re.compile(r"\b(SELECT|PRAGMA|SHOW|DESCRIBE|EXPLAIN|WITH)\b|\bMATCH\b[\s\S]*\bRETURN\b", re.I)
#: A statement that writes and returns a counter, not rows (no ``RETURNING``).
SQL_WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|TRUNCATE|MERGE|GRANT|REVOKE|SET|USE)\b(?![\s\S]*\bRETURNING\b)", re.I)
#: A write or DDL statement recognisable without a ``SELECT`` in it (``INSERT INTO t ...``,
#: ``CREATE TABLE``, ``ALTER TABLE t DELETE WHERE ...``): its result is a counter, not rows. So is
#: a Kusto (KQL) management command that changes data or schema (``.ingest inline into table``,
#: ``.create-merge table``, ``.set-or-append``, ``.drop``): it returns a status row or the
#: extents it made (the ``.show`` commands, which list, are not here).
SQL_WRITE_STATEMENT = re.compile(
    r"^\s*(INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+[\w.\"`\[\]{}]+\s+SET|DELETE\s+FROM|TRUNCATE(\s+TABLE)?|"
    r"(CREATE|DROP|ALTER)(\s+OR\s+REPLACE)?(\s+(TEMP|TEMPORARY|UNIQUE|MATERIALIZED))?\s+"
    r"(TABLE|INDEX|VIEW|DATABASE|SCHEMA|SEQUENCE|TRIGGER|FUNCTION|USER|ROLE|DICTIONARY)|"
    r"\.(ingest|create(-merge|-or-alter)?|alter(-merge)?|drop|set(-or-append|-or-replace)?|append|"
    r"delete|purge|rename|clear|move|replace)(?=\s))\b"
    r"(?![\s\S]*\bRETURNING\b)",
    re.I,
)
SQL_AGGREGATE_ONLY = re.compile(
    r"^\s*SELECT\s+(COUNT|SUM|AVG|MIN|MAX|EXISTS)\s*\((?:(?!\bGROUP\s+BY\b).)*$", re.I | re.S
)


#: A statement whose one row is an open-ended object (labelling rule 5, "Single objects"): a
#: table's DDL with every column, a query plan, a table description.
SQL_OPEN_ENDED_OBJECT = re.compile(
    r"^\s*(SHOW\s+CREATE\b|EXPLAIN\b|DESCRIBE\b|DESC\s|SHOW\s+(FULL\s+)?COLUMNS\b)", re.I)


#: Aggregates that gather every matched row into one value (Cypher ``collect()``, PostgreSQL
#: ``array_agg``/``json_agg``/``jsonb_agg``/``string_agg``, MySQL and SQLite ``GROUP_CONCAT``,
#: SQLite ``json_group_array``, Oracle and Snowflake ``LISTAGG``/``ARRAY_AGG``): a row of such a
#: statement holds as many items as the rows it gathered (``records[0]["nodes"]`` is the graph).
SQL_GATHERING_AGGREGATE = re.compile(
    r"\b(collect|array_agg|json_agg|jsonb_agg|string_agg|group_concat|json_group_array|listagg)\s*\(", re.I)

#: A Cypher write driven by the caller's list (``UNWIND $observations AS obs MATCH ... SET ...
#: RETURN e.name, new``): one row per element the caller sent, echoing it (labelling rule 6).
CYPHER_UNWOUND_WRITE = re.compile(
    r"^\s*UNWIND\s+\$\w+[\s\S]*\b(CREATE|MERGE|SET|DELETE|REMOVE)\b", re.I)

#: What a query source's ``what`` ends with when its statement gathers every row into one
#: (``SQL_GATHERING_AGGREGATE``): one row of it is every row (``interpreter._open_ended_row``).
GATHERED_ROWS = "(each row gathering every match)"


def gathered_note(text: str | None) -> str:
    """What a query source's ``what`` gets after its call when the statement ``text`` gathers
    every row into one (``" " + GATHERED_ROWS``), else nothing (no text, or no such aggregate)."""
    return f" {GATHERED_ROWS}" if text is not None and SQL_GATHERING_AGGREGATE.search(text) else ""


#: A statement that switches the session's database or schema (``USE shop``, ``USE {database}``
#: with the name a hole of an f-string): MySQL, ClickHouse, Snowflake and SQL Server return no
#: rows for it, only a status.
SQL_SESSION_STATEMENT = re.compile(r"^\s*USE\s+[\w.\"`\[\]{}-]+\s*;?\s*$", re.I)


def no_rows_statement(text: str) -> bool:
    """Whether SQL text ``text`` is a statement that returns no rows, only a counter or a
    status: a write or DDL statement (``SQL_WRITE_STATEMENT``) or a switch of the session's
    database (``SQL_SESSION_STATEMENT``)."""
    return bool(SQL_WRITE_STATEMENT.match(text) or SQL_SESSION_STATEMENT.match(text))


#: The end of a command line that asks a program for its usage text: ``--help``, a last ``help``
#: word (``helm help``), or a last f-string hole named for the flag (``f"{tool} {command}
#: {help_flag}"``). The text is the one the program ships, the same whatever the user's data
#: (labelling rule 6, "CLI ``--help`` text"). ``-h`` is left out: ``df -h``, ``ls -lh`` print
#: sizes for humans.
HELP_COMMAND = re.compile(r"(?:^|\s)(?:--help|help|\{[^{}]*help[^{}]*\})\s*$", re.I)


def help_command(text: str) -> bool:
    """Whether the command line ``text`` asks a program for its usage text (``HELP_COMMAND``)."""
    return bool(HELP_COMMAND.search(text))


#: Subcommands of command-line clients (``kubectl``, ``helm``, ``docker``, ``argo rollouts``,
#: ``flux``) that change the named objects and print one acknowledgement line per object
#: (``deployment.apps/web restarted``, ``pod "x" deleted``): output as long as the caller's own
#: list of objects (labelling rule 6, created entities echoed back). Commands that print what
#: they did at length (``drain``: every evicted pod; ``sync``: a resource table; ``install``:
#: the chart's notes) are left out.
ACK_SUBCOMMANDS = frozenset({
    "delete", "annotate", "label", "scale", "abort", "restart", "promote", "retry", "patch",
    "cordon", "uncordon", "taint", "suspend", "resume", "pause", "unpause", "stop", "kill",
    "rm", "rmi", "tag", "create", "undo", "rollback", "apply", "expose", "autoscale", "reconcile",
})

#: Subcommands that read: the output is the data (``get``, ``logs``, ``describe``, ...).
READ_SUBCOMMANDS = frozenset({
    "get", "list", "ls", "describe", "logs", "log", "top", "show", "status", "history", "diff",
    "explain", "events", "ps", "inspect", "search", "export", "dump", "cat", "tail", "watch",
    "template", "values", "manifest", "version", "info", "exec", "run", "tree", "view", "api-resources",
})


def acknowledging_command(argv: list[str | None]) -> bool:
    """Whether a command line (its words, None for one not known before the run) changes
    named objects and prints an acknowledgement (``ACK_SUBCOMMANDS``): the first subcommand
    word after the program that is a known verb is a changing one, every word before it is
    known, and no ``-o``/``--output`` asks to print the changed object."""
    for word in argv[1:]:
        if word is None:
            return False
        if word in READ_SUBCOMMANDS:
            return False
        if word in ACK_SUBCOMMANDS:
            return not any(w is not None and (w in ("-o", "--output") or w.startswith(("-o=", "--output=")))
                           for w in argv)
    return False


def looks_like_sql(text: str) -> bool:
    """Whether ``text`` reads as a query: it contains a ``SELECT``, ``PRAGMA``, ``SHOW``,
    ``DESCRIBE``, ``EXPLAIN`` or ``WITH`` word or a Cypher ``MATCH ... RETURN`` (``SQL_SELECT``,
    anywhere, any case) and does not start with ``/`` or ``http`` (a path or a URL)."""
    return bool(SQL_SELECT.search(text)) and not text.strip().startswith(("/", "http"))


#: Collections of Google's discovery-based API clients (``googleapiclient.discovery.build``)
#: whose ``get`` request returns one resource of fixed metadata fields: Drive v3 ``files``,
#: ``drives``, ``permissions``; Calendar v3 ``events``, ``calendars``, ``calendarList``;
#: Gmail v1 ``labels``; Tasks v1 ``tasklists``, ``tasks``; People v1 ``people``,
#: ``contactGroups``; YouTube Data v3 ``channels``, ``playlists``. Left out are collections whose
#: resource is content: Docs ``documents``, Gmail ``messages``/``threads``/``drafts``, Sheets
#: ``spreadsheets``/``values``, Slides ``presentations``, Drive ``revisions``/``comments``.
GOOGLE_RECORD_RESOURCES = frozenset({
    "files", "drives", "permissions", "events", "calendars", "calendarList", "labels", "tasklists",
    "tasks", "people", "contactGroups", "channels", "playlists",
})
