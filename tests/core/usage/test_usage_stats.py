"""Usage sums: equal to sums computed independently over a store with branches, compactions,
forks, usage entries and repeated ids; each reply counted once; served from the cache."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from usage_store import build_store, independent_totals

from pitui.core.usage import cache as cache_module
from pitui.core.usage.cache import UsageCache
from pitui.core.usage.extract import TOOLS_MODEL, read_usage
from pitui.core.usage.groups import Group, summarize
from pitui.core.usage.load import load_usage


def _paths(root: Path) -> list[str]:
    return sorted(str(p) for p in root.rglob("*.jsonl"))


def _assert_totals(total: Group, expected: dict[str, float]) -> None:
    for name in ("messages", "input", "output", "cache_read", "cache_write"):
        assert getattr(total, name) == expected[name], name
    assert total.cost == pytest.approx(expected["cost"], rel=1e-9)


def test_totals_equal_independent_sums(tmp_path: Path) -> None:
    paths = build_store(tmp_path / "sessions")
    infos, rows, *_ = load_usage(_paths(tmp_path / "sessions"), folder=tmp_path / "cache")
    stats = summarize(infos, rows, "day")
    expected = independent_totals(paths)
    assert expected["messages"] > 20
    _assert_totals(stats.total, expected)
    for by in ("week", "month", "model", "provider", "project", "session"):
        other = summarize(infos, rows, by)
        _assert_totals(other.total, expected)
        assert sum(g.cost for g in other.groups) == pytest.approx(expected["cost"])


def test_a_fork_counts_only_its_own_replies_while_its_parent_exists(tmp_path: Path) -> None:
    paths = build_store(tmp_path / "sessions")
    child, grandchild = paths[-2], paths[-1]
    infos, rows, *_ = load_usage(_paths(tmp_path / "sessions"), folder=tmp_path / "cache")
    by_session = {g.key: g for g in summarize(infos, rows, "session").groups}
    assert by_session[str(child)].messages == 1
    assert by_session[str(grandchild)].messages == 1


def test_removing_a_parent_moves_its_copied_replies_to_the_fork(tmp_path: Path) -> None:
    paths = build_store(tmp_path / "sessions")
    expected = independent_totals(paths)
    parent = paths[1]
    load_usage(_paths(tmp_path / "sessions"), folder=tmp_path / "cache")
    parent.unlink()
    rest = _paths(tmp_path / "sessions")
    infos, rows, *_ = load_usage(rest, folder=tmp_path / "cache", whole_folders=True)
    kept = json.loads((tmp_path / "cache" / cache_module.FILE_NAME).read_bytes())
    assert str(parent) not in kept["files"]  # a gone file leaves the cache
    stats = summarize(infos, rows, "session")
    _assert_totals(stats.total, expected)  # nothing lost, nothing twice
    by_session = {g.key: g for g in stats.groups}
    assert by_session[str(paths[-2])].messages > 1


def test_a_gone_middle_session_is_traced_through_the_cache(tmp_path: Path) -> None:
    paths = build_store(tmp_path / "sessions")
    expected = independent_totals(paths)
    files = _paths(tmp_path / "sessions")
    load_usage(files, folder=tmp_path / "cache", whole_folders=True)  # the cache knows them
    child = paths[-2]  # the grandchild's parent; its own parent paths[1] stays
    child.unlink()
    rest = [f for f in files if f != str(child)]
    usage = load_usage(rest, folder=tmp_path / "cache", whole_folders=True)
    stats = summarize(usage.infos, usage.rows, "session", lineage=usage.lineage)
    assert stats.total.messages == expected["messages"]
    assert stats.total.cost == pytest.approx(expected["cost"])
    by_session = {g.key: g for g in stats.groups}
    assert by_session[str(paths[-1])].messages == 2  # its own and the one its parent made


def test_usage_entries_tool_results_and_summaries_count_as_pi_counts(tmp_path: Path) -> None:
    paths = build_store(tmp_path / "sessions")
    usage = read_usage(str(paths[0]))
    assert usage is not None
    models = {key[2] for key in usage.buckets}
    assert TOOLS_MODEL in models and "claude-opus-4-1" in models


def test_cache_rereads_only_changed_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_store(tmp_path / "sessions")
    files = _paths(tmp_path / "sessions")
    load_usage(files, folder=tmp_path / "cache")
    read: list[str] = []
    import pitui.core.usage.extract as extract

    real = extract.read_usage
    monkeypatch.setattr(extract, "read_usage", lambda p: read.append(p) or real(p))
    first = summarize(*load_usage(files, folder=tmp_path / "cache")[:2]).total
    assert read == []
    with open(files[0], "a", encoding="utf-8") as fh:
        fh.write('{"type":"label","id":"bb000001","parentId":null,"timestamp":"x"}\n')
    again = summarize(*load_usage(files, folder=tmp_path / "cache")[:2]).total
    assert read == [files[0]]
    assert again.cost == first.cost and again.messages == first.messages


def test_many_changed_files_read_by_worker_processes_give_the_same_usage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_store(tmp_path / "sessions")
    (tmp_path / "sessions" / "not-a-session.jsonl").write_text('{"type":"message"}\n')
    files = [*_paths(tmp_path / "sessions"), str(tmp_path / "sessions" / "gone.jsonl")]
    alone = load_usage(files, folder=tmp_path / "alone")
    from pitui.core.catalog.scan.workers import Workers

    chunks: list[int] = []
    real = Workers.map_chunks

    def counted(self: Workers, work, items):  # type: ignore[no-untyped-def]
        for chunk, found in real(self, work, items):
            chunks.append(len(chunk))
            yield chunk, found

    monkeypatch.setattr(Workers, "map_chunks", counted)
    monkeypatch.setattr(cache_module, "PARALLEL_READS", 2)
    shared = load_usage(files, folder=tmp_path / "shared")
    assert sum(chunks) == len(files) - 1  # every file there was, by the workers' chunks
    assert (shared.infos, shared.rows, shared.lineage) == (alone.infos, alone.rows, alone.lineage)
    assert len(shared.infos) == len(files) - 2 and shared.rows
    again = load_usage(files, folder=tmp_path / "shared")  # kept: nothing read again
    assert sum(chunks) == len(files) - 1 and again.rows == alone.rows


def test_partial_last_line_is_not_counted_until_complete(tmp_path: Path) -> None:
    paths = build_store(tmp_path / "sessions")
    before = read_usage(str(paths[2]))
    line = (
        '{"type":"message","id":"cc000001","parentId":null,"timestamp":"2027-01-01T00:00:00.000Z",'
        '"message":{"role":"assistant","content":[],"usage":{"input":5,"output":5,"cacheRead":0,'
        '"cacheWrite":0,"cost":{"total":1}}}}'
    )
    with paths[2].open("a", encoding="utf-8") as fh:
        fh.write(line)
    partial = read_usage(str(paths[2]))
    assert partial is not None and before is not None
    assert sum(v[0] for v in partial.buckets.values()) == sum(v[0] for v in before.buckets.values())
    with paths[2].open("a", encoding="utf-8") as fh:
        fh.write("\n")
    whole = read_usage(str(paths[2]))
    assert whole is not None
    assert sum(v[5] for v in whole.buckets.values()) == pytest.approx(
        sum(v[5] for v in before.buckets.values()) + 1
    )


def test_odd_values_and_not_sessions_do_not_break_it(tmp_path: Path) -> None:
    odd = tmp_path / "odd.jsonl"
    odd.write_text(
        '{"type":"session","id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}\n'
        '{"type":"message","id":1,"message":{"role":"assistant","usage":{"input":"7",'
        '"output":true,"cost":{"total":"9"}},"model":["x"]}}\n'
        '{"type":"message","id":"a","message":"not an object","timestamp":5}\n'
        'garbage "usage"\n',
        encoding="utf-8",
    )
    usage = read_usage(str(odd))
    assert usage is not None
    assert [v[:6] for v in usage.buckets.values()] == [[1, 0, 0, 0, 0, 0.0]]
    not_session = tmp_path / "n.jsonl"
    not_session.write_text('{"type":"message","id":"a"}\n', encoding="utf-8")
    assert read_usage(str(not_session)) is None


def test_token_counts_past_64_bits_are_summed_as_javascript_numbers(tmp_path: Path) -> None:
    """JSON.parse reads 2**70 as a double; Python kept the integer, which the usage cache
    (orjson) could not write: `pitui stats` died. Counted now as the double, and kept."""
    folder = tmp_path / "sessions"
    folder.mkdir()
    (folder / "big.jsonl").write_text(
        '{"type":"session","id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}\n'
        '{"type":"message","id":"a","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":'
        '"assistant","provider":"p","model":"m","usage":{"input":1180591620717411303424,'
        '"output":3,"cost":{"total":1}}}}\n',
        encoding="utf-8",
    )
    files = _paths(folder)
    total = summarize(*load_usage(files, folder=tmp_path / "cache")[:2]).total
    assert total.input == 2.0**70 and type(total.input) is float
    assert total.output == 3 and total.cost == 1
    assert (tmp_path / "cache" / "usage-cache.json").exists()  # kept: read once
    again = summarize(*load_usage(files, folder=tmp_path / "cache")[:2]).total
    assert again.input == total.input


def test_since_until_and_grouping_keys(tmp_path: Path) -> None:
    build_store(tmp_path / "sessions")
    infos, rows, *_ = load_usage(_paths(tmp_path / "sessions"), folder=tmp_path / "cache")
    days = summarize(infos, rows, "day")
    keys = [g.key for g in days.groups]
    assert keys == sorted(keys) and len(keys) > 3
    middle = keys[len(keys) // 2]
    part = summarize(infos, rows, "day", since=middle, until=middle)
    assert [g.key for g in part.groups] == [middle]
    assert part.total.cost == pytest.approx(days.groups[len(keys) // 2].cost)
    months = summarize(infos, rows, "month")
    assert all(len(g.key) == 7 for g in months.groups)
    weeks = summarize(infos, rows, "week")
    assert all("-W" in g.key for g in weeks.groups)


def test_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    build_store(tmp_path / "sessions")
    files = _paths(tmp_path / "sessions")
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / cache_module.FILE_NAME).write_bytes(b"not json" * 100)
    infos, rows, *_ = load_usage(files, folder=folder)
    assert infos and rows
    cache = UsageCache(folder)
    assert cache.refresh(files)[0] == infos
    cache.close()
    kept = json.loads((folder / cache_module.FILE_NAME).read_bytes())
    assert set(kept["files"]) == set(files)


def test_a_file_name_that_is_not_utf8_leaves_only_itself_out_of_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """orjson refuses its lone surrogate: the whole cache was not kept, every file read again."""
    build_store(tmp_path / "sessions")
    files = _paths(tmp_path / "sessions")
    odd = os.fsdecode(os.fsencode(files[0])[:-6] + b"\xff.jsonl")
    os.rename(files[0], odd)
    files = [odd, *files[1:]]
    first = load_usage(files, folder=tmp_path / "cache")
    assert first[2] is None  # no notice
    kept = json.loads((tmp_path / "cache" / cache_module.FILE_NAME).read_bytes())
    assert set(kept["files"]) == set(files[1:])
    read: list[str] = []
    import pitui.core.usage.extract as extract

    real = extract.read_usage
    monkeypatch.setattr(extract, "read_usage", lambda p: read.append(p) or real(p))
    again = load_usage(files, folder=tmp_path / "cache")
    assert read == [odd] and again[:2] == first[:2]
