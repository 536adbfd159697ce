"""Incremental indexing: after every change the index answers what a fresh scan answers."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import orjson

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.index.index import DB_NAME
from pitui.demo.generate import generate_corpus


def _fresh(root: Path) -> list[dict]:
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        return [s.to_json() for s in catalog.sessions()]


def _indexed(root: Path, cache: Path) -> list[dict]:
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        return [s.to_json() for s in catalog.sessions()]


def _line(entry_id: str, text: str) -> bytes:
    message = {"role": "user", "content": text, "timestamp": 1_900_000_000_000}
    entry = {"type": "message", "id": entry_id, "parentId": None, "message": message}
    return orjson.dumps({**entry, "timestamp": "2030-03-17T17:46:40.000Z"}) + b"\n"


def test_append_rewrite_truncate_delete_new_folder(tmp_path: Path) -> None:
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = generate_corpus(root, seed=3, count=12)
    assert _indexed(root, cache) == _fresh(root)
    target = paths[2]
    with target.open("ab") as fh:  # append
        fh.write(_line("feed0001", "appended words"))
    assert _indexed(root, cache) == _fresh(root)
    assert any(s["firstMessage"] for s in _fresh(root))
    target.write_bytes(paths[3].read_bytes())  # rewrite
    assert _indexed(root, cache) == _fresh(root)
    data = paths[4].read_bytes()
    paths[4].write_bytes(data[: len(data) // 2])  # truncate (leaves a partial last line)
    assert _indexed(root, cache) == _fresh(root)
    paths[5].unlink()  # delete
    assert _indexed(root, cache) == _fresh(root)
    generate_corpus(root / "--new-project--", seed=9, count=6, include_malformed=False)
    new = root / "--brand-new--"
    new.mkdir()
    (new / "x.jsonl").write_bytes(paths[0].read_bytes())
    assert _indexed(root, cache) == _fresh(root)


def test_partial_line_completed_later(tmp_path: Path) -> None:
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = generate_corpus(root, seed=1, count=6, include_malformed=False)
    line = _line("feed0002", "half written")
    with paths[0].open("ab") as fh:
        fh.write(line[:20])
    with Catalog(root, cache_dir=cache) as catalog:
        catalog.scan()
        summary = next(s for s in catalog.sessions() if s.path == str(paths[0]))
        assert summary.writing_in_progress
        assert summary.malformed_lines == 0  # being written, not malformed
        with paths[0].open("ab") as fh:
            fh.write(line[20:])
        assert catalog.update_paths([paths[0]]) == [paths[0]]
        summary = catalog.index.summaries([str(paths[0])])[str(paths[0])]  # with its text
        assert not summary.writing_in_progress and "half written" in summary.all_messages_text
    assert _indexed(root, cache) == _fresh(root)


def test_grown_file_reads_only_appended_bytes(tmp_path: Path, monkeypatch) -> None:
    from pitui.core.catalog.scan import scanner

    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = generate_corpus(root, seed=2, count=6, include_malformed=False)
    _indexed(root, cache)
    with paths[1].open("ab") as fh:
        fh.write(_line("feed0003", "one more"))
    expected = _fresh(root)
    fed: list[int] = []
    original = scanner._feed

    def spy(builder, fh, start):  # type: ignore[no-untyped-def]
        fed.append(start)
        return original(builder, fh, start)

    monkeypatch.setattr(scanner, "_feed", spy)
    assert _indexed(root, cache) == expected
    assert fed == [paths[1].stat().st_size - len(_line("feed0003", "one more"))]


def test_corrupt_and_mismatched_index_rebuilt(tmp_path: Path) -> None:
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    generate_corpus(root, seed=4, count=8)
    expected = _fresh(root)
    assert _indexed(root, cache) == expected
    (cache / DB_NAME).write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(f"{cache / DB_NAME}{suffix}").unlink(missing_ok=True)
    assert _indexed(root, cache) == expected
    import sqlite3

    db = sqlite3.connect(cache / DB_NAME)
    db.execute("UPDATE meta SET value='old' WHERE key='schema'")
    db.commit()
    db.close()
    assert _indexed(root, cache) == expected


def test_an_index_of_an_older_schema_gives_its_pages_back(tmp_path: Path) -> None:
    import sqlite3

    root, cache = tmp_path / "sessions", tmp_path / "cache"
    generate_corpus(root, seed=4, count=8)
    _indexed(root, cache)
    db = sqlite3.connect(cache / DB_NAME)
    db.execute("CREATE TABLE old_bulk(data BLOB)")
    db.execute("INSERT INTO old_bulk VALUES(zeroblob(8000000))")  # an old schema's 8 MB
    db.execute("UPDATE meta SET value='old' WHERE key='schema'")
    db.commit()
    db.close()
    big = (cache / DB_NAME).stat().st_size
    assert _indexed(root, cache) == _fresh(root)
    assert (cache / DB_NAME).stat().st_size < big - 7_000_000


def _make_outdated(db_path: Path) -> None:
    import sqlite3

    db = sqlite3.connect(db_path)
    db.execute("UPDATE meta SET value='old' WHERE key='schema'")
    db.commit()
    db.close()


def test_an_index_of_an_older_schema_is_made_anew_unless_shared(tmp_path: Path) -> None:
    """Alone on it, an index of another schema is deleted and made anew (emptying a big
    one took seconds before the app could draw); while another Index has it open, it is
    emptied in place, never deleted from under that one."""
    from pitui.core.catalog.index.file import Claim

    root, cache = tmp_path / "sessions", tmp_path / "cache"
    generate_corpus(root, seed=4, count=8)
    _indexed(root, cache)
    db_path = cache / DB_NAME
    for shared in (False, True):
        _make_outdated(db_path)
        old_file = os.open(db_path, os.O_RDONLY)  # held open: its inode is not reused
        other = Claim(db_path)  # what another Index holds while it has the file open
        assert not shared or other.share()
        try:
            assert _indexed(root, cache) == _fresh(root)
            deleted = os.fstat(old_file).st_nlink == 0
        finally:
            other.release()
            os.close(old_file)
        assert deleted != shared


def test_two_catalogs_one_cache(tmp_path: Path) -> None:
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = generate_corpus(root, seed=5, count=30)
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(3):
                with paths[(n + i) % len(paths)].open("ab") as fh:
                    fh.write(_line(f"c{n}{i}00000"[:8], f"writer {n}"))
                with Catalog(root, cache_dir=cache) as catalog:
                    catalog.scan()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert _indexed(root, cache) == _fresh(root)


def test_reset_never_deletes_a_database_another_index_has_open(tmp_path: Path) -> None:
    """A database error in one catalog must not throw away the files a second catalog on the
    same cache has open (it may be mid-write: "database disk image is malformed"); a busy
    error never rebuilds, and a corrupt index with no other user is rebuilt."""
    import sqlite3

    from pitui.core.catalog.index.index import Index

    root, cache = tmp_path / "sessions", tmp_path / "cache"
    generate_corpus(root, seed=4, count=6, include_malformed=False)
    db_file = cache / DB_NAME
    with Catalog(root, cache_dir=cache) as first:
        first.scan()
        inode = db_file.stat().st_ino
        second = Index(cache)
        second.reset(sqlite3.DatabaseError("database disk image is malformed"))
        assert second.path is None and second.notice  # a temporary index instead
        second.close()
        assert db_file.stat().st_ino == inode
        first.index.write([], [next(iter(first.index.rows()))])  # still writable
        assert len(first.index.rows()) == 5
    alone = Index(cache)
    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = sqlite3.SQLITE_BUSY  # type: ignore[attr-defined]
    alone.reset(busy)
    assert alone.path is None and db_file.stat().st_ino == inode
    alone.close()
    alone = Index(cache)
    alone.reset(sqlite3.DatabaseError("database disk image is malformed"))
    assert alone.path == db_file and alone.notice is None and alone.rows() == {}
    alone.close()


def test_unreadable_dir_reported(tmp_path: Path) -> None:
    root = tmp_path / "sessions"
    generate_corpus(root, seed=6, count=6, include_malformed=False)
    locked = root / "--locked--"
    locked.mkdir()
    locked.chmod(0)
    try:
        with Catalog(root, no_cache=True) as catalog:
            report = catalog.scan()
        if os.geteuid() != 0:
            assert any("--locked--" in u for u in report.unreadable)
        assert report.sessions == 6
    finally:
        locked.chmod(0o755)


def test_scan_report_counts_what_changed(tmp_path: Path) -> None:
    """`changed` is 0 only when the index already answered everything (the picker keeps the
    list it showed then); each new, grown, rewritten or vanished file counts once."""
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = generate_corpus(root, seed=4, count=8, include_malformed=False)

    def changed() -> int:
        with Catalog(root, cache_dir=cache) as catalog:
            return catalog.scan().changed

    assert changed() == len(list(root.rglob("*.jsonl")))  # an empty index: every file
    assert changed() == 0
    with paths[1].open("ab") as fh:
        fh.write(_line("feed0003", "one more line"))
    paths[2].unlink()
    assert changed() == 2
    assert changed() == 0
