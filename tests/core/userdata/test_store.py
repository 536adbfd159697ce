"""The pins-and-tags file: schema version, survival, broken files, query tokens, ordering."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from pitui.core.catalog.search.threads import CatalogRow
from pitui.core.errors import PituiError
from pitui.core.userdata.arrange import MarkQuery, apply_marks, pinned_first, split_query
from pitui.core.userdata.identity import session_id_of
from pitui.core.userdata.store import SCHEMA_VERSION, Marks, UserData, check_tag, data_dir


def test_pins_and_tags_round_trip(tmp_path: Path) -> None:
    store = UserData(tmp_path / "data")
    assert store.marks() == Marks() and not store.path.exists()  # reading creates nothing
    assert store.set_pinned("s1", "/a.jsonl", True) is True
    assert store.set_pinned("s1", "/a.jsonl", True) is False
    assert store.add_tags("s1", "/moved/a.jsonl", ["b", "a", "b"]) == ["b", "a"]
    assert store.remove_tags("s1", "/a.jsonl", ["a", "zz"]) == ["a"]
    store.set_tags("s2", "/b.jsonl", ["x", "y"])
    marks = UserData(tmp_path / "data").marks()
    assert marks.pinned == {"s1"} and marks.tags == {"s1": ("b",), "s2": ("x", "y")}
    assert store.set_pinned("s1", "/a.jsonl", False) is True
    assert UserData(tmp_path / "data").marks().pinned == frozenset()
    with sqlite3.connect(store.path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("SELECT path FROM sessions WHERE session_id='s1'").fetchone() == (
            "/a.jsonl",
        )


def test_newer_schema_is_left_alone(tmp_path: Path) -> None:
    store = UserData(tmp_path)
    store.set_pinned("s1", "/a", True)
    with sqlite3.connect(store.path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = store.path.read_bytes()
    for action in (store.marks, lambda: store.set_pinned("s2", "/b", True)):
        with pytest.raises(PituiError, match="newer pitui"):
            action()
    assert store.path.read_bytes() == before


def test_broken_file_is_a_one_line_error_and_kept(tmp_path: Path) -> None:
    store = UserData(tmp_path)
    store.path.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(PituiError, match="cannot use the pins and tags file"):
        store.marks()
    with pytest.raises(PituiError):
        store.set_pinned("s", "/p", True)
    assert store.path.read_bytes() == b"not sqlite at all" * 100


def test_data_dir_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PITUI_DATA_DIR", str(tmp_path))
    assert data_dir() == tmp_path
    monkeypatch.delenv("PITUI_DATA_DIR")
    assert data_dir().name == "pitui"


@pytest.mark.parametrize("tag", ["", "a b", 'q"', "x\x1b", "t" * 65])
def test_bad_tags(tag: str) -> None:
    with pytest.raises(PituiError, match="invalid tag"):
        check_tag(tag)


def test_session_id_of(tmp_path: Path) -> None:
    good = tmp_path / "s.jsonl"
    good.write_text('\n{"type":"session","id":"abc","cwd":"/"}\n{"type":"message"}\n')
    assert session_id_of(good) == ("abc", str(good))
    bad = tmp_path / "b.jsonl"
    bad.write_text('{"type":"message","id":"x"}\n')
    for path in (bad, tmp_path, tmp_path / "missing"):
        with pytest.raises(PituiError):
            session_id_of(path)


def test_split_query() -> None:
    assert split_query("foo pin: bar") == MarkQuery("foo   bar", True, ())
    assert split_query("tag:Work x tag:b") == MarkQuery("x", False, ("work", "b"))
    assert split_query('"pin: inside" tag:a') == MarkQuery('"pin: inside"', False, ("a",))
    assert split_query("re:pin:") == MarkQuery("re:pin:")
    assert split_query("spin: xtag:a") == MarkQuery("spin: xtag:a")


def rows_of(ids: list[str], depths: list[int] | None = None) -> list[CatalogRow]:
    rows = []
    for index, sid in enumerate(ids):
        s = _Summary(sid, 1000 - index)
        rows.append(CatalogRow(s, depth=(depths or [0] * len(ids))[index]))  # type: ignore[arg-type]
    return rows


class _Summary:
    def __init__(self, sid: str, ms: int) -> None:
        self.id = sid
        self.modified_ms = ms
        self.path = f"/{sid}.jsonl"
        self.parent_session_path = None


def ids(rows: list[CatalogRow]) -> list[str]:
    return [row.summary.id for row in rows]


def test_pinned_threads_first_stable() -> None:
    rows = rows_of(["a", "b", "b1", "c", "d"], [0, 0, 1, 0, 0])
    marks = Marks(frozenset({"b1", "d"}))
    assert ids(pinned_first(rows, marks)) == ["b", "b1", "d", "a", "c"]
    assert ids(pinned_first(rows, Marks())) == ["a", "b", "b1", "c", "d"]


def test_apply_marks_filters() -> None:
    rows = rows_of(["a", "b", "c"])
    marks = Marks(frozenset({"c"}), {"a": ("Work",), "c": ("work", "x")})
    assert ids(apply_marks(rows, marks, split_query("tag:work"))) == ["c", "a"]
    assert ids(apply_marks(rows, marks, split_query("pin: tag:work"))) == ["c"]
    assert ids(apply_marks(rows, marks, split_query("tag:x tag:work"))) == ["c"]
    assert ids(apply_marks(rows, marks, split_query(""))) == ["c", "a", "b"]
