"""A session being written (pi at work) is indexed from where its last read ended, with
nothing that grows with the session read back or written again on each change: its parents
are stored by the parts each read adds, and the builder is resumed from as it was left."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.index.index import parents_of, stored_parents
from pitui.core.catalog.scan import lines
from pitui.core.catalog.session_info.builder import SummaryBuilder

HEADER = {"type": "session", "version": 3, "id": "s", "timestamp": "2026-01-01T00:00:00.000Z",
          "cwd": "/work"}  # fmt: skip


def _entry(entry_id: str, parent: str | None, text: str = "words") -> bytes:
    line = {"type": "message", "id": entry_id, "parentId": parent,
            "timestamp": "2026-01-01T00:00:01.000Z",
            "message": {"role": "user", "content": text}}  # fmt: skip
    return json.dumps(line).encode() + b"\n"


# Each step is appended, then the session re-indexed: a chain, a parent named before its
# entry is written (that entry is then no leaf), a branch, a repeated id, a partial last line.
STEPS = [
    [_entry("b", "a"), _entry("c", "b")],
    [_entry("d", "later")],
    [_entry("later", "c"), _entry("e", "b")],
    [_entry("c", "e"), _entry("f", "d")],
    [_entry("g", "f")[:-9]],
    [_entry("g", "f")[-9:], _entry("h", "g")],
]


def _summary(catalog: Catalog, path: Path) -> dict[str, Any]:
    return catalog.index.summaries([str(path)])[str(path)].to_record()


def _fresh(root: Path, folder: Path, path: Path) -> dict[str, Any]:
    with Catalog(root, cache_dir=folder) as fresh:
        fresh.scan()
        return _summary(fresh, path)


def _tree_parts(catalog: Catalog, path: Path) -> list[list[str]]:
    found = catalog.index.db.execute(
        "SELECT p.ids FROM tree_parts p JOIN files f ON f.id = p.file_id WHERE f.path=? "
        "ORDER BY p.rowid",
        (str(path),),
    )
    return [parents_of(ids) for (ids,) in found]


def test_a_growing_session_is_resumed_without_reading_its_parents_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    (root / "--work--").mkdir(parents=True)
    path = root / "--work--" / "s.jsonl"
    path.write_bytes(json.dumps(HEADER).encode() + b"\n" + _entry("a", None))
    loads: list[int] = []
    from_state = SummaryBuilder.from_state.__func__  # type: ignore[attr-defined]

    def counted(cls: type[SummaryBuilder], *args: Any, **kwargs: Any) -> SummaryBuilder:
        loads.append(1)
        return from_state(cls, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(SummaryBuilder, "from_state", classmethod(counted))
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        for n, step in enumerate(STEPS):
            with path.open("ab") as fh:
                fh.write(b"".join(step))
            assert catalog.update_paths([path]) == [path]
            assert _summary(catalog, path) == _fresh(root, tmp_path / f"fresh{n}", path)
        assert loads == []  # resumed from the builder kept, never from the stored state
        state = catalog.index.db.execute(
            "SELECT state FROM files WHERE path=?", (str(path),)
        ).fetchone()[0]
        assert "parents" not in json.loads(state)  # stored apart, by parts
        assert _tree_parts(catalog, path) == [["a", "b"], ["later"], ["c"], ["e", "d"], ["f", "g"]]
        assert _summary(catalog, path)["branch_count"] == 1  # h: every other id is a parent

    # another catalog on the same cache resumes from the stored state and parts
    with path.open("ab") as fh:
        fh.write(_entry("i", "later") + _entry("later", "h"))
    with Catalog(root, cache_dir=cache) as other:
        other.update_paths([path])
        assert loads == [1]
        assert _summary(other, path) == _fresh(root, tmp_path / "fresh-last", path)
        assert _tree_parts(other, path)[-1] == ["h"]


class _Asking:
    """A file whose reads are recorded (how many bytes each asked for)."""

    def __init__(self, fh: io.BufferedReader) -> None:
        self.fh, self.asked = fh, list[int]()

    def read(self, size: int = -1) -> bytes:
        self.asked.append(size)
        return self.fh.read(size)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.fh.seek(offset, whence)

    def fileno(self) -> int:
        return self.fh.fileno()


def test_line_reader_asks_for_what_was_appended(tmp_path: Path) -> None:
    """Read on from where a read ended, it asks for the bytes the file holds past there (and
    one more), not a whole chunk: `read(n)` allocates n bytes first, and a session being
    written is read on by a few KB at each change. A file that grows while it is read is
    still read to its end."""
    path = tmp_path / "s.jsonl"
    before = _entry("0", None)
    first = b"".join(_entry(f"{n}", None) for n in range(1, 21))
    path.write_bytes(before + first)
    got: list[bytes] = []
    with path.open("rb") as raw:
        fh = _Asking(raw)
        reader = lines.LineReader(fh, len(before))  # type: ignore[arg-type]
        for data, _ in reader:
            got += data.split(b"\n")
            if len(got) == 20:
                with path.open("ab") as out:
                    out.write(_entry("more", None) + b"{}")
    assert max(fh.asked) <= len(first) + 1 < lines.CHUNK
    assert len(got) == 21 and reader.tail == b"{}"
    assert reader.offset == len(before + first) + len(_entry("more", None))


@pytest.mark.parametrize(
    ("parents", "packed"),
    [
        (["393e4305", "a627c557", "00000000"], True),  # Pi's ids: 4 bytes each
        (["393e4305", "A627C557"], False),  # not as Pi writes them: JSON
        (["6f1c0e3a-9a4b-4d36-8d0e-2f1b3c4d5e6f", "393e4305"], False),
        (["393e430", "caf\u00e9cafe", 12, None], False),
        ([], False),
    ],
)
def test_stored_parents_read_back_as_written(parents: list[object], packed: bool) -> None:
    stored = stored_parents(parents)
    assert parents_of(stored) == parents
    assert (len(stored) == 1 + 4 * len(parents)) is packed
