"""`re:` patterns are bounded before they compile (size, expanded repeats), and a search's
matching budget is its own, not shared with every other thread's."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pitui.core.catalog.search import regex_query
from pitui.core.catalog.search.query import parse_query
from pitui.core.catalog.search.regex_query import TimedSearch, compile_pattern, expansion

BOMB = "(?:(?:(?:(?:a{80}){80}){80}){80})"  # 33 characters, 11.6 GB while compiling


@pytest.mark.parametrize(
    "pattern",
    [
        "(?:(?:(?:a{80}){80}){80})",  # compiled before, in 156 MB: 512,000 copies of "a"
        "(?:a{400}){400}",
        "x{99999999999}",
        "a" * 2_001,
    ],
)
def test_patterns_over_the_bounds_are_refused_before_compiling(pattern: str) -> None:
    with pytest.raises(ValueError) as raised:
        compile_pattern(pattern)
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 120


@pytest.mark.parametrize(
    ("pattern", "items"),
    [
        ("abc", 3),
        ("(?:a{80}){80}", 6_400),
        ("(a|b){4}", 8),
        (r"\p{L}{3}", 3),  # braces of an escape, not a repeat
        ("[{]{50}x{a}", 54),  # a brace in a class, a literal brace
        ("a{3,}b*c{2,5}", 3 + 1 + 5),  # loops are not copies
        ("(?P<word>ab){3}(?#{999})", 6),
    ],
)
def test_what_a_pattern_expands_to(pattern: str, items: int) -> None:
    assert expansion(pattern) == items
    compile_pattern(pattern)


def test_the_bomb_is_one_line_from_the_cli_and_takes_no_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a 2 GB address-space limit: before, compiling ran out of it (a traceback)."""
    folder = tmp_path / "agent" / "sessions" / "--w--"
    folder.mkdir(parents=True)
    header = {"type": "session", "version": 3, "id": "s1", "cwd": "/w",
              "timestamp": "2026-01-01T00:00:00.000Z"}  # fmt: skip
    (folder / "s.jsonl").write_text(json.dumps(header) + "\n")
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run(
        [sys.executable, "-m", "pitui", "list", "--all", f"re:{BOMB}"],
        capture_output=True, text=True, timeout=120, preexec_fn=limit,
    )  # fmt: skip
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("pitui: Invalid regular expression") and "expand to over" in line
    assert parse_query(f"re:{BOMB}").error == line.removeprefix("pitui: ")


def test_a_search_counts_only_its_own_matching_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Time spent waiting while other searches match (40 MCP threads in a burst) is not
    this search's: before, wall time was, and ordinary patterns ended as "too slow"."""
    now = [0.0]
    monkeypatch.setattr(regex_query, "_clock", lambda: now[0])
    search = TimedSearch(compile_pattern("b+"))
    held = 0
    while regex_query.SLOTS.acquire(blocking=False):  # every core busy with other searches
        held += 1
    found: list[bool] = []
    waiting = threading.Thread(target=lambda: found.append(search.found("abb")))
    waiting.start()
    now[0] += 60.0  # a minute passes before a slot is free
    for _ in range(held):
        regex_query.SLOTS.release()
    waiting.join(timeout=60)
    assert found == [True]
    assert search.found("xb")  # not "too slow": the budget is all there


def test_plain_queries_are_bounded_with_one_line() -> None:
    from pitui.core.catalog.search.query import MAX_QUERY, MAX_TOKENS, parse_query

    long = parse_query("a" * (MAX_QUERY + 1))
    assert long.error == f"query over 2,000 characters ({MAX_QUERY + 1:,}); shorten it"
    many = parse_query(" ".join(f"w{i}" for i in range(MAX_TOKENS + 1)))
    assert many.error == f"query of over {MAX_TOKENS} words ({MAX_TOKENS + 1}); use fewer"
    assert parse_query(" ".join(f"w{i}" for i in range(MAX_TOKENS))).error is None
    bad = parse_query("re:(" + "x" * 500)
    assert bad.error is not None and len(bad.error) < 200 and "\n" not in bad.error


def test_a_query_too_long_stops_the_command(capsys) -> None:  # type: ignore[no-untyped-def]
    from pitui.cli import main

    assert main(["list", "--all", "word " * 20_000]) == 2
    assert (
        capsys.readouterr().err.strip() == "pitui: query over 2,000 characters (99,999); shorten it"
    )
