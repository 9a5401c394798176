"""Deterministic text samples of every content kind the estimator must handle.

Used by the estimator tests and by ``benchmarks/estimator_accuracy.py``. Everything is built from
the standard library (stdlib source for code, ``pydoc_data`` for English prose) or written here
(CJK and emoji sentences), so the corpus is the same on every machine and needs no network.
"""

from __future__ import annotations

import base64
import inspect
import json
import random
import textwrap
import uuid

CJK_SENTENCES = [
    # Chinese
    "今天的天气非常好，我们决定去公园散步。",
    "这个服务器返回的数据太多了，模型的上下文很快就被填满。",
    "请在下一页继续读取剩余的结果，并使用游标参数。",
    "数据库查询没有限制返回的行数，因此响应会随着数据增长。",
    "我们需要在构建响应之前估计它的令牌数量。",
    "北京是中国的首都，也是一座历史悠久的城市。",
    "开发者在测试环境中看不到真实的数据规模。",
    "如果结果超过预算，就把它分成几页，每页都完整地保留记录。",
    # Japanese
    "東京の桜は三月の終わりに満開になります。",
    "このツールはデータベースのすべての行を一度に返します。",
    "次のページを読むには、同じ引数とカーソルでもう一度呼び出してください。",
    "私たちは毎朝コーヒーを飲みながらニュースを読みます。",
    "応答が大きすぎると、モデルの文脈がすぐにいっぱいになってしまいます。",
    "カタカナのサーバー、データ、トークン、ページという言葉がよく使われます。",
    # Korean
    "오늘은 날씨가 좋아서 친구들과 함께 산책을 했습니다.",
    "이 도구는 데이터가 늘어날수록 응답도 커집니다.",
    "다음 페이지를 읽으려면 커서를 사용해서 다시 호출하세요.",
    "서울은 한국의 수도이며 많은 사람들이 살고 있습니다.",
]

EMOJI = (
    "😀😃😄😁😆😅😂🤣🥲☺️😊😇🙂🙃😉😌😍🥰😘😗😙😚😋😛😝😜🤪🤨🧐🤓😎🥸🤩🥳🙂‍↕️😏😒"
    "👍👎👏🙌👐🤝🙏✍️💪🦾🦵🦶👂🦻👃🧠🫀🫁🦷🦴👀👁️👅👄🫦👶🧒👦👧🧑👱👨🧔"
    "🎉🎊🎈🎁🎂🍰🍕🍔🍟🌭🥪🌮🌯🫔🥙🧆🥚🍳🥘🍲🫕🥣🥗🍿🧈🧂🥫🍱🍘🍙🍚🍛🍜"
    "🚀✈️🚁🚂🚗🚕🚙🚌🏎️🚓🚑🚒🚐🛻🚚🚛🚜🏍️🛵🚲🛴🛹🛼🚏🛣️🛤️⛽🛞🚨🚥🚦🛑🚧"
    "👨‍👩‍👧‍👦👩‍💻🧑‍🚀🏳️‍🌈🇺🇸🇯🇵🇩🇪🇫🇷❤️🧡💛💚💙💜🖤🤍🤎💔❣️💕💞💓💗💖💘💝"
)


def _stdlib_source() -> str:
    import json.decoder
    import textwrap as tw
    import argparse

    return "\n\n".join(inspect.getsource(m) for m in (json.decoder, tw, argparse))


def _prose() -> str:
    import pydoc_data.topics as topics

    parts = [topics.topics[k] for k in sorted(topics.topics)]
    text = "\n\n".join(parts)
    # keep paragraphs of plain prose: drop indented code/grammar lines
    lines = [ln for ln in text.splitlines() if ln and not ln.startswith(" ")]
    return "\n".join(lines)


def records(n: int, seed: int = 0) -> list[dict]:
    """``n`` realistic database-like records (ids, names, emails, timestamps, nested tags)."""
    rnd = random.Random(seed)
    first = ["Alice", "Bob", "Carol", "Dmitri", "Eve", "Fatima", "Gao", "Hiro", "Ines", "José"]
    last = ["Smith", "Nguyen", "Müller", "Okafor", "Tanaka", "García", "Kowalski", "Rossi"]
    roles = ["admin", "editor", "viewer", "owner"]
    out = []
    for i in range(n):
        fn, ln = rnd.choice(first), rnd.choice(last)
        out.append(
            {
                "id": i + 1,
                "uuid": str(uuid.UUID(int=rnd.getrandbits(128))),
                "name": f"{fn} {ln}",
                "email": f"{fn.lower()}.{ln.lower()}{i}@example.com",
                "role": rnd.choice(roles),
                "active": rnd.random() < 0.8,
                "score": round(rnd.uniform(0, 100), 3),
                "created_at": f"2026-{rnd.randint(1, 12):02d}-{rnd.randint(1, 28):02d}T"
                f"{rnd.randint(0, 23):02d}:{rnd.randint(0, 59):02d}:00Z",
                "tags": rnd.sample(["red", "green", "blue", "vip", "beta", "legacy", "eu", "us"], 3),
                "address": {"city": rnd.choice(["Paris", "Lagos", "Osaka", "Lima"]),
                            "zip": f"{rnd.randint(10000, 99999)}"},
            }
        )
    return out


def _cjk(n_chars: int, seed: int) -> str:
    rnd = random.Random(seed)
    out, size = [], 0
    while size < n_chars:
        s = rnd.choice(CJK_SENTENCES)
        out.append(s)
        size += len(s)
        if rnd.random() < 0.2:
            out.append("\n")
    return "".join(out)


def _emoji(n_chars: int, seed: int) -> str:
    rnd = random.Random(seed)
    words = ["great", "job", "team", "party", "launch", "today", "love", "it", "wow", "thanks"]
    clusters = list(EMOJI)
    out, size = [], 0
    while size < n_chars:
        if rnd.random() < 0.6:
            piece = "".join(rnd.choice(clusters) for _ in range(rnd.randint(1, 4)))
        else:
            piece = rnd.choice(words)
        out.append(piece)
        size += len(piece) + 1
    return " ".join(out)


def _hex_ids(n: int, seed: int) -> str:
    rnd = random.Random(seed)
    lines = []
    for _ in range(n):
        kind = rnd.random()
        if kind < 0.5:
            lines.append(str(uuid.UUID(int=rnd.getrandbits(128))))
        elif kind < 0.8:
            lines.append(f"{rnd.getrandbits(256):064x}")
        else:
            lines.append(f"{rnd.getrandbits(160):040x}")
    return "\n".join(lines)


def _base64(n_bytes: int, seed: int) -> str:
    rnd = random.Random(seed)
    data = bytes(rnd.getrandbits(8) for _ in range(n_bytes))
    return base64.encodebytes(data).decode()  # 76-char lines, like MIME / many APIs


def samples(size_chars: int = 20_000, seed: int = 0) -> dict[str, list[str]]:
    """Several samples of about ``size_chars`` characters per content kind."""
    code = _stdlib_source()
    prose = _prose()
    out: dict[str, list[str]] = {}
    rnd = random.Random(seed)
    n_rec = max(1, size_chars // 330)
    out["json_indent2"] = [json.dumps(records(n_rec, s), indent=2, ensure_ascii=False)
                           for s in range(3)]
    out["json_compact"] = [json.dumps(records(n_rec, s), separators=(",", ":"), ensure_ascii=False)
                           for s in range(3)]

    def slices(text: str) -> list[str]:
        res = []
        for _ in range(3):
            start = rnd.randrange(0, max(1, len(text) - size_chars))
            res.append(text[start:start + size_chars])
        return res

    out["python_code"] = slices(code)
    out["english_prose"] = slices(prose)
    out["cjk"] = [_cjk(size_chars // 2, s) for s in range(3)]
    out["emoji"] = [_emoji(size_chars // 2, s) for s in range(3)]
    out["hex_ids"] = [_hex_ids(max(1, size_chars // 50), s) for s in range(3)]
    out["base64"] = [_base64(size_chars * 3 // 4, s) for s in range(3)]
    out["markdown_mixed"] = [
        textwrap.dedent(
            """\
            # Report {s}

            Some **bold** text, a [link](https://example.com/path?q={s}) and `inline code`.

            ```python
            {code}
            ```

            | col | value |
            |-----|-------|
            | a   | {s}   |
            """
        ).format(s=s, code=code[s * 1000:s * 1000 + 1500]) * max(1, size_chars // 2500)
        for s in range(3)
    ]
    return out
