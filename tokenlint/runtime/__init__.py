"""tokenlint.runtime: keep MCP tool responses within a token budget, losslessly.

Imported by the code ``tokenlint fix`` rewrites, and usable by hand. Standard library only at
import time (tiktoken is used for exact counts when installed; the MCP SDK only by the helpers
that need it, lazily).

Main entry point::

    from tokenlint.runtime import fit_response

    @mcp.tool()
    def list_users(role: str, cursor: str | None = None) -> list[dict]:
        rows = db.query(role)
        return fit_response(rows, tool="list_users", arguments={"role": role}, cursor=cursor)

Within budget the tool returns exactly what it returned before; over budget it returns the largest
page of whole records that fits (or a text page), a ``next_action`` that fetches the rest with a
cursor, and a summary of what was left out. See ``response.fit_response`` for the shapes,
``structured.Paged`` for tools with an ``outputSchema``, ``resources.register_result_resource`` to
expose full results as MCP resources linked from every page (``links``), and
``collector.collect_pages`` for clients.
"""

#: The version of the ``mcp-tokenlint-runtime`` distribution (tokenlint/runtime/pyproject.toml).
__version__ = "0.1.0"

from .collector import collect_pages, merge_pages, parse_tool_result
from .cursors import CursorError, fingerprint_arguments
from .bounds import estimate_text_tokens, text_tokens_upper_bound, token_bounds
from .estimator import ExactTokenizerUnavailable, TokenEstimator
from .limits import (
    CLIENT_ENV,
    PROFILES,
    ClientProfile,
    client_profile,
    CLAUDE_CODE_MAX_OUTPUT_TOKENS,
    CLAUDE_CODE_PERSIST_CHARS,
    DEFAULT_CURSOR_TTL_SECONDS,
    DEFAULT_MAX_RESPONSE_TOKENS,
    DEFAULT_PAGE_SIZES,
)
from .links import LINKS_ENV
from .lowlevel import CURSOR_INPUT_SCHEMA, declare_cursor, fit_json_text, with_cursor_parameter
from .once import computed_once
from .reduction import largest_fitting_count
from .resources import (
    RESULT_URI_PREFIX,
    as_content_blocks,
    current_session_id,
    read_stored_result,
    register_result_resource,
    resource_link,
    session_id_from_context,
)
from .response import MIN_MAX_TOKENS, fit_response, next_action
from .redis_store import STORE_URL_ENV, RedisResultStore
from .rendering import render_json
from .store import ResultStore, StoredResult, default_store, set_default_store
from .structured import CURSOR_DESCRIPTION, Cursor, PageEnvelope, Paged
from .summary import summarize_omitted
from .text_pages import format_footer, join_text_pages, parse_text_page, split_text

__all__ = [
    "CLIENT_ENV",
    "ClientProfile",
    "PROFILES",
    "client_profile",
    "CLAUDE_CODE_MAX_OUTPUT_TOKENS",
    "CLAUDE_CODE_PERSIST_CHARS",
    "CURSOR_DESCRIPTION",
    "CURSOR_INPUT_SCHEMA",
    "Cursor",
    "CursorError",
    "DEFAULT_CURSOR_TTL_SECONDS",
    "DEFAULT_MAX_RESPONSE_TOKENS",
    "DEFAULT_PAGE_SIZES",
    "ExactTokenizerUnavailable",
    "MIN_MAX_TOKENS",
    "PageEnvelope",
    "Paged",
    "RESULT_URI_PREFIX",
    "as_content_blocks",
    "RedisResultStore",
    "ResultStore",
    "STORE_URL_ENV",
    "StoredResult",
    "TokenEstimator",
    "collect_pages",
    "computed_once",
    "current_session_id",
    "default_store",
    "set_default_store",
    "estimate_text_tokens",  # the former name of text_tokens_upper_bound, kept for old code
    "fingerprint_arguments",
    "fit_json_text",
    "fit_response",
    "format_footer",
    "join_text_pages",
    "largest_fitting_count",
    "LINKS_ENV",
    "merge_pages",
    "next_action",
    "parse_text_page",
    "parse_tool_result",
    "read_stored_result",
    "register_result_resource",
    "render_json",
    "resource_link",
    "session_id_from_context",
    "split_text",
    "summarize_omitted",
    "text_tokens_upper_bound",
    "token_bounds",
    "with_cursor_parameter",
    "declare_cursor",
]
