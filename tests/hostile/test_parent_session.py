"""Paths taken from a session file are never opened outside the session roots unless the
user chooses to: a header's `parentSession` pointing at /etc/passwd or at a real session file
outside the root is only compared with other sessions' paths (threading), never opened or
stat'ed, while listing, searching, previewing and opening the session in the TUI."""

from __future__ import annotations

import builtins
import io
import json
import os
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pitui.core.catalog.catalog import Catalog
from pitui.ui.app import make_app
from pitui.ui.screens.picker import PickerScreen
from pitui.ui.screens.session import SessionScreen
from pitui.ui.widgets.context_pane import ContextPane
from pitui.ui.widgets.entry_tree import EntryTree

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from ui_helpers import settle
from waiting import wait_for

NOW = datetime(2025, 12, 8, 12, 0, tzinfo=UTC)
SIZE = (160, 40)


def write_session(path: Path, sid: str, text: str, parent: str | None, cwd: str) -> Path:
    header: dict[str, Any] = {
        "type": "session",
        "version": 3,
        "id": sid,
        "timestamp": "2025-12-01T10:00:00.000Z",
        "cwd": cwd,
    }
    if parent is not None:
        header["parentSession"] = parent
    message = {
        "type": "message",
        "id": f"{sid[:4]}0001",
        "parentId": None,
        "timestamp": "2025-12-01T10:00:01.000Z",
        "message": {"role": "user", "content": text, "timestamp": 1764583201000},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(header) + "\n" + json.dumps(message) + "\n")
    return path


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-home"))
    outside = write_session(
        tmp_path / "elsewhere" / "real.jsonl", "outside0", "outside text", None, str(tmp_path)
    )
    folder = tmp_path / "agent" / "sessions" / "--proj--"
    cwd = str(tmp_path)
    passwd = write_session(folder / "a.jsonl", "aaaa1111", "alpha passwd", "/etc/passwd", cwd)
    real = write_session(folder / "b.jsonl", "bbbb2222", "bravo outside", str(outside), cwd)
    relative = write_session(
        folder / "c.jsonl", "cccc3333", "charlie relative", "../../../elsewhere/real.jsonl", cwd
    )
    child = write_session(folder / "d.jsonl", "dddd4444", "delta child", str(passwd), cwd)
    then = 1764583201
    for number, path in enumerate((passwd, real, relative, child)):
        os.utime(path, (then + number, then + number))
    return {
        "root": folder.parent,
        "outside": outside,
        "passwd": passwd,
        "real": real,
        "relative": relative,
        "child": child,
    }


@pytest.fixture
def touched(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every path opened (builtins/io/os.open) or stat'ed, from any thread."""
    seen: list[str] = []

    def spy(real: Any) -> Any:
        def wrapper(file: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(file, (str, bytes, os.PathLike)):
                seen.append(os.path.abspath(os.fsdecode(file)))
            return real(file, *args, **kwargs)

        return wrapper

    for module, name in ((builtins, "open"), (io, "open"), (os, "open"), (os, "stat")):
        monkeypatch.setattr(module, name, spy(getattr(module, name)))
    yield seen


def forbidden(store: dict[str, Path]) -> set[str]:
    return {"/etc/passwd", str(store["outside"]), str(store["outside"].parent)}


def test_catalog_lists_and_threads_without_opening_parents(
    store: dict[str, Path], tmp_path: Path, touched: list[str]
) -> None:
    with Catalog(store["root"], cache_dir=tmp_path / "cache") as catalog:
        catalog.scan()
        result = catalog.search("", sort="threaded")
        for query in ("alpha", "outside", "re:.*", "passwd"):
            catalog.search(query)
    rows = {Path(r.summary.path).name: r for r in result.rows}
    assert set(rows) == {"a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl"}
    by_name = {name: row.summary.parent_session_path for name, row in rows.items()}
    assert by_name["a.jsonl"] == "/etc/passwd"  # listed as the header says
    assert by_name["b.jsonl"] == str(store["outside"])
    for name in ("a.jsonl", "b.jsonl", "c.jsonl"):
        assert rows[name].depth == 0, name  # a parent outside the root: a root
    assert rows["d.jsonl"].depth == 1  # a parent inside the root: threaded under it
    order = [Path(r.summary.path).name for r in result.rows]
    assert order.index("d.jsonl") == order.index("a.jsonl") + 1
    assert touched, "the spy records"
    assert not forbidden(store) & set(touched)


def test_list_command_does_not_open_parents(
    store: dict[str, Path],
    tmp_path: Path,
    touched: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
) -> None:
    from pitui.cli import main

    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(store["root"].parent))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    assert main(["list", "--all"]) == 0
    assert main(["list", "--all", "--json"]) == 0
    assert main(["context", str(store["passwd"])]) == 0
    assert main(["tree", str(store["real"])]) == 0
    out = capsys.readouterr().out
    assert "root:" not in out  # nothing of /etc/passwd
    assert not forbidden(store) & set(touched)


async def test_tui_previews_and_opens_without_opening_parents(
    store: dict[str, Path], tmp_path: Path, touched: list[str]
) -> None:
    app = make_app(
        sessions_root=store["root"],
        all_scope=True,
        watch=False,
        cache_dir=tmp_path / "cache",
        now=NOW,
        home=str(tmp_path),
        cwd=str(tmp_path),
    )
    async with app.run_test(size=SIZE) as pilot:
        picker = pilot.app.screen
        assert isinstance(picker, PickerScreen)
        await wait_for(pilot, lambda: picker.scanned and len(picker.rows) == 4)
        await settle(pilot)
        assert [r.depth for r in picker.rows].count(0) == 3
        for _ in range(4):  # preview every session
            await pilot.press("down")
            await pilot.pause(0.1)
            await settle(pilot)
        for query in ("alpha", "bravo", "charlie"):
            await pilot.press("ctrl+u")  # clears the search box
            await pilot.press(*query)
            await wait_for(pilot, lambda: not picker.search_pending, "the list to answer")
            await settle(pilot)
            await pilot.press("enter")
            screen = pilot.app.screen
            assert isinstance(screen, SessionScreen), query
            await wait_for(pilot, lambda s=screen: s.live is not None)
            await wait_for(pilot, lambda s=screen: bool(s.query_one(ContextPane).rows))
            await pilot.press("end", "home", "enter")
            await settle(pilot)
            tree = screen.query_one(EntryTree)
            if tree.typed or tree.search_text:
                await pilot.press("escape")  # the marks of the search it was opened with
            await pilot.press("escape")
            await pilot.pause()
            assert pilot.app.screen is picker
    assert not forbidden(store) & set(touched)
