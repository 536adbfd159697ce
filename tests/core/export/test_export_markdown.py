"""The Markdown export: every text of the branch in order, fences that hold, notes, cuts."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from pitui.core.export.document import inert, is_inert
from pitui.core.export.export import export_session
from pitui.core.export.fence import fenced, inline_code, language_for
from pitui.core.export.options import ExportOptions
from pitui.core.format.jsonline import dumps
from pitui.core.rows.safe_text import visible
from pitui.core.session.session import Session
from pitui.demo.generate import write_session
from tests.core.export.export_helpers import assert_in_order, conversation_texts, store_sessions

HEADER = {
    "type": "session",
    "version": 3,
    "id": "s1",
    "timestamp": "2025-01-01T00:00:00.000Z",
    "cwd": "/p",
}


def entry(eid: str, parent: str | None, **fields: object) -> dict[str, object]:
    return {
        "type": "message",
        "id": eid,
        "parentId": parent,
        "timestamp": "2025-01-01T00:00:01.000Z",
        **fields,
    }


def write(tmp_path: Path, entries: list[dict[str, object]], name: str = "s.jsonl") -> Session:
    return Session(write_session(tmp_path / name, HEADER, entries))


def test_every_text_of_every_branch_in_order(tmp_path: Path) -> None:
    sessions = store_sessions(tmp_path)
    assert len(sessions) >= 20
    checked = 0
    for session in sessions:
        leaves = {session.tree.leaf.id} if session.tree.leaf else set()
        leaves |= {e.id for e in session.tree.entries[:: max(1, len(session.tree.entries) // 3)]}
        for leaf in leaves:
            markdown = export_session(session, leaf, ExportOptions(max_tool_lines=5)).text
            path = session.tree.path_to(leaf)
            texts = conversation_texts([e.raw for e in path])
            assert_in_order(markdown, texts)
            checked += len(texts)
    assert checked > 200


def test_default_leaf_is_the_sessions_leaf(tmp_path: Path) -> None:
    session = write(
        tmp_path,
        [
            entry("a", None, message={"role": "user", "content": "first"}),
            entry("b", "a", message={"role": "user", "content": "left branch"}),
            entry("c", "a", message={"role": "user", "content": "right branch"}),
        ],
    )
    markdown = export_session(session).text
    assert "right branch" in markdown and "left branch" not in markdown
    assert "left branch" in export_session(session, "b").text


def test_fences_survive_content_with_fences(tmp_path: Path) -> None:
    nasty = "```\nnot the end\n````\n~~~\nstill inside"
    session = write(
        tmp_path,
        [
            entry("a", None, message={"role": "user", "content": "read it"}),
            entry(
                "b",
                "a",
                message={
                    "role": "assistant",
                    "content": [
                        {
                            "type": "toolCall",
                            "id": "t1",
                            "name": "read",
                            "arguments": {"path": "notes/x.py"},
                        }
                    ],
                },
            ),
            entry(
                "c",
                "b",
                message={
                    "role": "toolResult",
                    "toolCallId": "t1",
                    "toolName": "read",
                    "content": [{"type": "text", "text": nasty}],
                    "isError": False,
                },
            ),
        ],
    )
    markdown = export_session(session).text
    fences = [t for t in MarkdownIt("commonmark").parse(markdown) if t.type == "fence"]
    result = [t for t in fences if t.info == "python"]
    assert [t.content for t in result] == [nasty + "\n"]
    assert json.loads(fences[0].content) == {"path": "notes/x.py"}


def test_long_tool_output_is_cut_with_a_note(tmp_path: Path) -> None:
    output = "\n".join(f"line {i}" for i in range(100))
    session = write(
        tmp_path,
        [
            entry(
                "a",
                None,
                message={
                    "role": "toolResult",
                    "toolCallId": "x",
                    "toolName": "bash",
                    "content": [{"type": "text", "text": output}],
                    "isError": True,
                },
            ),
        ],
    )
    markdown = export_session(session, options=ExportOptions(max_tool_lines=10)).text
    assert "line 9\n" in markdown and "line 10\n" not in markdown
    assert "90 more lines not shown" in markdown
    assert "(error)" in markdown
    whole = export_session(session, options=ExportOptions(max_tool_lines=0)).text
    assert "line 99" in whole and "not shown" not in whole


def test_thinking_images_notes_and_summaries(tmp_path: Path) -> None:
    session = write(
        tmp_path,
        [
            entry(
                "a",
                None,
                message={
                    "role": "user",
                    "content": [
                        {"type": "text", "text": "look"},
                        {"type": "image", "mimeType": "image/png", "data": "A" * 4096},
                    ],
                },
            ),
            entry(
                "b",
                "a",
                message={
                    "role": "assistant",
                    "model": "m1",
                    "provider": "p",
                    "content": [
                        {"type": "thinking", "thinking": "hmm, let me think"},
                        {"type": "text", "text": "done"},
                    ],
                    "usage": {
                        "input": 10,
                        "output": 5,
                        "cacheRead": 0,
                        "cacheWrite": 0,
                        "cost": {"total": 0.5},
                    },
                },
            ),
            {
                "type": "label",
                "id": "l",
                "parentId": "b",
                "timestamp": "2025-01-01T00:00:02.000Z",
                "targetId": "a",
                "label": "start",
            },
            {
                "type": "model_change",
                "id": "m",
                "parentId": "l",
                "timestamp": "2025-01-01T00:00:03.000Z",
                "provider": "p",
                "modelId": "m2",
            },
            {
                "type": "compaction",
                "id": "k",
                "parentId": "m",
                "timestamp": "2025-01-01T00:00:04.000Z",
                "summary": "we looked\nat a picture",
                "firstKeptEntryId": "b",
                "tokensBefore": 1234,
            },
            {
                "type": "branch_summary",
                "id": "s",
                "parentId": "k",
                "timestamp": "2025-01-01T00:00:05.000Z",
                "fromId": "b",
                "summary": "tried another way",
            },
            {
                "type": "session_info",
                "id": "n",
                "parentId": "s",
                "timestamp": "2025-01-01T00:00:06.000Z",
                "name": "Pictures",
            },
        ],
    )
    markdown = export_session(session).text
    assert markdown.startswith("# Pictures\n")
    assert "<details><summary>Thinking</summary>\n\nhmm, let me think\n\n</details>" in markdown
    assert "\\[image: image/png, 3.0 KB\\]" in markdown and "AAAA" not in markdown
    assert "*Label `start` on `a`*" in markdown
    assert "*Model: `p/m2`*" in markdown
    assert "> we looked\n> at a picture" in markdown and "(1234 tokens before)" in markdown
    assert "> tried another way" in markdown
    assert "**Models:** `p/m1`" in markdown
    assert "input 10, output 5" in markdown and "**Cost:** $0.5000" in markdown


def test_title_is_the_first_user_message_without_a_name(tmp_path: Path) -> None:
    session = write(
        tmp_path, [entry("a", None, message={"role": "user", "content": "  Fix *the*\nbug  "})]
    )
    assert export_session(session).text.startswith("# Fix \\*the\\* bug\n")


def test_control_characters_are_made_visible(tmp_path: Path) -> None:
    session = write(
        tmp_path, [entry("a", None, message={"role": "user", "content": "red \x1b[31m text"})]
    )
    markdown = export_session(session).text
    assert "\x1b" not in markdown and "red ␛[31m text" in markdown


def test_fence_helpers() -> None:
    assert fenced("a ``` b", "py") == "````py\na ``` b\n````"
    assert fenced("x", "evil\nlang`") == "```evillang\nx\n```"
    assert inline_code("a`b") == "``a`b``"
    assert inline_code("`x") == "`` `x ``"
    assert language_for("src/a.PY") == "python" and language_for("Dockerfile") == "dockerfile"
    assert language_for("noext") == "" and language_for(None) == ""


def test_lone_surrogates_and_c1_controls_are_written_safely(tmp_path: Path) -> None:
    raw = entry("a", None, message={"role": "user", "content": "half \ud800 csi \x9b2J del \x7f"})
    (tmp_path / "s.jsonl").write_text(dumps(HEADER) + "\n" + dumps(raw) + "\n", encoding="utf-8")
    session = Session(tmp_path / "s.jsonl")
    for fmt, c1 in (("md", "<U+009B>"), ("html", "&lt;U+009B&gt;")):
        text = export_session(session, options=ExportOptions(format=fmt)).text  # type: ignore[arg-type]
        text.encode("utf-8")  # writable as UTF-8
        assert f"half \ufffd csi {c1}2J del \u2421" in text
    jsonl = export_session(session, options=ExportOptions(format="jsonl")).text
    assert "\x9b" not in jsonl and "\\u009b" in jsonl and "\\ud800" in jsonl
    assert (
        json.loads(jsonl.splitlines()[1])["message"]["content"] == "half \ud800 csi \x9b2J del \x7f"
    )


NEAR_CONTROLS = [
    *"a\t\n\x00\x1f\x7f\x80\x9f\xa0·é\u061b\u061c\u061d\u200d\u200e\u200f\u2010\u2028\u2029",
    *"\u202a\u202e\u202f\u2065\u2066\u2069\u206a😀",
]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(NEAR_CONTROLS), max_size=12).map("".join))
def test_inert_finds_exactly_the_controls_that_visible_shows(text: str) -> None:
    """The byte scan that spares most text the regex misses no control, and makes text
    without one (a `·`, a non-breaking space) no different."""
    assert inert(text) == visible(text)
    assert is_inert(text) == (visible(text) == text)
