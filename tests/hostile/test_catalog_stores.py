"""One index cache shared by many stores: a listing holds only files under the roots being
listed that exist now, and a warm index lists exactly what `--no-cache` lists (issue 14)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pitui.cli import main
from pitui.core.catalog.catalog import Catalog

STORES = ("a", "b")
FOLDERS = ("--p1--", "--p2--")


def _session(path: Path, sid: str, minute: int) -> None:
    stamp = f"2026-01-01T00:{minute:02d}:00.000Z"
    header = {"type": "session", "version": 3, "id": sid, "timestamp": stamp, "cwd": "/w"}
    msg = {"type": "message", "id": "m1", "parentId": None, "timestamp": stamp,
           "message": {"role": "user", "content": f"hello {sid}", "timestamp": 1}}  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(orjson.dumps(header) + b"\n" + orjson.dumps(msg) + b"\n")


def _listed(root: Path, cache: Path | None, custom: Path | None = None) -> list[dict]:
    with Catalog(root, custom_dir=custom, cache_dir=cache, no_cache=cache is None) as catalog:
        catalog.scan(tools="later")
        return [s.to_json() for s in catalog.sessions()]


def test_cli_list_all_keeps_stores_apart(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    for name in STORES:
        _session(tmp_path / name / "sessions" / "--p--" / f"{name}.jsonl", f"id-{name}", 1)
    ids = {}
    for name in STORES:
        monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / name))
        assert main(["list", "--all", "--json"]) == 0
        ids[name] = [d["id"] for d in json.loads(capsys.readouterr().out)]
    assert ids == {"a": ["id-a"], "b": ["id-b"]}
    shutil.rmtree(tmp_path / "a")
    assert main(["list", "--all", "--json"]) == 0
    assert [d["id"] for d in json.loads(capsys.readouterr().out)] == ["id-b"]


OPS = st.lists(
    st.tuples(
        st.sampled_from(["add", "append", "delete", "rmfolder", "rmstore", "look", "lookdir"]),
        st.sampled_from(STORES),
        st.sampled_from(FOLDERS),
        st.integers(0, 3),
    ),
    min_size=1,
    max_size=8,
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS)
def test_warm_index_lists_what_no_cache_lists(tmp_path_factory, ops) -> None:  # type: ignore[no-untyped-def]
    base = tmp_path_factory.mktemp("stores")
    cache = base / "cache"
    for step, (op, store, folder, n) in enumerate(ops):
        root = base / store / "sessions"
        path = root / folder / f"s{n}.jsonl"
        if op == "add":
            _session(path, f"{store}{folder}{n}-{step}", step)
        elif op == "append" and path.exists():
            with path.open("ab") as fh:
                fh.write(
                    b'{"type":"session_info","id":"x%d","parentId":"m1","name":"n%d"}\n'
                    % (step, step)
                )
        elif op == "delete":
            path.unlink(missing_ok=True)
        elif op == "rmfolder":
            shutil.rmtree(root / folder, ignore_errors=True)
        elif op == "rmstore":
            shutil.rmtree(base / store, ignore_errors=True)
        custom = root / folder if op == "lookdir" else None
        assert _listed(root, cache, custom) == _listed(root, None, custom)
        for other in STORES:  # every store, as each next browse would see it
            other_root = base / other / "sessions"
            assert _listed(other_root, cache) == _listed(other_root, None)
