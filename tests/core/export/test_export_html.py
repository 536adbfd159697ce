"""The HTML export: well formed, self-contained, no script, session HTML shown as text."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from pitui.core.export.export import export_session
from pitui.core.export.html import STYLE
from pitui.core.export.options import ExportOptions
from pitui.core.session.session import Session
from pitui.demo.generate import write_session
from tests.core.export.export_helpers import store_sessions

HEADER = {
    "type": "session",
    "version": 3,
    "id": "s1",
    "timestamp": "2025-01-01T00:00:00.000Z",
    "cwd": "/p",
}
VOID = {"meta", "br", "hr", "img", "input", "link"}
HOSTILE = (
    "<script>alert(1)</script> <img src=x onerror=alert(2)> "
    "[click](javascript:alert(3)) [site](https://example.com/page) ![pixel](https://tracker.example/p.png) "
    "<a href='https://evil.example'>raw</a> </details></main>"
)


class StrictParser(HTMLParser):
    """Records every tag and attribute; fails on a tag closed out of order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> StrictParser:
    parser = StrictParser()
    parser.feed(page)
    parser.close()
    assert parser.stack == [], f"unclosed: {parser.stack}"
    return parser


def html_of(session: Session, **options: object) -> str:
    return export_session(session, options=ExportOptions(format="html", **options)).text  # type: ignore[arg-type]


def test_every_store_session_is_well_formed_and_self_contained(tmp_path: Path) -> None:
    for session in store_sessions(tmp_path)[:12]:
        for context in (False, True):
            page = html_of(session, context=context)
            parsed = parse(page)
            assert "<script" not in page.lower()
            for tag, attrs in parsed.tags:
                assert "src" not in attrs, tag
                assert not any(name.startswith("on") for name in attrs), tag
                if "href" in attrs:
                    assert tag == "a" and attrs["rel"] == "noopener noreferrer nofollow"
                    assert str(attrs["href"]).startswith(("http://", "https://", "mailto:"))
            assert "prefers-color-scheme: dark" in page


def test_session_html_is_shown_as_text(tmp_path: Path) -> None:
    message = {"role": "user", "content": HOSTILE}
    session = Session(
        write_session(
            tmp_path / "s.jsonl",
            HEADER,
            [
                {
                    "type": "message",
                    "id": "a",
                    "parentId": None,
                    "timestamp": "2025-01-01T00:00:01.000Z",
                    "message": message,
                },
                {
                    "type": "session_info",
                    "id": "n",
                    "parentId": "a",
                    "timestamp": "2025-01-01T00:00:02.000Z",
                    "name": "<script>x</script>",
                },
            ],
        )
    )
    page = html_of(session)
    parsed = parse(page)
    tags = [tag for tag, _ in parsed.tags]
    assert "script" not in tags and "img" not in tags
    text = "".join(parsed.text)
    assert "<script>alert(1)</script>" in text and "<img src=x onerror=alert(2)>" in text
    assert "<title>&lt;script&gt;x&lt;/script&gt;</title>" in page
    links = [attrs for tag, attrs in parsed.tags if tag == "a"]
    assert {a.get("href") for a in links} == {
        "https://example.com/page",
        "https://tracker.example/p.png",
    }
    assert all(a["rel"] == "noopener noreferrer nofollow" for a in links)
    assert "[image: pixel]" in text  # an image is a link, never loaded
    assert tags.count("details") == 0 and tags.count("main") == 1


def test_thinking_is_a_details_element(tmp_path: Path) -> None:
    message = {
        "role": "assistant",
        "content": [{"type": "thinking", "thinking": "</details> *deep*"}],
    }
    session = Session(
        write_session(
            tmp_path / "s.jsonl",
            HEADER,
            [
                {
                    "type": "message",
                    "id": "a",
                    "parentId": None,
                    "timestamp": "2025-01-01T00:00:01.000Z",
                    "message": message,
                },
            ],
        )
    )
    parsed = parse(html_of(session))
    assert [tag for tag, _ in parsed.tags].count("details") == 1
    assert "</details> " in "".join(parsed.text)


def test_template_requests_nothing() -> None:
    assert "url(" not in STYLE and "@import" not in STYLE and "http" not in STYLE


def test_fenced_blocks_render_as_markdown_it_does() -> None:
    """The shortcut for blocks that are one fence gives markdown-it's own HTML."""
    from pitui.core.export.fence import fenced
    from pitui.core.export.html import _MD, _fence_html, render_markdown

    samples = [
        fenced("a < b && c > \"d\" 'e'\n  indented\n", "python"),
        fenced("``` inside ````\n", "json"),
        fenced("", ""),
        fenced("x", "c++"),
        fenced("-a < b\n+a > b\n context\n\n", "diff"),
        "```\nnot closed",
        "```js\ncode\n```\ntext after\n```",
        "plain text",
    ]
    for text in samples:
        assert render_markdown(text) == _MD.render(text), text
    assert (
        _fence_html("plain text") is None
        and _fence_html("```js\ncode\n```\ntext after\n```") is None
    )


def test_fast_fences_equal_markdown_it_over_the_store(tmp_path: Path) -> None:
    from pitui.core.export.build import document
    from pitui.core.export.document import inert
    from pitui.core.export.html import _MD, render_markdown

    blocks = [b for s in store_sessions(tmp_path)[:12] for b in document(s).blocks]
    assert sum(b.markdown.startswith("```") for b in blocks) >= 40
    for block in blocks:
        assert render_markdown(block.markdown) == _MD.render(inert(block.markdown))


def test_pages_equal_markdown_it_alone_over_the_store(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Every shortcut (fences, marked code blocks, simple blocks) off, markdown-it renders
    every block: the same page, byte for byte."""
    from pitui.core.export import html
    from pitui.core.export.build import document
    from pitui.core.export.fence import fenced

    documents = [document(s) for s in store_sessions(tmp_path)[:12]]
    assert sum(b.language is not None for d in documents for b in d.blocks) >= 40
    fast = ["".join(html.html_parts(d)) for d in documents]
    monkeypatch.setattr(
        html, "code_html", lambda text, language: html._MD.render(fenced(text, language))
    )
    monkeypatch.setattr(html, "_fence_html", lambda text: None)
    monkeypatch.setattr(html, "simple_html", lambda text: None)
    assert fast == ["".join(html.html_parts(d)) for d in documents]


PAYLOADS = [
    HOSTILE,
    "<script>alert(1)</script>",  # alone on its line: an HTML block were raw HTML on
    "**Tool call** `<script>alert(1)</script>` <iframe src=javascript:alert(1)>",
    "plain javascript:alert(1) and `</code><script>x</script>`",
    "### `<img src=x onerror=alert(1)>` heading",
    "<javascript:alert(1)> <https://ok.example> [a](  javascript:alert(1)  ) [b](JAVASCRIPT:x)",
    "[c]: javascript:alert(1)\n\n[c] ![d](data:image/png;base64,AAAA) [e](vbscript:x)",
]


def every_role(payload: str) -> list[dict[str, object]]:
    """Messages of every role (and every content block) that carry `payload`."""
    call = {"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": payload}}
    write = {
        "type": "toolCall",
        "id": "c2",
        "name": "write",
        "arguments": {"path": payload, "content": payload},
    }
    edit = {
        "type": "toolCall",
        "id": "c3",
        "name": "edit",
        "arguments": {"path": payload, "edits": [{"oldText": payload, "newText": payload + "!"}]},
    }
    return [
        {"role": "user", "content": payload},
        {"role": "user", "content": [{"type": "text", "text": payload}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": payload},
                {"type": "text", "text": payload},
                call,
                write,
                edit,
            ],
            "errorMessage": payload,
            "stopReason": "error",
        },
        {
            "role": "toolResult",
            "toolCallId": "c1",
            "toolName": "bash",
            "content": [{"type": "text", "text": payload}],
        },
        {"role": "bashExecution", "command": payload, "output": payload, "exitCode": 0},
        {"role": "custom", "customType": payload, "content": payload},
        {"role": "branchSummary", "summary": payload},
        {"role": "compactionSummary", "summary": payload},
    ]


def test_html_in_any_message_stays_inert(tmp_path: Path) -> None:
    raws: list[dict[str, object]] = []
    for payload in PAYLOADS:
        for message in every_role(payload):
            parent = raws[-1]["id"] if raws else None
            raws.append(
                {
                    "type": "message",
                    "id": f"m{len(raws)}",
                    "parentId": parent,
                    "timestamp": "2025-01-01T00:00:01.000Z",
                    "message": message,
                }
            )
    raws.append(
        {
            "type": "label",
            "id": "l",
            "parentId": raws[-1]["id"],
            "targetId": "m0",
            "timestamp": "2025-01-01T00:00:02.000Z",
            "label": PAYLOADS[0],
        }
    )
    session = Session(write_session(tmp_path / "s.jsonl", HEADER, raws))
    for context in (False, True):
        page = html_of(session, context=context)
        parsed = parse(page)
        for tag, attrs in parsed.tags:
            assert tag not in {"script", "img", "iframe", "object", "embed", "svg"}, tag
            assert not any(name.startswith("on") or name == "src" for name in attrs), tag
            if "href" in attrs:
                assert str(attrs["href"]).startswith(("http://", "https://", "mailto:")), attrs
        text = "".join(parsed.text)
        assert text.count("<script>alert(1)</script>") >= 10
        hrefs = [attrs["href"] for tag, attrs in parsed.tags if "href" in attrs]
        assert not any("javascript" in str(h).lower() for h in hrefs)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(["`", "``", "```", "\n", " ", "a", '<&">', "~~~", "é·", "\t"]), max_size=20
    ).map("".join),
    st.text(max_size=6),
)
def test_code_blocks_render_unchecked_as_markdown_it_does(text: str, language: str) -> None:
    """What `fenced` makes is turned into HTML without being checked: as markdown-it does."""
    from pitui.core.export.document import code_block
    from pitui.core.export.fence import fenced
    from pitui.core.export.html import _MD, code_html

    block = code_block(text, language)
    assert block.markdown == fenced(text, language)
    assert code_html(block.text, block.language or "") == _MD.render(block.markdown)


def test_long_tool_output_and_long_messages_are_folded_short_ones_shown(tmp_path: Path) -> None:
    """A page of a large session opens fast: a long block is in a <details> whose summary
    says its size and begins its first line; a short one stays open; still no script."""
    long_output = "".join(f"line {i} <b>\n" for i in range(300))
    entries = [
        {"type": "message", "id": "u", "parentId": None, "timestamp": "2025-01-01T00:00:01.000Z",
         "message": {"role": "user", "content": "short question", "timestamp": 1}},
        {"type": "message", "id": "t", "parentId": "u", "timestamp": "2025-01-01T00:00:02.000Z",
         "message": {"role": "toolResult", "toolCallId": "c", "toolName": "bash",
                     "content": [{"type": "text", "text": long_output}], "isError": False,
                     "timestamp": 2}},
        {"type": "message", "id": "a", "parentId": "t", "timestamp": "2025-01-01T00:00:03.000Z",
         "message": {"role": "assistant", "content": [{"type": "text", "text": "x" * 5000}],
                     "api": "x", "provider": "p", "model": "m", "stopReason": "stop",
                     "timestamp": 3}},
    ]  # fmt: skip
    page = html_of(Session(write_session(tmp_path / "s.jsonl", HEADER, entries)))
    parsed = parse(page)
    summaries = [page[m : page.index("</summary>", m)] for m in _starts(page, "<summary>")]
    assert any(s.startswith("<summary>Output · 60 lines: line 0 &lt;b&gt;") for s in summaries)
    assert any(s.startswith("<summary>Long message · 5,000 characters: xxx") for s in summaries)
    assert "short question" in page and "<script" not in page
    folded = page[page.index("Output · 60 lines") : page.index("</details>", page.index("Output"))]
    assert "line 59 &lt;b&gt;" in folded  # the output as cut (--max-tool-lines), inside the fold
    assert [tag for tag, _ in parsed.tags].count("details") == 2
    assert "content-visibility: auto" in STYLE  # off-screen blocks are not laid out


def _starts(text: str, needle: str) -> list[int]:
    found, at = [], text.find(needle)
    while at != -1:
        found.append(at)
        at = text.find(needle, at + 1)
    return found
