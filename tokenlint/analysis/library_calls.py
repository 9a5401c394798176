"""Calls of libraries tokenlint knows by their method names: DB-API cursors and their
``execute``/``fetchall``/``fetchmany``, SQLAlchemy and Mongo query builders, files and paths,
subprocesses, HTTP responses and clients, GitPython, paginators, accumulators.

The tables these read are in ``tokenlint.analysis.catalogue``; this module is how a call of one
of them changes a value.
"""

from __future__ import annotations

import re
from dataclasses import replace

import libcst as cst

from tokenlint.analysis import catalogue as cat
from tokenlint.analysis import graphql
from tokenlint.analysis.constants import keyword_arg, string_literal
from tokenlint.analysis.external import (EXCEPTION_FAMILY, ID_RECORDS_FAMILY, ID_WORDS, QUERY_KEYWORDS, body_of_json,
                                         http_body_bound)
from tokenlint.analysis.shapes import Shape, document_column, words
from tokenlint.analysis.state import InterpreterState, SqlBound
from tokenlint.analysis.taints import (EMPTY, Bound, Flow, Marker, Param, Site, Src, apply_bound, markers, params,
                                       scalar_of, sources, union)
from tokenlint.analysis.values import (ACCUMULATORS, VALUE_METHODS, chain_root, client_like, file_like, is_arguments_name, is_collection_src,
                                       one_element)
from tokenlint.source.imports import dotted_name


#: Top-level packages of HTTP clients (a ``client.get(url)`` of theirs returns a response).
_HTTP_LIBRARIES = frozenset({"httpx", "requests", "aiohttp", "urllib3", "httplib2", "niquests"})


class LibraryCalls(InterpreterState):
    """Mixin of ``FunctionInterpreter``: method calls of known libraries."""

    def method_call(self, node: cst.Call, method: str, recv: Flow, site: Site, dn: str | None) -> Flow | None:
        """The flow of ``<receiver>.method(...)`` when ``method`` is one of a library tokenlint
        knows (DB-API ``execute``/``fetchall``/``fetchmany``, SQL runners, ``read_text``,
        ``iterdir``, ``read``, an HTTP response's ``json()``/``text()``, a client's
        ``get``/``post``, accumulators such as ``append``, ORM and Mongo query builders, paginators,
        ``head(n)``, scalar methods), given ``recv`` (the receiver's flow) and ``site`` (the
        call's); ``dn``, the callee's dotted name, is not read. None when it is none of these: the
        caller goes on to helpers and external code."""
        args = node.args
        recv_name = dotted_name(node.func.value) if isinstance(node.func, cst.Attribute) else None

        if self.args_style == "mapping" and method == "get" and args and is_arguments_name(recv_name):
            key = string_literal(args[0].value)
            if key is not None:
                default = args[1].value if len(args) > 1 else None
                return self.mapping_param(key, default, node)

        if method in ("items", "values", "keys", "copy") and not args and markers(recv, "registry"):
            # a session registry's keys are nothing of data (as many as the model's calls
            # stored); its entries are (``values.registry_element``)
            rest = frozenset(t for t in recv if not (isinstance(t, Marker) and t.kind == "registry"))
            if method == "keys":
                return rest
            return rest | frozenset(replace(m, keys=()) if method != "copy" else m for m in markers(recv, "registry"))
        if recv_name is not None and recv_name.split(".")[-1] == "git" and method not in cat.SCALAR_METHODS \
                and recv_name not in self.mod.imports.names:
            # (``git.Repo(path)`` on the imported ``git`` module makes a repository, runs nothing)
            # GitPython: ``repo.git.log(...)`` runs the git command and returns its whole stdout
            self._args_flow(node)
            return frozenset({Src("TL104", site, f"git {method} output (GitPython)")})
        if method in SQL_RUNNERS and args:
            first: cst.BaseExpression | str  # (in the ``query`` branch below: a name's last part)
            first = args[0].value
            text = self.string_value(first)
            argflow = self._args_flow(node)
            user_sql = text is None and any(p.name.lower() in ("query", "sql", "statement") for p in params(self.expr(first)))
            if (text is not None and cat.looks_like_sql(text)) or user_sql:
                # (a helper's own query parameter: each caller's SQL decides, see ``sql_bound``)
                if text is not None and cat.CYPHER_UNWOUND_WRITE.match(text):
                    return EMPTY  # (one row per element of the caller's own list: an echo)
                bound = self.sql_bound(first, argflow, site)
                if bound == "aggregate":
                    return EMPTY
                return frozenset({Src("TL101", site, f".{method}(){cat.gathered_note(text)}", bound)})
        if method in ("read_text", "read_bytes") and \
                isinstance(node.func, cst.Attribute) and self.a.packaged_file(self.mod, self.fn, node.func.value):
            # ``(Path(__file__).parent / "skills" / "intro.md").read_text()``: shipped with the
            # code, its authors' text (``packaged``; labelling rule 6)
            self._args_flow(node)
            return EMPTY
        if method in ("read_text", "read_bytes"):
            return frozenset({Src("TL102", site, f".{method}()")})
        if method in ("iterdir", "rglob") or (method in ("glob", "walk") and not markers(recv)):
            self._args_flow(node)
            return frozenset({Src("TL103", site, f".{method}()")})
        if method == "readlines":
            code = "TL104" if markers(recv, "process") else "TL102"
            return frozenset({Src(code, site, ".readlines()")})
        if markers(recv, "archive"):  # ``zipfile.ZipFile(p)``, ``tarfile.open(p)``
            self._args_flow(node)
            if method in ("open", "extractfile"):
                return frozenset({Marker("file", site)})  # one member, read as a file
            if method == "read":
                return frozenset({Src("TL102", site, "an archive member's .read()")})
            if method in ("namelist", "infolist", "getnames", "getmembers"):
                return frozenset({Src("TL103", site, f"an archive's .{method}()")})
        if method == "read":
            kinds = {m.kind for m in markers(recv)}
            if kinds & {"file", "http_response", "process"} or not recv:
                code = "TL105" if "http_response" in kinds else "TL104" if "process" in kinds else "TL102"
                if not kinds and not file_like(recv_name):
                    return None
                bound = self.bound_from(args[0].value, node) if args else None
                if bound is not None and bound.fixed == -1 and isinstance(args[0].value, cst.UnaryOperation):
                    bound = None
                src = Src(code, site, ".read()", http_body_bound(recv))
                return frozenset({src.with_bound(bound) if bound else src})
        if method == "communicate":
            return frozenset({Src("TL104", site, ".communicate()", command_bound(recv))})
        if method in ("json",) and not args:
            if self.helper and not markers(recv) and (
                    held := sorted(t.name for t in recv if isinstance(t, Param) and t.site is None)):
                # ``def _handle(self, response): return response.json()``: the body of the
                # response each caller passes (``FollowedCalls._from_helper``)
                return frozenset({Src("TL105", site, "HTTP response .json()", Bound(site, response_param=held[0]))})
            if not recv and isinstance(node.func, cst.Attribute) and chain_root(node.func.value) in self.exception_names:
                # ``except HTTPError as e: e.response.json()``: the API's error object
                return frozenset({Marker("object", site, fixed=True, family=EXCEPTION_FAMILY)})
            return body_of_json(recv, site)
        if method in ("text",) and markers(recv, "http_response"):
            return frozenset({Src("TL105", site, "HTTP response .text()", http_body_bound(recv))})
        if method in ("iter_lines", "iter_content", "aiter_lines", "aiter_bytes", "iter_text"):
            return frozenset({Marker("line_iter", site)})
        families = [m.family for m in markers(recv, "object") if m.family]
        other_sdk = bool(families) and not any(f.split(".")[0] in _HTTP_LIBRARIES for f in families)
        if method in cat.HTTP_METHODS and (markers(recv, "http_client") or (client_like(recv_name) and not other_sdk)):
            # (``client.get(key)`` on a pymemcache or redis client is the store's get, not HTTP)
            return self.request_response(node, site)
        if method in ACCUMULATORS and isinstance(node.func, cst.Attribute) and \
                (recv_name is not None or isinstance(node.func.value, cst.Subscript)):
            # ``rows.append(r)``, ``by_kind[k].append(v)`` (into ``by_kind``)
            if method == "append" and recv_name in self.string_items and len(node.args) == 1:
                text = self.string_value(node.args[0].value)  # (a query built line by line)
                self.string_items[recv_name] = [*self.string_items[recv_name], text if text is not None else "{expr}"]
            if recv_name in self.built_records and not (
                    method in ("append", "insert") and node.args and isinstance(node.args[-1].value, cst.Dict)):
                self.built_records.discard(recv_name)  # (something else than a record written out)
            flow = self._args_flow(node)
            models = self._model_objects(flow)  # (objects of the run's data classes: a list of them)
            # (a record of a batch read by identifiers, or one read by its own identifier, or
            # their payload, is data: ``out.append({"blurb": book.get("description")})``,
            # ``out.append(Comment(text=child.text))`` of ``child = await get_item(kid_id)``)
            kept = frozenset(t for t in flow if not isinstance(t, Marker) or t in models or (
                t.whole and (t.family == ID_RECORDS_FAMILY or t.sql_bound is not None)))
            put = node.args[-1].value if method in ("append", "insert") and node.args else None
            if self.accumulate(node.func.value, kept, put) is not None:
                return EMPTY
        if method == "fetchall":
            bound = None
            curs = markers(recv, "cursor")
            if curs:
                bound = curs[0].sql_bound
            if bound is None and recv_name in self.sql_of:
                bound = self.sql_of[recv_name]  # ``cur = conn.cursor(); cur.execute(sql)``
            if bound == "aggregate":
                return EMPTY
            return frozenset({Src("TL101", site, ".fetchall()", bound)})
        if method in ("fetchone", "fetchrow", "fetchmany") and self.while_depth and \
                (markers(recv, "cursor") or recv_name in self.sql_of):
            # ``while row := cur.fetchone(): ...``: a row (or a batch) each round, every row of
            # the query in the end (PEP 249), bounded as the query is
            curs = markers(recv, "cursor")
            rows: SqlBound = curs[0].sql_bound if curs else None
            if rows is None and recv_name in self.sql_of:
                rows = self.sql_of[recv_name]  # ``cur = conn.cursor(); cur.execute(sql)``
            if rows == "aggregate" or isinstance(rows, str):
                return EMPTY
            self._args_flow(node)
            self.row_reads.add(site)  # (no "while loop that collects every page" besides)
            return frozenset({Src("TL101", site, f".{method}() in a while loop", rows)})
        if method in ("fetchone", "fetchrow"):
            columns = next((c.columns for c in markers(recv, "cursor") if c.columns), ()) or \
                self.columns_of.get(recv_name or "", ())  # (``cur = conn.cursor(); cur.execute(sql)``)
            if any(document_column(c) for c in columns):
                # ``SELECT id, title, body FROM notes WHERE id = ?`` then ``fetchone()``: one row
                # whose ``body`` is a whole document (labelling rule 5: a single object whose
                # contents are open-ended); its other columns are fixed fields
                self._args_flow(node)
                return frozenset({Marker("object", site, whole=True, columns=columns)})
        if method == "fetchmany":
            bound = self.bound_from(args[0].value, node) if args else Bound(site, fixed=1)
            return frozenset({Src("TL101", site, ".fetchmany()", bound)})
        if method in ("execute", "exec_driver_sql", "executescript") and args and (
                args[0].keyword is None or args[0].keyword.value in QUERY_KEYWORDS):
            # (``ExecuteCellTool().execute(mode=..., cell_index=...)`` is no SQL statement)
            sql_node = self.query_argument(node)
            argflow = self._args_flow(node)
            stmt_q = markers(argflow, "query")
            bound = stmt_q[0].sql_bound if stmt_q else self.sql_bound(sql_node, argflow, site)
            text = self.string_value(sql_node)
            columns = cat.selected_columns(text) if text is not None else ()
            if recv_name:
                self.sql_of[recv_name] = bound
                self.columns_of[recv_name] = columns
            if bound == "aggregate":
                return EMPTY
            return frozenset({Marker("cursor", site, bound, columns=columns)})
        if method in ("fetch",) and args:
            text = self.string_value(args[0].value)
            if text is not None and cat.looks_like_sql(text):
                argflow = self._args_flow(node)
                bound = self.sql_bound(args[0].value, argflow, site)
                if bound == "aggregate":
                    return EMPTY
                return frozenset({Src("TL101", site, ".fetch()", bound)})
        if method == "cursor":
            return frozenset({Marker("cursor", site)})
        if method in ("query", "scalars") and not markers(recv, "query"):
            # SQL text or a caller's query through any client (``client.query(sql)``) is rows;
            # an ORM query (``session.query(User)``) is a builder drained later
            sql = self._external_sql(node, method, Shape.COLLECTION, site) if args else None
            if sql is not None:
                return sql
            inner = self._args_flow(node)
            curs = markers(inner, "query") or markers(recv, "cursor")
            first = (dotted_name(args[0].value) or "").split(".")[-1] if args else ""
            if not curs and not first[:1].isupper():
                # not ``session.query(User)`` nor ``session.scalars(select(...))``: some API's
                # query method (``grafana.query(start, end, [q])``), judged as external code
                return None
            bound = curs[0].sql_bound if curs else None
            return union(frozenset({Marker("query", site, bound)}), scalar_of(inner))
        if method in ("find", "aggregate") and (
                not args or isinstance(args[0].value, (cst.Dict, cst.List))
                or (self.string_value(args[0].value) is None and isinstance(node.func, cst.Attribute)
                    and (markers(recv, "object") or self._external_root(node.func.value, method) is not None))):
            # a document store's ``find(filter)`` (not ``str.find``: its receiver is a client's
            # collection, ``coll = MongoClient()[db][name]``)
            self._args_flow(node)
            return frozenset({Marker("query", site)})
        if method == "limit" and args:
            b = self.bound_from(args[0].value, node)
            qs = markers(recv, "query")
            if qs:
                return frozenset({Marker("query", site, b)})
            return apply_bound(recv, b) if b else recv
        if method in ("all", "to_list") and markers(recv, "query", "cursor"):
            q = markers(recv, "query", "cursor")[0]
            bound = q.sql_bound
            if method == "to_list":
                length = keyword_arg(node, "length") or (args[0].value if args else None)
                if length is not None and not (isinstance(length, cst.Name) and length.value == "None"):
                    bound = self.bound_from(length, node)
            return frozenset({Src("TL101", site, f".{method}()", bound)})
        if method in _ONE_ENTITY and not args and markers(recv, "query"):
            # ``session.query(User).filter_by(id=i).first()``: one entity of an ORM query, a
            # record whose columns are fields and whose relationships (``user.posts``) are
            # collections read when iterated
            return frozenset({Marker("object", site)})
        if method in ("paginate", "get_paginator", "iterate_pages", "iter_pages", "auto_paging_iter"):
            self._args_flow(node)
            return frozenset({Marker("paginator", site)})
        if method in ("head", "tail", "nlargest", "nsmallest", "most_common") and args and sources(recv):
            b = self.bound_from(args[0].value, node)
            return apply_bound(recv, b) if b else recv
        if method in cat.SCALAR_METHODS and not (
                method in cat.READS_WHEN_GIVEN and any(a.keyword is None and not a.star for a in args)):
            self._args_flow(node)
            # (``sha256(text.encode()).hexdigest()``: a digest of the value, not the value)
            return self.value_scalar(recv, [node.func.value] if isinstance(node.func, cst.Attribute) else [])
        if method in ("get", "pop") and args and isinstance(node.func, cst.Attribute) and \
                any(is_collection_src(t) for t in recv):
            # ``NOTES.get(name)``: one element of a run-time collection, not all of it
            self._args_flow(node)
            rest, entry = self.collection_entry(recv, node.func.value, site)
            return rest | entry
        chain = markers(recv, "query", "cursor")
        if chain and method not in ("join", "format"):
            # builder chains (``.filter().order_by().offset()``) keep the query and its bound
            self._args_flow(node)
            return frozenset(chain)
        if method == "join":
            return union(self._args_flow(node), EMPTY)
        return None

    def query_argument(self, node: cst.Call) -> cst.BaseExpression:
        """The argument of a query call that holds its text: the one named for a query
        (``query``, ``sql=``, ``self.sql``) or whose text reads as a query, else the first
        (``client.execute(database, query, props)`` in the Kusto and Snowflake clients)."""
        for a in node.args:
            if a.star:
                continue
            value = a.value
            if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
                value = value.func.value  # ``query.strip()``
            named = a.keyword.value if a.keyword is not None else (dotted_name(value) or "").split(".")[-1]
            text = self.string_value(a.value)
            if named.lower() in QUERY_KEYWORDS or (text is not None and cat.looks_like_sql(text)):
                return a.value
        return node.args[0].value

    def collection_entry(self, flow: Flow, container: cst.BaseExpression, site: Site) -> tuple[Flow, Flow]:
        """One entry of the run-time collections in ``flow`` (``tasks[task_id]``,
        ``notes.get(name)``, at ``site``): ``flow`` without them, and the entry
        (``values.one_element``: one record, whole; nothing when the module stores only
        scalars into ``container``, ``JOBS[job_id] = "queued"``, ``self._urls[key] = url``, or when it is a
        read-through cache read back: ``caches``; an object of the class every stored value is
        made by, ``self._managers[name] = KafkaManager(cfg)``: ``Analyzer.entry_class``)."""
        rest = frozenset(t for t in flow if not is_collection_src(t))
        if len(rest) == len(flow):
            return flow, EMPTY
        name = dotted_name(container) or ""
        if self.a.scalar_entries(self.mod, name) or self.a.cache_hit(self.mod, self.fn, name):
            # (an entry of a read-through cache is what the code that fills it returns, traced
            # there: ``caches``)
            return rest, EMPTY
        family = self.a.entry_class(self.mod, name)
        if family is not None:  # a registry of objects (``self._managers[name] = Manager(cfg)``)
            return rest, frozenset({Marker("object", site, family=family)})
        return rest, one_element(site)

    def sql_bound(self, sql_node: cst.BaseExpression | None, argflow: Flow, site: Site) -> SqlBound:
        """The bound a query's text puts on its rows: ``LIMIT 50`` fixed, ``LIMIT ?`` bound to a
        limit-like parameter, ``"aggregate"`` for a lone ``COUNT(*)`` or a write statement (a
        number, no rows), None when unbounded. A GraphQL document is judged by its selection
        (``graphql.document_rows``): one record or a mutation is ``"aggregate"``, a paged list
        capped by its paging argument (``first: 20``; ``-1`` for a variable)."""
        text = self.string_value(sql_node) if sql_node is not None else None
        if text is None:
            if isinstance(sql_node, cst.Call) and isinstance(sql_node.func, cst.Attribute) and \
                    isinstance(sql_node.func.value, cst.Name) and sql_node.func.attr.value in VALUE_METHODS:
                sql_node = sql_node.func.value  # ``query.strip()``: the text of ``query``
            if self.helper and isinstance(sql_node, cst.Name):
                # the caller's SQL decides: the parameter itself, or a local made of it alone
                # (``sql = self._add_watermark(query)``)
                held = {t.name for t in self.env.get(sql_node.value, EMPTY) if isinstance(t, Param) and t.site is None}
                if len(held) > 1:  # ``sql = bind(query, params)``: the one holding the text
                    held = {n for n in held if n.lower() in QUERY_KEYWORDS}
                if len(held) == 1:
                    return Bound(site, sql_param=held.pop())
            return None
        if graphql.is_document(text):
            # a GraphQL document the helper sends: its selection says how much comes back
            rows = graphql.document_rows(text)
            if rows == graphql.RECORD or rows == graphql.WRITE:
                return "aggregate"  # (one record per root field; a mutation's written record)
            return None if rows is None else Bound(site, fixed=rows)
        if cat.SQL_AGGREGATE_ONLY.search(text) or cat.no_rows_statement(text) or \
                (cat.looks_like_sql(text) and cat.SQL_WRITE.match(text)):
            return "aggregate"  # (a write's counter: no rows either)
        outer = cat.outer_statement(text)
        m = cat.SQL_LIMIT_FIXED.search(outer)
        if m:
            return Bound(site, fixed=int(m.group("n")))
        m = cat.SQL_LIMIT_PARAM.search(outer)
        if m:
            ps = [p for p in params(union(argflow, self._fstring_params(sql_node))) if cat.LIMIT_PARAM.search(p.name)]
            if ps:
                p = ps[0]
                known = self.param_defaults.get(p.name, p)
                clamp = p.clamp if p.clamp is not None else known.clamp
                return Bound(site, param=p.name, clamp=clamp, default_none=known.default_none, param_site=known.site)
            return Bound(site, fixed=-1)
        if cat.looks_like_sql(text) and not _WIDENING.search(outer):
            return self._in_list_bound(sql_node, site)
        return None

    def _in_list_bound(self, sql_node: cst.BaseExpression | None, site: Site) -> Bound | None:
        """The rows of a query that selects by a list of keys it interpolates (``WHERE name IN
        ({", ".join(quote(n) for n in page)})``, a column named as an identifier: ``ID_WORDS``):
        one row per key, so capped as that list is (``list_bound``); None when there is no such
        list or it is not bounded."""
        parts = self.url_parts(sql_node) if sql_node is not None else []
        text = ""
        for part in parts:
            if isinstance(part, str):
                text += part
                continue
            m = re.search(r"([\w.\"`\[\]]+)\s+IN\s*\(\s*$", text, re.IGNORECASE)
            column = m.group(1).strip('"`[]').split(".")[-1] if m else ""
            if part is not None and m and words(column) and words(column)[-1] in ID_WORDS:
                # (a key column, one row per key: ``status IN (...)`` may match any number)
                b = self.list_bound(part, site.node)
                if b is not None:
                    return b
            text = ""
        return None

    def _fstring_params(self, node: cst.BaseExpression | None) -> Flow:
        if isinstance(node, cst.Name) and node.value in self.env:
            return self.env[node.value]
        return self.expr(node) if isinstance(node, cst.FormattedString) else EMPTY


def command_bound(recv: Flow) -> Bound | None:
    """The command bound (``Bound.command_param``) of the process in ``recv``, if any: what its
    output is, each caller's command line decides."""
    return next((m.sql_bound for m in markers(recv, "process") if m.sql_bound is not None
                 and m.sql_bound.command_param), None)


#: What lets a query return more rows than the keys it selects by: another condition ``OR``-ed
#: in, a join, a union (``_in_list_bound``).
_WIDENING = re.compile(r"\b(OR|JOIN|UNION)\b", re.IGNORECASE)


#: Methods of database wrappers that run a query and return all of its rows.
SQL_RUNNERS = frozenset({"execute_query", "run_query", "fetch_all", "execute_sql", "run_sql",
                         "query_df", "read_sql", "fetch_query", "select_all"})


#: Methods of an ORM query or result that give one entity (SQLAlchemy ``Query.first`` /
#: ``one`` / ``one_or_none``, ``Result.scalar_one``, peewee ``get_or_none``).
_ONE_ENTITY = frozenset({"first", "one", "one_or_none", "scalar_one", "scalar_one_or_none", "get_or_none"})
