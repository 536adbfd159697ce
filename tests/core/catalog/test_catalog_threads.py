"""The catalog from many threads: queries answer from what is indexed so far, never scan, and
never break while a scan and watcher updates run; the end state is a fresh scan's."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import orjson

from pitui.core.catalog.catalog import Catalog
from pitui.demo.generate import generate_corpus, generate_store

QUERIES = ("", "task", '"the"', "re:[a-f]{3}", "cwd:project", "name:task", "nomatchzzz")


def _line(entry_id: str, text: str) -> bytes:
    message = {"role": "user", "content": text, "timestamp": 1_900_000_000_000}
    entry = {"type": "message", "id": entry_id, "parentId": None, "message": message}
    return orjson.dumps({**entry, "timestamp": "2030-03-17T17:46:40.000Z"}) + b"\n"


def _state(catalog: Catalog) -> tuple[list[dict], dict[str, list[str]]]:
    listed = [s.to_json() for s in catalog.sessions()]
    found = {q: [r.summary.path for r in catalog.search(q, sort="recent").rows] for q in QUERIES}
    return listed, found


def _fresh(root: Path) -> tuple[list[dict], dict[str, list[str]]]:
    with Catalog(root, no_cache=True) as catalog:
        catalog.scan()
        return _state(catalog)


def test_queries_do_not_scan(tmp_path: Path) -> None:
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    generate_corpus(root, seed=8, count=10)
    with Catalog(root, cache_dir=cache) as catalog:
        assert catalog.sessions() == [] and catalog.search("").rows == []  # nothing known yet
        catalog.scan()
        known = [s.to_json() for s in catalog.sessions()]
    assert known
    with Catalog(root, cache_dir=cache) as catalog:  # the index answers before any scan
        assert [s.to_json() for s in catalog.sessions()] == known


def test_threads_hammer_while_scanning_and_updating(tmp_path: Path) -> None:
    root, cache = tmp_path / "sessions", tmp_path / "cache"
    paths = generate_corpus(root, seed=9, count=30, include_malformed=False)
    generate_store(root, 220, 6, seed=9)  # > PARALLEL_MIN fresh files: worker processes too
    catalog = Catalog(root, cache_dir=cache)
    errors: list[BaseException] = []
    stop = threading.Event()
    answers: list[int] = []

    def guarded(work: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                work()
            except BaseException as error:
                errors.append(error)

        return run

    def query(n: int) -> None:
        i = n
        while not stop.is_set():
            result = catalog.search(QUERIES[i % len(QUERIES)], sort=("threaded", "recent")[i % 2])
            answers.append(len(result.rows))
            catalog.sessions(cwd="/home/dev/projects/project-03" if i % 3 else None)
            i += 1

    def scan() -> None:
        catalog.scan(progress=lambda done, total: None)  # tool output in the background

    def update() -> None:
        extra = root / "--extra--" / "2030-01-01T00-00-00-000Z_extra.jsonl"
        for i in range(12):
            target = paths[i % len(paths)]
            with target.open("ab") as handle:
                handle.write(_line(f"up{i:06d}", f"appended words {i}"))
            changed = [target]
            if i == 4:
                extra.parent.mkdir(exist_ok=True)
                extra.write_bytes(paths[0].read_bytes())
                changed.append(extra)
            if i == 9:
                extra.unlink()
                changed.append(extra)
            catalog.update_paths(changed)

    workers = [threading.Thread(target=guarded(lambda n=n: query(n))) for n in range(4)]
    writers = [threading.Thread(target=guarded(scan)), threading.Thread(target=guarded(update))]
    try:
        for thread in workers + writers:
            thread.start()
        for thread in writers:
            thread.join(timeout=120)
        stop.set()
        for thread in workers:
            thread.join(timeout=30)
        assert not errors, errors
        assert answers  # the queries ran meanwhile
        catalog.index_tools()  # the background pass, to compare tool-output matches too
        assert _state(catalog) == _fresh(root)
    finally:
        stop.set()
        catalog.close()
