"""A large HTML export as an index and a folder of parts: linked, complete, escaped."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from pitui.cli import main
from pitui.core.errors import PituiError
from pitui.core.export import html_pages
from pitui.core.export.destination import write_result
from pitui.core.export.export import ExportResult, export_session
from pitui.core.export.options import ExportOptions
from pitui.core.session.session import Session
from pitui.demo.generate import write_session
from tests.core.export.test_export_html import HEADER, HOSTILE, parse

TURNS = 30


def _entries(turns: int) -> list[dict[str, Any]]:
    """User and assistant messages in turn, each user message saying its number."""
    entries: list[dict[str, Any]] = []
    for n in range(turns):
        for role, text in (("user", f"ask {n} {HOSTILE}"), ("assistant", f"answer {n} " * 40)):
            content = text if role == "user" else [{"type": "text", "text": text}]
            entries.append(
                {
                    "type": "message",
                    "id": f"{role[0]}{n}",
                    "parentId": entries[-1]["id"] if entries else None,
                    "timestamp": "2025-01-01T00:00:01.000Z",
                    "message": {"role": role, "content": content},
                }
            )
    return entries


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(html_pages, "PART_CHARS", 3_000)  # a few turns a part


@pytest.fixture
def session(tmp_path: Path) -> Session:
    return Session(write_session(tmp_path / "s.jsonl", HEADER, _entries(TURNS)))


def _export(session: Session, **options: Any) -> ExportResult:
    return export_session(session, options=ExportOptions(format="html", **options))


def _main_html(page: str) -> str:
    return page.split("<main>\n", 1)[1].split("</main>", 1)[0]


def _hrefs(page: str) -> list[str]:
    return [str(attrs["href"]) for tag, attrs in parse(page).tags if tag == "a"]


def test_a_small_export_is_one_page(session: Session) -> None:
    assert _export(session).paged is None


@pytest.mark.usefixtures("small_parts")
def test_parts_hold_every_block_of_the_one_page_in_order(session: Session, tmp_path: Path) -> None:
    one_page = _export(session).text
    written = write_result(tmp_path / "out.html", _export(session))
    parts = sorted((tmp_path / "out-parts").iterdir())
    assert written == tmp_path / "out.html" and len(parts) > 3
    pages = [_main_html(part.read_text()) for part in parts]
    assert "".join(pages) == _main_html(one_page)
    for n in range(TURNS):  # every entry whole in one part
        counts = [len(re.findall(rf"answer {n}(?!\d)", page)) for page in pages]
        assert sorted(counts)[-2:] == [0, 40]


@pytest.mark.usefixtures("small_parts")
def test_index_and_parts_link_each_other(session: Session, tmp_path: Path) -> None:
    index = write_result(tmp_path / "out.html", _export(session, context=True))
    links = _hrefs(index.read_text())
    parts = sorted((tmp_path / "out-parts").iterdir())
    assert links == [f"out-parts/{part.name}" for part in parts]
    assert "Messages 1–" in index.read_text()
    for number, part in enumerate(parts):
        expected = ["../out.html"]
        expected += [parts[number - 1].name] if number > 0 else []
        expected += [parts[number + 1].name] if number + 1 < len(parts) else []
        hrefs = [href for href in _hrefs(part.read_text()) if not href.startswith("http")]
        assert hrefs == expected * 2  # the same links above and below the part
        assert f"Part {number + 1} of {len(parts)}" in part.read_text()


@pytest.mark.usefixtures("small_parts")
def test_pages_escape_session_text_and_the_file_name(session: Session, tmp_path: Path) -> None:
    name = 'a "q" <b> & #x.html'
    index = write_result(tmp_path / name, _export(session)).read_text()
    parsed = parse(index)
    assert not {"script", "img", "b"} & {tag for tag, _ in parsed.tags}
    assert "ask 0 <script>alert(1)</script>" in "".join(parsed.text)  # the preview, as text
    folder = tmp_path / 'a "q" <b> & #x-parts'
    for href in _hrefs(index):
        assert re.fullmatch(r"[A-Za-z0-9%/._-]+", href)
        assert (tmp_path / unquote(href)).is_file()
    for part in folder.iterdir():
        page = part.read_text()
        assert "<script" not in page.lower()
        assert unquote(_hrefs(page)[0]) == f"../{name}"


@pytest.mark.usefixtures("small_parts")
def test_a_folder_there_is_replaced_only_with_force_and_only_if_made_of_parts(
    session: Session, tmp_path: Path
) -> None:
    write_result(tmp_path / "out.html", _export(session))
    with pytest.raises(PituiError, match="exists; use --force"):
        write_result(tmp_path / "out.html", _export(session))
    (tmp_path / "out-parts" / "part-999.html").write_text("stale")
    write_result(tmp_path / "out.html", _export(session), force=True)
    assert not (tmp_path / "out-parts" / "part-999.html").exists()
    (tmp_path / "out-parts" / "notes.txt").write_text("mine")
    with pytest.raises(PituiError, match="not a folder of export parts"):
        write_result(tmp_path / "out.html", _export(session), force=True)
    assert (tmp_path / "out-parts" / "notes.txt").read_text() == "mine"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.usefixtures("small_parts")
def test_the_refusal_names_what_is_in_the_way(session: Session, tmp_path: Path) -> None:
    (tmp_path / "out-parts").mkdir()
    (tmp_path / "out-parts" / "notes.txt").write_text("mine")
    with pytest.raises(PituiError, match=r"out-parts exists and is not a folder of export parts"):
        write_result(tmp_path / "out.html", _export(session))
    (tmp_path / "out-parts" / "notes.txt").unlink()
    with pytest.raises(PituiError, match=r"out-parts exists; use --force"):
        write_result(tmp_path / "out.html", _export(session))
    assert not (tmp_path / "out.html").exists()


@pytest.mark.usefixtures("small_parts")
def test_a_numbered_name_has_its_file_and_folder_both_free(
    session: Session, tmp_path: Path
) -> None:
    (tmp_path / "out-parts").mkdir()
    written = write_result(tmp_path / "out.html", _export(session), numbered=True)
    assert written == tmp_path / "out-2.html"
    assert _hrefs(written.read_text())[0].startswith("out-2-parts/")
    assert (tmp_path / "out-2-parts").is_dir() and not list((tmp_path / "out-parts").iterdir())


@pytest.mark.usefixtures("small_parts")
def test_cli_writes_pages_and_says_so(
    session: Session, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.html"
    assert main(["export", str(session.path), "--format", "html", "-o", str(out)]) == 0
    parts = len(list((tmp_path / "x-parts").iterdir()))
    assert f"and its {parts} parts in {tmp_path / 'x-parts'}/" in capsys.readouterr().err
    assert main(["export", str(session.path), "--format", "html"]) == 0
    captured = capsys.readouterr()
    assert captured.out.count("<main>") == 1 and "with -o PATH" in captured.err
