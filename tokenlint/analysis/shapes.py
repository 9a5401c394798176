"""What a call the analysis cannot see into returns: a collection or text, one record, or a scalar.

tokenlint cannot read an SDK client's code (redis-py, docker, boto3, a made-up ``acme_sdk``), so
it judges the *shape* of such a call's result from evidence that holds across libraries:

1. what the user configured (``extra-sources`` / ``extra-bounds``, ``tokenlint.analysis.knowledge``)
   comes first, matched by access path (``acme_sdk.Client.list_widgets``, ``*.dump_all``);
2. otherwise the call's name, split into words (``list_databases`` → list, databases;
   ``getAll`` → get, all): a verb that reads many things (list, search, query, scan, dump, diff,
   logs, describe…), a plural noun (``get_tables``) or a noun for open-ended text (content,
   transcript, schema…) means a collection or text; a verb that changes one thing (create,
   update, delete, set, send, start…), a singular ``get_<noun>`` or a constructor
   (``Client(...)``) means one record or a handle; count/exists/is_/has_ mean a scalar.
3. A name that says nothing either way (``client.frobnicate()``) is of **unknown size**: the
   design's default (design.md "Risk levels": NONE needs evidence) treats it as a collection.

``call_shape(name)`` is the whole public API: ``Shape.COLLECTION``, ``Shape.RECORD``,
``Shape.SCALAR`` or ``Shape.UNKNOWN``.
"""

from __future__ import annotations

import enum
import re


class Shape(enum.Enum):
    """The size class of a call's result: COLLECTION (grows with data: rows, items, text),
    RECORD (one fixed-shape object or a handle), SCALAR (a number, a flag, a short status),
    UNKNOWN (no evidence; the analysis treats it as COLLECTION)."""

    COLLECTION = "collection"
    RECORD = "record"
    SCALAR = "scalar"
    UNKNOWN = "unknown"


#: First words (verbs) whose call reads many things or a whole text.
COLLECTION_VERBS = frozenset({
    "list", "ls", "search", "query", "scan", "find", "filter", "select", "fetch", "fetchall",
    "all", "range", "lrange", "zrange", "zrevrange", "zrangebyscore", "xrange", "xrevrange",
    "xread", "members", "smembers", "keys", "hkeys", "hvals", "hgetall", "mget", "values",
    "items", "logs", "log", "history", "diff", "dump", "export", "read", "download", "cat",
    "show", "describe", "explain", "tree", "walk", "inspect", "peek", "sample", "tail", "grep",
    "collect", "iter", "iterate", "paginate", "aggregate", "execute", "exec", "run", "invoke",
    "browse", "crawl", "scrape", "retrieve", "load", "extract", "analyze", "analyse", "glob",
    "enumerate", "discover", "traverse", "expand", "resolve_all", "batch", "recommend", "locate",
    "similar", "suggest", "complete", "autocomplete", "lookup", "match", "top", "scroll",
    "stream", "tasks", "events", "transcribe", "transcript", "summarize", "summarise",
    "render", "convert", "parse", "crawl", "hscan", "sscan", "zscan", "xinfo",
})

#: Verbs of a state change of one resource (an instance, a job, a VM: ``POST
#: /instances/{id}/pause``; an alert or event: ``event.acknowledge``, ``incident.snooze``):
#: writes, whose result is that resource's acknowledgement.
STATE_CHANGE_VERBS = frozenset({"pause", "unpause", "resume", "start", "stop", "suspend", "reboot", "shutdown",
                                "terminate", "activate", "deactivate", "acknowledge", "ack", "snooze", "escalate"})

#: First words (verbs) whose call changes or reads one thing: the result is one record, an
#: acknowledgement, or a handle to call further methods on.
RECORD_VERBS = frozenset({
    "create", "add", "insert", "update", "set", "put", "delete", "del", "remove", "drop",
    "patch", "upsert", "write", "save", "store", "send", "publish", "post", "start", "stop",
    "restart", "kill", "pause", "unpause", "cancel", "close", "connect", "disconnect", "login",
    "logout", "rename", "move", "copy", "tag", "untag", "push", "commit", "checkout", "reset",
    "clone", "init", "initialize", "register", "unregister", "enable", "disable", "acknowledge",
    "ack", "approve", "assign", "archive", "trigger", "schedule", "submit", "upload", "mark",
    "lock", "unlock", "expire", "incr", "incrby", "decr", "hset", "hdel", "lpush", "rpush",
    "sadd", "srem", "zadd", "zrem", "xadd", "flush", "flushdb", "subscribe", "unsubscribe",
    "attach", "detach", "invite", "reply", "comment", "edit", "modify", "open", "new", "make",
    "index", "reindex", "bulk",
    "build_client", "client", "session", "engine", "from", "with", "get_connection", "ping",
    "health", "version", "whoami", "me", "info", "config", "configure", "settings", "status",
    "hget", "get_or_create", "touch", "persist", "rollback", "begin", "release", "acquire",
    "wait", "sleep", "notify", "emit", "log_event", "record", "track", "validate", "verify",
    "check", "test", "authenticate", "authorize", "refresh", "renew", "revoke", "grant",
    "install", "uninstall", "deploy", "undeploy", "scale", "apply", "execute_write", "write_query",
    "mkdir", "rmdir", "unlink", "chmod", "chown", "link", "follow", "unfollow", "like", "unlike",
    "vote", "star", "unstar", "watch", "unwatch", "pin", "unpin", "merge", "rebase", "revert",
    "cherry", "fork", "transfer", "import", "encode", "decode", "hash", "sign", "encrypt",
    "decrypt", "compress", "decompress", "format", "now", "today", "utcnow", "current",
    "translate", "calculate", "compute", "convert_time", "to", "as", "build", "repost", "pull",
    "share", "retweet", "forward", "quote", "upvote", "downvote", "react", "block", "unblock",
    "mute", "unmute", "bookmark", "subscribe", "join", "leave", "invite", "kick", "ban",
    "produce", "enqueue", "remember", "memorize", "forget",
    "retry", "rerun", "restart", "play", "unapprove", "award", "unvote",
    "mset", "msetnx", "setex", "setnx", "psetex", "hmset", "hsetnx", "lset", "ltrim", "expireat",
}) | STATE_CHANGE_VERBS

#: First words of a function that writes one thing (its result is what was written, or an
#: acknowledgement): a subset of ``RECORD_VERBS`` with no reads and no handles.
WRITE_VERBS = frozenset({
    "create", "add", "insert", "update", "set", "put", "delete", "del", "remove", "patch", "upsert",
    "write", "save", "store", "send", "publish", "post", "move", "rename", "close", "reopen",
    "complete", "uncomplete", "archive", "unarchive", "assign", "unassign", "tag", "untag", "label",
    "comment", "reply", "edit", "modify", "mark", "approve", "reject", "cancel", "merge", "follow",
    "unfollow", "like", "unlike", "star", "unstar", "pin", "unpin", "lock", "unlock", "invite",
    "upload", "submit", "schedule", "trigger", "enable", "disable", "register", "unregister",
    "produce", "enqueue", "remember", "memorize", "forget",
    "retry", "rerun", "restart", "play", "subscribe", "unsubscribe", "unapprove", "award", "watch",
    "unwatch", "vote", "unvote", "revoke", "grant",
    "mset", "msetnx", "setex", "setnx", "psetex", "hmset", "hsetnx", "lset", "ltrim", "expireat",
}) | STATE_CHANGE_VERBS

#: Verbs whose noun says what comes back: ``fetch_ticker`` / ``lookup_user`` / ``load_config`` /
#: ``extract_info`` / ``describe_cluster`` one record, ``fetch_tickers`` / ``load_workbook`` /
#: ``extract_text`` / ``describe_instances`` (boto3) a collection or a text (``TEXT_NOUNS``);
#: alone (``fetch()``) a collection, ``get(key)`` a value of any size.
NOUN_DECIDES = frozenset({"get", "fetch", "retrieve", "lookup", "load", "extract", "describe"})

#: Words meaning a number or a flag.
SCALAR_WORDS = frozenset({
    "count", "exists", "exist", "is", "has", "len", "length", "total", "num", "number", "size",
    "sum", "avg", "min", "max", "dbsize", "llen", "scard", "zcard", "hlen", "xlen", "strlen",
    "ttl", "pttl", "contains", "can", "should", "estimate", "score", "ok", "success", "succeeded",
})

#: Nouns that name many things though singular in form (``get_news``, ``list_people``,
#: ``fetch_series``): a call named for one of them reads a collection.
MASS_NOUNS = frozenset({"news", "people", "media", "series", "staff", "inventory", "backlog", "corpus"})

#: Methods that, called with no argument, reduce an array or a frame to one number (a number per
#: column for a frame): numpy's and pandas' statistics and ``.item()``, which gives back an
#: array's or a tensor's one element as a Python scalar (numpy ``ndarray.item``, ``torch.Tensor.
#: item``). With arguments they are something else (``zot.item(key)`` reads a record).
REDUCTIONS = frozenset({
    "item", "mean", "median", "std", "var", "stdev", "variance", "sem", "skew", "kurt", "kurtosis",
    "quantile", "percentile", "nunique", "idxmin", "idxmax", "argmin", "argmax", "prod",
})

#: Nouns whose value is open-ended text or a whole structure (even when singular).
TEXT_NOUNS = frozenset({
    "content", "contents", "text", "body", "file", "document", "doc", "page", "transcript",
    "log", "logs", "output", "stdout", "stderr", "diff", "patch", "source", "code", "markdown",
    "html", "readme", "notebook", "graph", "tree", "schema", "ddl", "plan", "dump", "blob",
    "data", "dataframe", "df", "table", "sheet", "workbook", "report", "history", "timeline",
    "feed", "thread", "conversation", "messages", "inbox", "summary", "results", "result",
    "details", "detail", "structure", "outline", "snapshot", "trace", "stacktrace", "traceback",
    "manifest", "yaml", "json", "csv", "xml", "raw", "value", "values", "payload", "response",
    "url", "uri", "webpage", "website", "site", "article", "attachment", "email", "mail", "object",
})

#: Field names that hold a record's open-ended payload, not one of its fixed fields: a field
#: picked by one of these keys (``resp["Item"]``, ``page.get("content")``, ``body["value"]``,
#: the list an Azure or OData API sends) is as large as the record (labelling rule 5).
OPEN_FIELDS = frozenset({
    "content", "contents", "text", "body", "document", "transcript", "log", "logs", "output",
    "stdout", "stderr", "diff", "patch", "source", "code", "markdown", "html", "notebook", "tree",
    "schema", "ddl", "plan", "dump", "blob", "data", "dataframe", "table", "report", "history",
    "timeline", "thread", "conversation", "snapshot", "trace", "stacktrace", "traceback",
    "manifest", "yaml", "json", "csv", "xml", "raw", "payload", "response", "result", "results",
    "value", "values", "item", "items", "record", "records", "entry", "entries", "hits", "rows",
    "documents", "docs", "messages", "files", "objects", "nodes", "children", "events", "lines",
    "pages", "mappings", "properties", "columns", "attachment", "attachments", "article", "description",
    "spans", "frames",  # a trace's spans (OpenTelemetry, Jaeger, Zipkin), a stack trace's frames
})


#: Column names that hold a whole document in one row (``SELECT id, title, body FROM notes``): a
#: note's or page's text, a file's source, a log. Narrower than ``OPEN_FIELDS``: a record's
#: ``description`` or ``summary`` is free text, but one record (labelling rule 5).
DOCUMENT_FIELDS = frozenset({
    "body", "content", "contents", "text", "document", "markdown", "html", "source", "code", "blob",
    "transcript", "log", "logs", "output", "diff", "patch", "raw", "xml", "json", "yaml", "csv", "payload",
})


def document_column(name: str) -> bool:
    """Whether a column name (``body``, ``page_content``, ``ZTEXT`` is not one) holds a whole
    document (``DOCUMENT_FIELDS``, by its last word)."""
    ws = words(name)
    return bool(ws) and ws[-1] in DOCUMENT_FIELDS


def open_field(key: str) -> bool:
    """Whether a field name (``"Item"``, ``"page_content"``, ``"results"``) holds a record's
    open-ended payload (``OPEN_FIELDS``, by its last word) rather than one fixed field."""
    ws = words(key)
    return bool(ws) and ws[-1] in OPEN_FIELDS


#: Singular nouns that end in "s" (not plurals).
_NOT_PLURAL = frozenset({
    "status", "address", "process", "access", "class", "alias", "analysis", "basis", "canvas",
    "bus", "campus", "corpus", "virus", "axis", "news", "series", "species", "settings", "this",
    "is", "has", "was", "does", "its", "stats", "metrics", "details", "progress", "success",
    "business", "bonus", "census", "focus", "radius", "consensus", "express", "less", "loss",
    "boss", "cross", "pass", "miss", "kiss", "mass", "gas", "dns", "aws", "gcs", "os", "ios",
    "sms", "cms", "rss", "ss", "us", "plus",
})

#: Words that name a handle when alone (``client()``, ``session()``) but a subject when followed
#: by more words (``client_list``).
_FACTORY_WORDS = frozenset({"client", "session", "engine", "new", "make", "build", "open", "from", "with"})

#: Words ``call_shape`` reads as the verb of a name.
_VERB_WORDS = COLLECTION_VERBS | RECORD_VERBS | NOUN_DECIDES | _FACTORY_WORDS

def call_verb(word: str) -> bool:
    """Whether ``call_shape`` reads ``word`` as the verb of a name (``list``, ``get``, ``add``,
    ``client``), not as a noun (``chat``, ``reactions``)."""
    return word in _VERB_WORDS or word in SCALAR_WORDS


#: Words of ``RECORD_VERBS`` that join two nouns rather than act on one (``df_to_markdown``,
#: ``user_from_row``).
_PREPOSITIONS = frozenset({"to", "as", "from", "with", "for", "of", "by", "in", "on", "into"})

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def words(name: str) -> list[str]:
    """``getAllUsers`` / ``get_all_users`` / ``GetAllUsers`` → ``["get", "all", "users"]``."""
    out: list[str] = []
    for part in re.split(r"[_\W]+", name):
        if part:
            out.extend(w.lower() for w in _CAMEL.split(part) if w)
    return out


def is_plural(word: str) -> bool:
    """A plural noun by its spelling (``tables``, ``entries``, ``indices``): conservative."""
    if word in _NOT_PLURAL or len(word) < 4:
        return False
    return word.endswith(("s", "ices", "data")) and not word.endswith(("ss", "us", "is", "sis"))


def singular(noun: str) -> str:
    """The singular of a plural noun (``entities`` → ``entity``, ``contacts`` → ``contact``, by
    ``is_plural``); any other word as it is."""
    if noun.endswith("ies") and is_plural(noun):
        return noun[:-3] + "y"
    return noun[:-1] if is_plural(noun) else noun


def scalar_name(name: str) -> bool:
    """Whether an attribute or field name reads as a number or a flag (``max_row``,
    ``total_count``, ``num_pages``, ``is_valid``, ``has_more``): a scalar word first, or a
    count-like word last."""
    ws = words(name)
    if ws in (["rc"], ["returncode"], ["exitcode"]) or (len(ws) == 2 and ws[1] == "code" and ws[0] in _RESULT_CODE_OF):
        return True  # a process's or a request's result code (``exit_code``, ``status_code``)
    return bool(ws) and (ws[0] in SCALAR_WORDS or (len(ws) > 1 and ws[-1] in ("count", "total", "size", "len", "length")))


#: First words of ``…_code`` fields that hold a result code, not source code (``exit_code``).
_RESULT_CODE_OF = frozenset({"exit", "return", "status", "error", "http", "response", "result"})


#: Last words of a field that names, locates or classifies one thing: a short string however
#: large the record holding it (``info["organization_name"]``, ``page.title``, ``item["web_url"]``,
#: ``event.get("created_at")``). A plural (``names``) is a collection, not one of these.
IDENTIFIER_WORDS = frozenset({
    "id", "uid", "uuid", "guid", "slug", "sha", "name", "title", "url", "uri", "href", "link",
    "email", "username", "login", "status", "type", "kind", "version", "timestamp", "date", "time",
    "created", "updated", "modified", "at", "language", "locale", "currency", "symbol", "unit",
    "icon", "color", "colour", "mimetype", "extension", "path", "filename", "phone", "ip", "host",
    "hostname", "port", "region", "zone", "role",
})


#: Endings of a closed compound word that names or locates one thing (``permalink``,
#: ``hostname``, ``sitename``, ``baseurl``, ``filepath``).
_IDENTIFIER_ENDINGS = ("name", "link", "url", "uri", "path")


def identifier_name(name: str) -> bool:
    """Whether a field or attribute name reads as one identifier, name, link, label or time of a
    record (``IDENTIFIER_WORDS``, by its last word, or a compound ending in a name or a link, or
    the time of a first or last event: ``last_checked``, ``first_seen``, ``last_run``):
    ``display_name``, ``web_url``, ``created_at``, ``permalink``, ``sitename``."""
    ws = words(name)
    if not ws:
        return False
    last = ws[-1]
    if len(ws) == 2 and ws[0] in ("first", "last") and (last.endswith("ed") or last in ("seen", "run", "login")):
        return True
    return last in IDENTIFIER_WORDS or (len(last) > 5 and last.endswith(_IDENTIFIER_ENDINGS))


#: Last words of a name that holds data the code works on, never a client or a handle
#: (``dataframe``, ``rows``, ``payload``): what a method of such a value gives back is that data
#: reshaped (pandas ``df.reset_index()``, ``rows.sort()``), not a call to a service. Handles that
#: read as data (``result`` of SQLAlchemy, ``response``, ``file``, ``page``) are not here.
DATA_NAMES = frozenset({
    "data", "dataframe", "df", "frame", "table", "rows", "records", "items", "entries", "values",
    "series", "array", "matrix", "content", "contents", "text", "payload", "hits", "lines",
})


def data_name(name: str) -> bool:
    """Whether a variable or parameter named ``name`` holds data, by its last word
    (``DATA_NAMES``): ``price_df``, ``raw_rows``, ``dataframe``."""
    ws = words(name)
    return bool(ws) and ws[-1] in DATA_NAMES


def small_field(name: str) -> bool:
    """Whether a field picked by ``name`` is a small value of the record, not its data: a
    number or a flag (``scalar_name``) or an identifier (``identifier_name``)."""
    return scalar_name(name) or identifier_name(name)


#: Plural nouns of things an instance is configured with, not data it accumulates: workflow
#: transitions, running kernels, the languages of a video's tracks (labelling rule 6: "text
#: fixed by the platform rather than the user's data volume"). ``types``/``kinds`` only with a
#: qualifier (``get_issue_link_types``, ``work_item_types``); a bare ``list_types`` may be a
#: schema's every type.
CONFIGURATION_NOUNS = frozenset({"transitions", "kernels", "languages", "locales"})


#: Qualifiers of ``…_types`` that name the parts of a schema or a graph: the types of every field
#: of an index, of every column, of every node label are the schema itself (labelling rule 5), as
#: large as the user's data model, not a configured handful.
_SCHEMA_PARTS = frozenset({"field", "fields", "column", "columns", "property", "properties", "attribute",
                           "attributes", "node", "nodes", "relationship", "relationships", "edge", "edges",
                           "label", "labels", "entity", "entities", "data", "object", "objects", "table",
                           "tables", "record", "records", "value", "values", "document", "documents"})


#: Words of a name that holds the server's configuration, not data (``CONFIG = json.load(open(
#: path))``, ``settings = yaml.safe_load(f)``, ``def load_config()``): ``module_data`` and
#: ``FollowedCalls.call_helper``.
CONFIG_WORDS = frozenset({"config", "configs", "configuration", "conf", "cfg", "settings", "setting", "options",
                          "opts", "env", "environ", "args", "argv", "credentials", "secrets", "prefs",
                          "preferences"})


def configuration_collection(name: str) -> bool:
    """Whether a call named ``name`` reads a collection whose size the platform's configuration
    sets (``CONFIGURATION_NOUNS``, or qualified ``…_types``/``…_kinds`` after a verb, unless the
    qualifier is a part of a schema, ``get_field_types``): ``get_available_transitions``,
    ``list_kernels``, ``get_issue_link_types``, ``_get_available_languages``."""
    ws = words(name)
    if not ws:
        return False
    return ws[-1] in CONFIGURATION_NOUNS or (len(ws) >= 3 and ws[-1] in ("types", "kinds")
                                             and ws[-2] not in _SCHEMA_PARTS)


#: Last words of a class that holds the process's configuration (``KafkaConfig``, ``Settings``,
#: ``ServerConfiguration``, ``AppOptions``): what the operator set up in the environment, on the
#: command line or in a config file, read once at start-up.
_CONFIGURATION_CLASS_WORDS = frozenset({"config", "configuration", "settings", "options", "preferences"})


def configuration_object(family: str | None) -> bool:
    """Whether an object made by the class ``family`` (a qualified name) is the process's
    configuration (``_CONFIGURATION_CLASS_WORDS``, by the class name's last word: ``KafkaConfig``,
    ``AppSettings``): its fields (connection profiles, allowed directories) are a handful the
    operator wrote, not data the server reads."""
    if not family:
        return False
    cls = family.rsplit(".", 1)[-1]
    ws = words(cls)
    return bool(ws) and cls[:1].isupper() and ws[-1] in _CONFIGURATION_CLASS_WORDS


#: Words of a call that makes or reads a credential (``Auth.api_key(k)``, ``get_access_token()``,
#: ``load_credentials()``, ``get_secret_value()``): a short string or a handle, never data. The
#: plurals (``list_tokens``, ``list_secrets``) are collections and not here.
_CREDENTIAL_WORDS = frozenset({"apikey", "token", "secret", "password", "credential", "credentials"})


def credential_class(name: str) -> bool:
    """Whether the CapWords class ``name`` is one of credentials, by its last word
    (``Credentials``, ``OAuth2Credentials``, ``DefaultAzureCredential``, ``AccessToken``; not a
    ``TokenCounter``, whose tokens are text's): what it is made of (a
    stored token file, a key) is a secret the library signs requests with, never data a tool
    returns."""
    ws = words(name)
    return name[:1].isupper() and bool(ws) and ws[-1] in _CREDENTIAL_WORDS


#: Prepositions after which a call's name gives the key its result is looked up by
#: (``get_users_by_role``, ``get_windows_with_title``), not what it returns.
_QUALIFIERS = frozenset({"by", "with", "for", "from", "in", "of", "matching", "containing", "since", "within"})


def call_shape(name: str) -> Shape:
    """The shape of the result of a call named ``name`` whose code tokenlint cannot see.

    ``name`` is the last segment of the callee (``list_containers``, ``hgetall``, ``Client``).
    Constructors (a CapWords name) are RECORD (a handle). Order of evidence: scalar words
    anywhere first (``count_rows``, ``is_ready``) and credentials (``api_key``, ``get_token``),
    then the first word as a verb, then the nouns
    (a plural or a text noun makes a ``get_…``/unknown verb a collection, a singular noun after
    ``get``/``describe_one`` a record).
    """
    if not name:
        return Shape.UNKNOWN
    if name[0].isupper() and not name.isupper():
        return Shape.RECORD  # a constructor: Client(...), Ticker(...), Path(...)
    ws = words(name)
    if not ws:
        return Shape.UNKNOWN
    if ws[0] in SCALAR_WORDS or (len(ws) > 1 and ws[-1] in ("count", "exists", "total", "size", "len")):
        return Shape.SCALAR
    if _CREDENTIAL_WORDS & set(ws) or ws[-2:] == ["api", "key"]:
        # ``Auth.api_key(key)``, ``get_access_token()``, pydantic's ``SecretStr.get_secret_value()``:
        # a credential, not data
        return Shape.SCALAR
    cut = next((i for i, w in enumerate(ws) if i >= 2 and w in _QUALIFIERS), None)
    if cut is not None and (is_plural(ws[cut - 1]) or ws[cut - 1] in MASS_NOUNS):
        # ``get_users_by_role``, ``get_messages_by_thread``, ``getWindowsWithTitle``,
        # ``get_items_for_project``: the plural before the preposition is what comes back, the
        # words after it name the key it is looked up by (a singular before it,
        # ``get_page_by_id``, is one record as before: its key says nothing of its size)
        ws = ws[:cut]
    verb, nouns = ws[0], ws[1:]
    if "_".join(ws[:2]) in COLLECTION_VERBS or "_".join(ws[:2]) in RECORD_VERBS:
        verb, nouns = "_".join(ws[:2]), ws[2:]
    if verb in _FACTORY_WORDS and nouns:
        first = verb
        verb, nouns = nouns[0], nouns[1:]  # ``client_list``, ``session_history``: the rest decides
        if verb in COLLECTION_VERBS or is_plural(verb) or verb in TEXT_NOUNS:
            return Shape.COLLECTION
        if first in RECORD_VERBS and verb not in RECORD_VERBS and verb not in NOUN_DECIDES:
            return Shape.RECORD  # ``build_job``, ``open_ticket``: the verb acts on one thing
    if verb in _LOCATOR_MAKERS and nouns and nouns[-1] in _LOCATOR_WORDS:
        return Shape.SCALAR  # ``generate_presigned_url(...)``: one short string, not a page
    if verb in ("to", "as", "convert", "export") and nouns and nouns[-1] in TEXT_NOUNS:
        return Shape.COLLECTION  # ``to_markdown(path)``, ``convert_to_html(doc)``: a whole text
    if verb in RECORD_VERBS and verb not in ("info", "status", "config", "settings"):
        return Shape.RECORD
    if verb in COLLECTION_VERBS and not (verb in NOUN_DECIDES and nouns):
        return Shape.COLLECTION
    if verb in NOUN_DECIDES or verb in ("fetch_one", "retrieve_one", "describe_one", "show_one", "read_one", "one"):
        if not nouns:
            return Shape.UNKNOWN  # bare get(key): a value of any size
        if any(n in ("all", "many", "every", "list") for n in nouns):
            return Shape.COLLECTION
        last = nouns[-1]
        if is_plural(last) or last in TEXT_NOUNS or last in MASS_NOUNS:
            return Shape.COLLECTION
        if last in _BATCH_WORDS and any(is_plural(n) for n in nouns[:-1]):
            return Shape.COLLECTION  # ``get_dag_runs_batch``, ``fetch_users_page``: many of them
        return Shape.RECORD
    if verb in ("info", "status", "config", "settings"):
        return Shape.RECORD
    if len(ws) > 1 and verb not in _VERB_WORDS and ws[1] in _VERB_WORDS and ws[1] not in _PREPOSITIONS:
        # a resource then a verb, as the Slack Web API names its methods (``chat.postMessage`` is
        # ``chat_postMessage``, ``conversations_list``, ``reactions_add``, ``users_info``): the
        # verb acts on the resource the first word names
        return call_shape("_".join([*ws[1:], ws[0]]))
    if len(ws) > 1 and not any(call_verb(w) for w in ws[:-1]) and ws[-1] in _VERB_WORDS - _FACTORY_WORDS:
        # nouns then the verb, as toolkits that prefix every function with their product and
        # resource name it (``box_file_text_extract``, ``box_docgen_template_list``,
        # ``user_info``): the verb acts on the nouns before it
        return call_shape("_".join([ws[-1], *ws[:-1]]))
    # no verb we know: the nouns decide
    last = ws[-1]
    if is_plural(last) or last in TEXT_NOUNS or last in MASS_NOUNS or verb in TEXT_NOUNS:
        return Shape.COLLECTION
    return Shape.UNKNOWN


#: Last words that make the plural before them a batch of its items (``get_dag_runs_batch``,
#: ``fetch_users_page``, ``get_records_bulk``), not one record.
_BATCH_WORDS = frozenset({"batch", "bulk", "page", "chunk", "set", "list", "collection"})

#: Last words of a call that makes one locator or identifier (``generate_presigned_url``,
#: ``generate_request_id``): a short string whatever the data. (``url`` alone is a text noun:
#: ``fetch_url`` reads a page.)
_LOCATOR_WORDS = frozenset({"url", "uri", "href", "link", "permalink", "id", "uuid", "guid", "slug"})

#: First words of a call that makes a locator rather than reading what it locates.
_LOCATOR_MAKERS = frozenset({"generate", "gen", "presign", "sign", "shorten"})
