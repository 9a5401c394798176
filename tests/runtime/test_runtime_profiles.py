"""Client profiles: every page fits the chosen client's own limits, in every form it is sent.

The operator picks the profile with ``TOKENLINT_CLIENT`` (no code change); the server's code is
what ``tokenlint fix`` writes (``max_tokens=10_000``). ``profile_driver.py`` pages one big list and
one long text under each profile through the real client (mcp 1.x and 2.x); here each page's text
blocks and its serialized ``structuredContent`` are checked against that client's documented
limits (``limits.PROFILES``, sources in field.md section 2), counted independently: tokens with
tiktoken's cl100k, chars, UTF-8 bytes, lines. Paging stays lossless.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import runtime_fixture_data as data
import runtime_sdk_envs as sdk_envs
from tokenlint.runtime import (
    PROFILES,
    ClientProfile,
    client_profile,
    fit_response,
    join_text_pages,
    parse_text_page,
)

# the limits as documented, restated here rather than read from the code under test
DOCUMENTED = {
    "claude-code": {"tokens": 10_000, "chars": 50_000},   # warns >10k tokens; persists >50k chars
    "codex": {"bytes": 10_000, "lines": 256},              # 10 KiB / 256 lines; GPT-5.2: 10,000 B
    "copilot-cli": {"bytes": 10 * 1024},                   # dss = 10*1024
    "claude-desktop": {"bytes": 1_000_000},                # "Maximum size is 1MB"
    "generic": {"tokens": 10_000},
}

HERE = Path(__file__).resolve().parent


def _measures(text: str, cl100k) -> dict[str, int]:
    return {"tokens": cl100k(text), "chars": len(text), "bytes": len(text.encode("utf-8")),
            "lines": text.count("\n") + 1}


def _check(profile: str, form: str, text: str, cl100k) -> None:
    m = _measures(text, cl100k)
    limits = dict(DOCUMENTED[profile], tokens=min(DOCUMENTED[profile].get("tokens", 10_000),
                                                  10_000))
    for unit, limit in limits.items():
        assert m[unit] <= limit, f"{profile}: a page's {form} has {m[unit]:,} {unit} > {limit:,}"


@pytest.fixture(scope="module", params=["mcp1", "mcp2"])
def profile_run(request, e2e_runs, tmp_path_factory):
    python = e2e_runs.venv(request.param).result()
    out = tmp_path_factory.mktemp("profiles") / "obs.json"
    with sdk_envs.driver_slot():
        proc = subprocess.run(
            [str(python), str(HERE / "profile_driver.py"),
             str(HERE / "servers" / "profile_server.py"), str(out)],
            cwd=str(HERE), env=sdk_envs.driver_env(), capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-6000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_profiles_are_the_documented_limits():
    assert set(PROFILES) == set(DOCUMENTED)
    for name, limits in DOCUMENTED.items():
        p = PROFILES[name]
        got = {"tokens": p.max_tokens, "chars": p.max_chars, "bytes": p.max_bytes,
               "lines": p.max_lines}
        assert {k: v for k, v in got.items() if v} == limits


@pytest.mark.parametrize("profile", sorted(DOCUMENTED))
def test_every_page_fits_the_clients_limits_in_every_form(profile_run, profile, cl100k):
    run = profile_run[profile]
    users = run["list_users"]
    assert not any(p["is_error"] for p in users)
    items = []
    for page in users:
        for text in page["texts"]:
            _check(profile, "text", text, cl100k)
        assert page["structured"] is not None
        _check(profile, "structuredContent",
               json.dumps(page["structured"], ensure_ascii=False, separators=(",", ":")), cl100k)
        items += page["structured"]["result"]["items"]
    assert items == data.users(600)
    docs = run["read_doc"]
    assert not any(p["is_error"] for p in docs)
    for page in docs:
        _check(profile, "text", page["texts"][0], cl100k)
        if page["structured"] is not None:
            _check(profile, "structuredContent",
                   json.dumps(page["structured"], ensure_ascii=False, separators=(",", ":")),
                   cl100k)
    assert join_text_pages([parse_text_page(p["texts"][0]) for p in docs]) == data.document()


def test_tighter_clients_get_more_smaller_pages(profile_run):
    count = {name: len(run["list_users"]) for name, run in profile_run.items()}
    assert count["codex"] > count["generic"] >= 3
    assert count["copilot-cli"] > count["generic"]
    assert count["claude-desktop"] == count["generic"]  # 1 MB never binds under 10k tokens


def test_the_environment_variable_and_the_argument_choose_the_profile(monkeypatch):
    recs = [{"i": i, "pad": "y" * 240} for i in range(400)]
    monkeypatch.delenv("TOKENLINT_CLIENT", raising=False)
    assert client_profile() is None
    generic = fit_response(recs, tool="t", arguments={})
    monkeypatch.setenv("TOKENLINT_CLIENT", "codex")
    assert client_profile() is PROFILES["codex"]
    codex = fit_response(recs, tool="t", arguments={})
    assert len(codex["items"]) < len(generic["items"])
    # the code's profile and the operator's both apply: the tightest binds
    assert fit_response(recs, tool="t", arguments={}, client="generic")["items"] == \
        codex["items"]
    monkeypatch.delenv("TOKENLINT_CLIENT")
    assert fit_response(recs, tool="t", arguments={}, client="codex")["items"] == codex["items"]
    monkeypatch.setenv("TOKENLINT_CLIENT", "copilot-cli")
    both = client_profile("claude-code")
    assert (both.max_tokens, both.max_chars, both.max_bytes, both.max_lines) == \
        (10_000, 50_000, 10 * 1024, None)
    monkeypatch.setenv("TOKENLINT_CLIENT", "netscape")
    with pytest.raises(ValueError, match="TOKENLINT_CLIENT='netscape'.*codex"):
        fit_response(recs, tool="t", arguments={})


def test_a_result_within_tokens_but_over_a_size_limit_is_paged():
    # 4,000 lines of 1-char records: tiny in tokens per line, far over Codex's 256 lines
    recs = list(range(4000))
    assert fit_response(recs[:100], tool="t", arguments={}, client="codex") == recs[:100]
    page = fit_response(recs, tool="t", arguments={}, client="codex")
    assert isinstance(page, dict) and page["next_action"]
    tiny = ClientProfile("tiny", max_lines=60)
    page = fit_response(list(range(40)), tool="t", arguments={}, client=tiny)
    assert json.dumps(page, indent=2).count("\n") + 1 <= 60
