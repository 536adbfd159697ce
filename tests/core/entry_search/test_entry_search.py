"""Entry search (`pitui grep`'s core) against a reference scan written plainly here: every
file parsed line by line with the standard library, every entry's text gathered, every
token looked for. The search must find exactly the same entries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.summary import SessionSummary
from pitui.core.entry_search import snippet as snippet_module
from pitui.core.entry_search.search import search_entries
from pitui.core.entry_search.snippet import snippet
from pitui.demo.generate import generate_corpus

QUERIES = [  # (query, the words every matching entry holds)
    ("parser", ["parser"]),  # conversation text and tool output
    ("the session", ["the", "session"]),  # two tokens, anywhere in one entry
    ('"tests fail"', ["tests fail"]),  # a phrase
    ("mypy", ["mypy"]),
    ("src/http", ["src/http"]),  # a slash, which JSON may write as `\\/`
    ("ls", ["ls"]),  # tool call arguments
    ("zzz-nowhere", ["zzz-nowhere"]),
    ("é", ["é"]),
    ("abc", ["abc"]),  # written as \\u escapes in one crafted line
    ("k", ["k"]),  # a Kelvin sign lowercases to k
    ('say "hi"', ["say", "hi"]),
    ("kelvin", ["kelvin"]),  # only a Kelvin sign spells its k, in files of their own
    ("xyzzy", ["xyzzy"]),  # only a \\u escape spells its x, in a file of its own
]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _blocks(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    out: list[str] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text":
            out.append(block.get("text"))
        if block.get("type") == "thinking":
            out.append(block.get("thinking"))
        if block.get("type") == "toolCall":
            out += [block.get("name"), *_strings(block.get("arguments"))]
    return [s for s in out if isinstance(s, str)]


def _reference_text(entry: dict[str, Any]) -> tuple[str, list[str]] | None:
    """(role, texts) of an entry that says something, else None."""
    kind = entry.get("type")
    if kind == "message" and isinstance(entry.get("message"), dict):
        message = entry["message"]
        role = message.get("role")
        if role == "bashExecution":
            return role, [
                s for s in (message.get("command"), message.get("output")) if isinstance(s, str)
            ]
        if role in ("branchSummary", "compactionSummary"):
            return role, [message["summary"]] if isinstance(message.get("summary"), str) else []
        return (role if isinstance(role, str) else "?"), _blocks(message.get("content"))
    if kind == "custom_message":
        return "custom", _blocks(entry.get("content"))
    if kind in ("branch_summary", "compaction"):
        summary = entry.get("summary")
        return {"branch_summary": "branchSummary", "compaction": "compactionSummary"}[kind], (
            [summary] if isinstance(summary, str) else []
        )
    return None


def reference_scan(paths: list[str], words: list[str]) -> list[tuple[str, int, str]]:
    """(path, line, role) of every entry whose text holds every word, case-insensitively."""
    found = []
    for path in paths:
        data = Path(path).read_bytes()
        lines = data.split(b"\n")
        if not data.endswith(b"\n"):
            lines = lines[:-1]  # a partial last line is no entry yet
        for number, line in enumerate(lines[1:], start=2):
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            said = _reference_text(entry) if isinstance(entry, dict) else None
            if said is None:
                continue
            text = "\n".join(said[1]).lower()
            if all(word.lower() in text for word in words):
                found.append((path, number, said[0]))
    return found


def _crafted(folder: Path) -> None:
    """Lines whose bytes differ from their text: escapes, a Kelvin sign, quotes."""
    header = {
        "type": "session",
        "version": 3,
        "id": "crafted",
        "timestamp": "2025-06-01T00:00:00.000Z",
        "cwd": "/c",
    }
    lines = [json.dumps(header)]
    lines.append(
        '{"type":"message","id":"e1","parentId":null,"timestamp":"2025-06-01T00:00:01.000Z",'
        '"message":{"role":"user","content":"x \\u0041BC y"}}'
    )
    lines.append(
        json.dumps(
            {
                "type": "message",
                "id": "e2",
                "parentId": "e1",
                "timestamp": "2025-06-01T00:00:02.000Z",
                "message": {
                    "role": "assistant",
                    "content": [{"type": "text", "text": "\u212a and caf\u00e9"}],
                },
            },
            ensure_ascii=False,
        )
    )
    lines.append(
        '{"type":"message","id":"e3","parentId":"e2","timestamp":"2025-06-01T00:00:03.000Z",'
        '"message":{"role":"user","content":"I say \\"hi\\" to src\\/http"}}'
    )
    lines.append(
        json.dumps(
            {
                "type": "message",
                "id": "e4",
                "parentId": "e3",
                "timestamp": "2025-06-01T00:00:04.000Z",
                "message": {
                    "role": "assistant",
                    "content": [
                        {
                            "type": "thinking",
                            "thinking": "the parser again",
                            "thinkingSignature": "SIG",
                        },
                        {
                            "type": "toolCall",
                            "id": "t1",
                            "name": "bash",
                            "arguments": {"command": "ls -la", "n": 3},
                        },
                    ],
                },
            }
        )
    )
    lines.append(
        json.dumps(
            {
                "type": "message",
                "id": "e5",
                "parentId": "e4",
                "timestamp": "2025-06-01T00:00:05.000Z",
                "message": {
                    "role": "toolResult",
                    "toolCallId": "t1",
                    "toolName": "bash",
                    "content": [{"type": "text", "text": "parser.py\nmypy.ini"}],
                },
            }
        )
    )
    (folder / "crafted.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _spelled_apart(folder: Path) -> None:
    """Sessions whose only spelling of a word is one its bytes do not show: a raw and an
    escaped Kelvin sign, an escaped ASCII letter (the byte filter must not pass them over)."""
    texts = {
        "kelvin-raw": "\u212aELVIN",
        "kelvin-escaped": "\\u212Aelvin",
        "xyzzy-escaped": "\\u0078YZZY",
    }
    for name, text in texts.items():
        header = '{"type":"session","version":3,"id":"%s","timestamp":"2025-06-01T00:00:00.000Z","cwd":"/k"}'
        line = (
            '{"type":"message","id":"k1","parentId":null,"timestamp":"2025-06-01T00:00:01.000Z",'
            '"message":{"role":"user","content":"%s"}}'
        )
        body = header % name + "\n" + line % text + "\n"
        (folder / f"{name}.jsonl").write_text(body, encoding="utf-8")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> list[SessionSummary]:
    base = tmp_path_factory.mktemp("store")
    generate_corpus(base / "sessions", seed=5, count=18)
    folder = base / "sessions" / "--c--"
    folder.mkdir()
    _crafted(folder)
    apart = base / "sessions" / "--k--"
    apart.mkdir()
    _spelled_apart(apart)
    with Catalog(base / "sessions", cache_dir=base / "cache") as catalog:
        catalog.scan()
        return catalog.sessions()


@pytest.mark.parametrize(("query", "words"), QUERIES)
def test_finds_exactly_what_a_plain_scan_finds(
    store: list[SessionSummary], query: str, words: list[str]
) -> None:
    result = search_entries(store, query)
    assert result.error is None and result.unreadable == []
    got = [(hit.path, hit.line, hit.role) for hit in result.hits]
    expected = reference_scan([s.path for s in store], words)
    assert sorted(got) == sorted(expected)
    assert len(got) == len(set(got))


def test_crafted_lines_are_found(store: list[SessionSummary]) -> None:
    """The lines whose bytes do not hold the word (escapes, case folding) are still found."""
    crafted = [s for s in store if s.id == "crafted"]
    assert [h.id for h in search_entries(crafted, "abc").hits] == ["e1"]
    assert [h.id for h in search_entries(crafted, "k and").hits] == ["e2"]
    assert [h.id for h in search_entries(crafted, '"i  say"').hits] == ["e3"]
    assert [h.id for h in search_entries(crafted, "src/http").hits] == ["e3"]
    assert [h.id for h in search_entries(crafted, "ls -la").hits] == ["e4"]
    assert [h.id for h in search_entries(crafted, "SIG").hits] == []  # a signature says nothing


def test_words_spelled_apart_are_found(store: list[SessionSummary]) -> None:
    kelvin = {h.session_id for h in search_entries(store, "kelvin").hits}
    assert kelvin == {"kelvin-raw", "kelvin-escaped"}
    assert [h.session_id for h in search_entries(store, "xyzzy").hits] == ["xyzzy-escaped"]


def test_newest_session_first_file_order_within(store: list[SessionSummary]) -> None:
    hits = search_entries(store, "the").hits
    order = {s.path: n for n, s in enumerate(store)}
    keys = [(order[h.path], h.line) for h in hits]
    assert keys == sorted(keys) and len({h.path for h in hits}) > 3


def test_role_limit_offset_regex_and_filters(store: list[SessionSummary]) -> None:
    every = search_entries(store, "parser").hits
    tools = search_entries(store, "parser", role="tool").hits
    assert tools and all(h.role in ("toolResult", "bashExecution") for h in tools)
    assert [h.line for h in tools] == [
        h.line for h in every if h.role in ("toolResult", "bashExecution")
    ]
    page = search_entries(store, "parser", limit=3, offset=2)
    assert [(h.path, h.line) for h in page.hits] == [(h.path, h.line) for h in every[2:5]]
    assert page.more
    assert not search_entries(store, "parser", limit=len(every)).more
    regex = search_entries(store, r"re:pars(er|ing)\b").hits
    assert {(h.path, h.line) for h in every} <= {(h.path, h.line) for h in regex}
    late = search_entries(store, "parser after:2025-06-01").hits
    assert late and all(h.timestamp >= "2025-06-01" for h in late)
    assert search_entries(store, "parser cwd:/c").hits[0].id == "e4"
    assert search_entries(store, "re:(").error
    assert search_entries(store, "x", role="nobody").error


def test_snippet_around_the_match_one_line_and_safe() -> None:
    text = (
        "שלום עולם " * 20 + "\u202eevil\nline\x1b[31m 🇫🇷👩‍👩‍👧 needle café\u0301 " + "مرحبا " * 30
    )
    start = text.index("needle")
    shown = snippet(text, (start, start + 6))
    assert "needle" in shown and shown.startswith("…") and shown.endswith("…")
    assert "\n" not in shown and "\x1b" not in shown and "\u202e" not in shown
    assert "<U+202E>" in shown and "␛" in shown
    assert "👩‍👩‍👧" in shown and "🇫🇷" in shown and "café\u0301" in shown  # graphemes whole
    import regex

    assert len(regex.findall(r"\X", shown)) <= 102 + len("<U+202E>")


def test_snippet_never_starts_inside_a_grapheme() -> None:
    text = "e\u0301" * 200 + "needle"
    start = text.index("needle")
    shown = snippet(text, (start, start + 6))
    assert shown.startswith("…e\u0301")


def test_redacted_snippets(store: list[SessionSummary], tmp_path: Path) -> None:
    key = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    folder = tmp_path / "s" / "--k--"
    folder.mkdir(parents=True)
    header = {
        "type": "session",
        "version": 3,
        "id": "k",
        "timestamp": "2025-06-01T00:00:00.000Z",
        "cwd": "/k",
    }
    entry = {
        "type": "message",
        "id": "u1",
        "parentId": None,
        "timestamp": "2025-06-01T00:00:01.000Z",
        "message": {"role": "user", "content": f"push with {key} now"},
    }
    (folder / "k.jsonl").write_text(json.dumps(header) + "\n" + json.dumps(entry) + "\n")
    with Catalog(tmp_path / "s", cache_dir=tmp_path / "cache") as catalog:
        catalog.scan()
        sessions = catalog.sessions()
    plain = search_entries(sessions, "push").hits[0].snippet
    hidden = search_entries(sessions, "push", redact=True).hits[0].snippet
    assert key in plain
    assert key not in hidden and "[REDACTED:github]" in hidden


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=400))
def test_ascii_snippets_cut_as_graphemes_do(text: str) -> None:
    """ASCII text is cut character by character, which is where its graphemes end."""
    import regex

    graphemes = regex.findall(r"\X", snippet_module._squeeze(text))
    assert snippet_module._graphemes(snippet_module._squeeze(text)) == graphemes
