"""The abstract values of the response analysis.

Each expression of a tool evaluates to a *flow*: a frozenset of taints saying what it may hold.

- ``Src``: data that grows with external data (a query result, a file, a listing, process
  output, an HTTP body), with the rule code of its kind and the strongest ``Bound`` applied to it
  on the way (a slice, ``LIMIT``, ``fetchmany(n)``).
- ``Marker``: a handle that becomes a source when read (an open file, an HTTP response or client,
  a DB cursor or connection, a subprocess, a paginator), or an ``object`` made by code tokenlint
  cannot see (an SDK client, one record it returned) whose methods fetch more.
- ``Param``: a value the model supplies (a tool parameter or ``arguments["k"]``), with what is
  known of its default and enforced maximum; used to judge caller-supplied limits.
- ``Measure``: the size of some sources (``len(text)``, ``count_tokens(rows)``); a comparison of a
  measure against a budget is a size check. A measure is a number: it never carries the data.

``Site`` wraps a CST node and its module so findings can be positioned later; sites are interned
per node so the same node always gives the same (hashable) site.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import FrozenSet, Union

import libcst as cst


@dataclass(frozen=True, eq=False)
class Site:
    """A node in a module (compared by identity)."""

    module: object = field(repr=False)  # ParsedModule (untyped: avoids an import cycle)
    node: cst.CSTNode = field(repr=False)


@dataclass(frozen=True)
class Bound:
    """A cap on a source: ``fixed`` (an int, chars or items), or a ``param`` the model supplies.

    ``clamp`` is the enforced maximum of that parameter when one is known (``min(limit, 100)``,
    ``Field(le=100)``); ``default_none`` is True when the parameter's default returns everything.
    ``tokens`` marks a bound enforced against a token budget (the runtime's ``fit_response``).
    ``sql_param`` alone is no bound yet: the caller's SQL text decides (see ``call_helper``); nor
    is ``ids_param``: the caller's list decides.
    """

    site: Site
    fixed: int | None = None
    param: str | None = None
    clamp: int | None = None
    default_none: bool = False
    param_site: Site | None = None
    tokens: bool = False
    #: In a helper that runs SQL it was given (``def run_query(query): cur.execute(query)``): the
    #: parameter holding the text, so each caller applies the bound of the SQL it passes. For a
    #: request, the parameter(s) holding the dict it sends, comma-separated when the helper sends
    #: whichever it is given (``json_body=`` or ``data=``: ``FollowedCalls.given_parameter``).
    sql_param: str | None = None
    #: In a helper that runs the command line it was given (``def run(command):
    #: subprocess.run(shlex.split(command), capture_output=True)``): the parameter holding it, so
    #: each caller's command decides (a usage text, ``kubectl get --help``, is the program's own:
    #: ``catalogue.help_command``). Alone it is no bound, as ``sql_param``.
    command_param: str | None = None
    #: The remote API pages the result itself: the call passes a page cursor it was given
    #: (``external.cursor_bound``), so one response is one page of the API's own size, unseen
    #: here (labelling rule 8: an upstream cap counts as a fixed count).
    upstream: bool = False
    #: In a helper that fetches one record per element of a list it was given (``ids=",".join(ids)``,
    #: ``WHERE name IN ({names})``, ``max_results=len(ids)``): the parameter holding the list, so
    #: each caller applies the bound of the list it passes (``FollowedCalls._from_helper``).
    ids_param: str | None = None
    #: In a helper that reads the body of a response it was given (``def _handle(response):
    #: return response.json()``): the parameter holding the response, so each caller's response
    #: decides what the body is (the page size its request asked for, a write's
    #: acknowledgement, one resource: ``FollowedCalls._from_helper``).
    response_param: str | None = None
    #: The cut takes everything when the limit is unset (``end = len(text) if n is None else
    #: min(len(text), n)``): unbounded by default unless the parameter has a default of its own.
    unset_all: bool = False
    #: The platform's configuration sizes the collection (``shapes.configuration_collection``:
    #: an issue's workflow transitions, a video's caption languages, running kernels, qualified
    #: ``…_types``): a handful, fixed by how the instance is set up rather than by the user's
    #: data volume (labelling rule 6), so it is no data in the response (NONE on its own).
    configured: bool = False
    #: In a helper: the limit parameter is given a value of the server's when unset (``limit =
    #: settings.page_size if limit is None else limit``), so a caller passing its own
    #: None-defaulting parameter does not make the cut take everything.
    filled: bool = False

    @property
    def enforced(self) -> bool:
        """True when the cap holds whatever the model passes: a fixed number (``fixed``; -1 for a
        named setting whose value tokenlint cannot read, ``MAX_ROWS`` from a config module), a clamp
        on the parameter, or a token budget (``tokens``)."""
        return self.fixed is not None or self.clamp is not None or self.tokens or self.upstream or self.configured

    @property
    def value(self) -> int | None:
        """The cap as a number, ``fixed`` else the parameter's ``clamp``; None when neither is
        known, -1 when enforced at a value unknown. Its unit is the source's: characters for text (a
        file, process output, an HTTP body), items (rows, entries, lines) otherwise
        (``facts._classify`` reads any value above 5,000 as characters unless the parameter's name
        counts items)."""
        return self.fixed if self.fixed is not None else self.clamp

    def rank(self) -> int:
        """Higher is stronger: enforced > caller limit with a default > caller limit defaulting to all."""
        if self.enforced:
            return 3
        if self.param and not self.default_none:
            return 2
        return 1


@dataclass(frozen=True)
class Src:
    """Data that grows with external data. ``code``: the rule reporting it unbounded (TL101-TL106,
    TL108); ``site``: where it is read; ``what``: its description in messages (``.fetchall()``);
    ``bound``: the strongest cap applied to it on its way to the response (None: no cap yet)."""
    code: str
    site: Site
    what: str
    bound: Bound | None = None
    #: The body a ``POST`` sent back, read where nothing says whether that POST writes (a helper
    #: not named for a write: POST also searches): a tool named for a write gets the entity it
    #: created (labelling rule 6: an echo), any other tool the data (``facts.analyse_tool``).
    posted: bool = False

    def with_bound(self, bound: Bound) -> Src:
        """This source capped by ``bound``, unless the bound it already has ranks as high or higher
        (``Bound.rank``): applying a cap never weakens one."""
        if self.bound is not None and self.bound.rank() >= bound.rank():
            return self
        if self.bound is not None and self.bound.command_param and not bound.command_param:
            # (the output of a caller's command, cut: still that command's, for it to decide)
            bound = replace(bound, command_param=self.bound.command_param)
        return replace(self, bound=bound)


@dataclass(frozen=True)
class Marker:
    """A handle that becomes a source when read, made at ``site``. ``kind`` (see the comment on it,
    plus ``http_ack``: the response of an HTTP write, whose body is one record) says which reads
    drain it; ``sql_bound`` is the cap its query text puts on what it yields (for a ``whole``
    object: a cap applied to the record); ``capture`` is False for a subprocess whose output is a
    stream read later (``Popen``, ``create_subprocess_exec``) rather than text
    (``subprocess.run``)."""
    kind: str  # file, http_response, http_client, cursor, db, process, paginator, line_iter, query, object, registry
    site: Site
    sql_bound: Bound | None = None
    capture: bool = True
    #: For ``object`` (a client, a record or any handle made by code tokenlint cannot see): the
    #: qualified name of the constructor or factory that made it (``redis.Redis``), if known.
    family: str | None = None
    #: For ``object``: one whole record a read of unreadable code returned (``get_build_info()``),
    #: not a field picked from it nor an acknowledgement of a write. For ``http_response``: the
    #: request named one resource (``external.record_path``).
    whole: bool = False
    #: For a ``whole`` ``http_response``: that resource is an entity with fixed fields
    #: (``external.fixed_record``: ``GET /datasources/{id}``), so its JSON body is one small record.
    #: For an ``object``: the record a write sent back (``external.ack_of_write``), whose
    #: ``.get("field")`` is one of its fields.
    fixed: bool = False
    #: For a ``whole`` object: the rule that reports it reaching a response (TL105 for the JSON
    #: body of one resource, ``external.record_path``).
    rule: str = "TL108"
    #: For ``http_response`` in a helper: the parameter holding the URL requested
    #: (``def _get(client, url): return await client.get(url)``); each caller's URL says whether
    #: it names one resource (``FollowedCalls._from_helper``).
    url_param: str | None = None
    #: For the records a request named by identifiers (``external.ID_RECORDS_FAMILY``) and the
    #: response they come from: the helper's parameters that held those identifiers, for each
    #: caller to show they are its own (``FollowedCalls._from_helper``); empty once they are.
    #: For a ``registry``: ``("keyed",)`` when its entries are stored under keys (a dict).
    keys: tuple[str, ...] = ()
    #: For ``http_response``: the request was a ``POST`` (``Src.posted``).
    posted: bool = False
    #: For a ``cursor`` and the one row fetched from it (an ``object``): the columns its
    #: ``SELECT`` names, in order (``catalogue.selected_columns``), so ``row[2]`` is ``body``.
    columns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Param:
    """A value the model supplies: a tool parameter or a low-level ``arguments["k"]`` (``site``: its
    declaration), or in a helper being summarised a placeholder for what each caller passes
    (``site`` None). ``default_none``: its default returns everything (None); ``has_default``: it
    has a default; ``clamp``: its enforced maximum when known (``Field(le=100)``,
    ``min(limit, 100)``), in the unit of what it limits (items or characters)."""
    name: str
    site: Site | None
    default_none: bool = False
    has_default: bool = False
    clamp: int | None = None
    #: In a helper: a field or attribute of the parameter, not the whole value passed in.
    part: bool = False
    #: In a helper: read from the parameter's open-ended payload field (``event.get("entries")``,
    #: ``shapes.OPEN_FIELDS``) or its items; a caller passing one record gives its payload.
    payload: bool = False
    #: In a helper: the items of a field of the parameter, iterated (``for p in raw.get(
    #: "partitions", [])``): a collection the record holds; a caller passing one whole record
    #: (``describe_topics([name])[0]``) gives that collection, as large as the service made it.
    items: bool = False
    #: In a helper: a cap applied to what the parameter holds (``for a in results: ... if n > 10:
    #: break``); each caller applies it to what it passes.
    cap: Bound | None = None
    #: In a helper: a number, flag or digest made of the parameter (``int(n)``,
    #: ``sha256(text.encode()).hexdigest()``), not the value itself: each caller gets the scalar
    #: of what it passes (its own limits still bound; a file it passes is not returned).
    scalar: bool = False
    #: In a helper: one element of what the parameter holds, the first match a loop over it
    #: returns (``for root in roots: if ...: return root``); each caller gets one element of
    #: what it passes, not all of it.
    element: bool = False
    #: In a helper: each element of what the parameter holds, as a loop over the parameter itself
    #: gives it (``for tag in tags``, ``[t.title for t in tags]``): a small field of it is small
    #: per element, not for the whole, so each caller still gets as many as it passes.
    each: bool = False
    #: In a helper: with ``part``, a field picked by a singular key naming one nested record or
    #: value (``external.record_key``: ``raw.get("classifier")``, ``raw["owner"]``), not a
    #: listing: a caller passing a whole JSON body gets one record of it, as the tool picking the
    #: same key would (``external.field_of_body``).
    record: bool = False
    #: In a helper: what calling the parameter returns (``items = method(**kwargs)``). Each caller
    #: passing a method of code tokenlint cannot read (``client.api.traces.list``, one taken with
    #: ``getattr(ns, "get_many")``), or an object of it, gets a call of that method, judged by its
    #: name (``FollowedCalls._called_with``); a caller passing a lambda or a function of the run
    #: gets what it returns, as before.
    called: bool = False
    #: With ``called``: the name of the method the parameter was given, when a caller between
    #: knew it from its own argument (``method_name``), for the callers above it.
    method: str | None = None


#: The name of the placeholder ``Param`` for what a decorated helper returns, inside the wrapper
#: its decorator puts around it (``raw = await func(*args, **kwargs)``): each call of the decorated
#: helper fills it in with the helper's own result.
WRAPPED = "<wrapped>"

#: The name of the placeholder ``Param`` for the data an object holds, inside a method of its
#: class summarised for a call on an object made from data (``Notebook(**model["content"])
#: .format_output(limit=n)``): each ``self.<field>`` the method reads is that data, and each call
#: fills it in with what its receiver was made of, cut as the method cuts it
#: (``self.cells[start:start + limit]``).
SELF_DATA = "<self>"


@dataclass(frozen=True)
class Measure:
    """A number that measures data: the length (``len``) or, with ``tokens``, the token count of the
    sources at ``sites``. A measure compared with a budget is a size check
    (``interpreter.SizeCheck``); it never carries the data itself."""
    sites: FrozenSet[Site]
    tokens: bool = False
    #: In a helper: the parameters whose data was measured (``len(result)``); each caller
    #: turns them into the sites of what it passes.
    params: FrozenSet[str] = frozenset()


Taint = Union[Src, Marker, Param, Measure]
Flow = FrozenSet[Taint]
EMPTY: Flow = frozenset()


def union(*flows: Flow) -> Flow:
    """One flow holding every taint of ``flows`` (EMPTY when given none)."""
    out: set = set()
    for f in flows:
        out |= f
    return frozenset(out)


def site_key(site: Site | None) -> tuple[str, int]:
    """A run-independent order of sites: module name, then the node's place in source order
    (flows are sets, whose iteration order follows ``hash``, which varies between processes)."""
    if site is None:
        return ("", -1)
    module = site.module
    return (getattr(module, "module_name", ""), module.source_order(site.node) if hasattr(module, "source_order") else -1)


def sources(flow: Flow) -> list[Src]:
    """The sources of ``flow`` in a run-independent order (rule code, then site)."""
    return sorted((t for t in flow if isinstance(t, Src)), key=lambda t: (t.code, site_key(t.site), t.what))


def params(flow: Flow) -> list[Param]:
    """The parameters of ``flow`` in a run-independent order (by name, then what is known)."""
    return sorted((t for t in flow if isinstance(t, Param)),
                  key=lambda t: (t.name, t.part, t.site is not None, site_key(t.site), -1 if t.clamp is None else t.clamp,
                                 t.default_none, t.has_default))


def markers(flow: Flow, *kinds: str) -> list[Marker]:
    """The markers of ``flow`` (of ``kinds``, if given) in a run-independent order."""
    return sorted((t for t in flow if isinstance(t, Marker) and (not kinds or t.kind in kinds)),
                  key=lambda t: (t.kind, t.family or "", site_key(t.site), t.whole, t.rule))


def apply_bound(flow: Flow, bound: Bound) -> Flow:
    """Cap every source in ``flow``, what a helper's parameters hold (``Param.cap``) and a whole
    record read from unreadable code (``Marker.whole``: its TL108 source carries the cap); other
    markers and the tool's own parameters pass unchanged."""
    def cap(t: Taint) -> Taint:
        if isinstance(t, Src):
            return t.with_bound(bound)
        if isinstance(t, Marker) and t.whole and (t.sql_bound is None or bound.rank() > t.sql_bound.rank()):
            return replace(t, sql_bound=bound)
        if isinstance(t, Param) and t.site is None and (t.cap is None or bound.rank() > t.cap.rank()):
            return replace(t, cap=bound)
        return t
    return frozenset(cap(t) for t in flow)


def measure_of(flow: Flow, tokens: bool = False) -> Flow:
    """``len(x)``: a number that remembers which sources it measured (and, in a helper, which
    of its parameters); the model's own arguments pass through (an echo), but a helper's
    parameter does not: its length is a number, not the data each caller passes."""
    srcs = frozenset(t.site for t in flow if isinstance(t, Src) or (isinstance(t, Marker) and t.whole))
    srcs |= frozenset(s for t in flow if isinstance(t, Measure) for s in t.sites)
    # (a field of a parameter, ``len(entry.get("diff"))``, measures that field, not the parameter)
    names = frozenset(t.name for t in flow if isinstance(t, Param) and t.site is None and not t.part)
    names |= frozenset(n for t in flow if isinstance(t, Measure) for n in t.params)
    out: set = {t for t in flow if isinstance(t, Param) and t.site is not None}
    if srcs or names:
        out.add(Measure(srcs, tokens, names))
    return frozenset(out)


def scalar_of(flow: Flow, whole_value: bool = False) -> Flow:
    """``int(x)``, ``bool(x)``, ``h.hexdigest()``: a scalar; keeps params (no longer a payload)
    and measures, drops data. With ``whole_value`` (a number or digest of the value itself, not of
    one element of a loop nor a field picked from it), a helper's placeholder is marked
    ``scalar``: each caller gets the scalar of what it passes, not the data."""
    def keep(t: Taint) -> Taint:
        if isinstance(t, Param) and t.payload:
            t = replace(t, payload=False)
        if whole_value and isinstance(t, Param) and t.site is None:
            t = replace(t, scalar=True)
        return t
    return frozenset(keep(t) for t in flow if isinstance(t, (Param, Measure)))
