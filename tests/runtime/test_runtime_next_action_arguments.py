"""``next_action`` repeats the call's arguments as JSON the SDK validates again (fix-trials T1)."""

from __future__ import annotations

import dataclasses
import enum

from tokenlint.runtime import ResultStore, fit_response, next_action


class Color(enum.Enum):
    RED = "red"


@dataclasses.dataclass
class Window:
    start: int
    end: int


class FakeModel:
    """Duck-types a pydantic v2 model (the runtime imports no pydantic)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def model_dump(self, mode: str = "python") -> dict:
        assert mode == "json"
        return {"path": self.path}


def test_models_dataclasses_and_enums_become_their_json_values():
    action = next_action("read", {"params": FakeModel("/tmp/x"), "color": Color.RED,
                                  "window": Window(1, 5), "n": 3}, "CURSOR")
    assert action == {"tool": "read", "arguments": {
        "params": {"path": "/tmp/x"}, "color": "red", "window": {"start": 1, "end": 5}, "n": 3,
        "cursor": "CURSOR"}}


def test_a_page_of_a_tool_called_with_a_model_can_be_followed():
    store = ResultStore()
    rows = [{"id": i, "text": "x" * 200} for i in range(200)]
    params = FakeModel("/tmp/x")
    first = fit_response(rows, tool="read", arguments={"params": params}, max_tokens=1_000, store=store)
    action = first["next_action"]
    assert action["arguments"]["params"] == {"path": "/tmp/x"}
    # the SDK rebuilds the model from that JSON; the fingerprint of the rebuilt call matches
    second = fit_response(rows, tool="read", arguments={"params": FakeModel("/tmp/x"),
                                                        "cursor": action["arguments"]["cursor"]},
                          cursor=action["arguments"]["cursor"], max_tokens=1_000, store=store)
    assert second["items"][0]["id"] == len(first["items"])
