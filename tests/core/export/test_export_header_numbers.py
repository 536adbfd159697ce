"""The export header's tokens and cost, as the messages record them, read and written as
JavaScript does: a count past 64 bits (a double for JSON.parse) kept, `1e400` Infinity, a
cost of 1e308 `1e+308` as `pitui stats` writes it, never a 309-digit number."""

from __future__ import annotations

from pathlib import Path

import pytest

from pitui.cli import main

HEADER = (
    '{"type":"session","version":3,"id":"0199bbbb-0000-7000-8000-000000000002",'
    '"timestamp":"2026-12-01T00:00:00.000Z","cwd":"/tmp/numbers"}'
)
ASKED = (
    '{"type":"message","id":"u1","parentId":null,"timestamp":"2026-12-01T00:00:00.000Z",'
    '"message":{"role":"user","content":"hi","timestamp":1796000000000}}'
)


def _answered(usage: str) -> str:
    return (
        '{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-12-01T00:00:01.000Z",'
        '"message":{"role":"assistant","content":[{"type":"text","text":"ok"}],"api":"x",'
        f'"provider":"p","model":"m","usage":{usage},"stopReason":"stop",'
        '"timestamp":1796000000001}}'
    )


HUGE = (  # written as no JSON encoder of Python's writes them: the file's own bytes
    '{"input":1e400,"output":123456789012345678901234567890,"cacheRead":0,"cacheWrite":0,'
    '"totalTokens":5,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":1e308}}'
)


@pytest.fixture(autouse=True)
def _own_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pitui's folders and Pi's in the test's folder (stats keeps a cache)."""
    for name in ("PI_CODING_AGENT_DIR", "PITUI_CACHE_DIR", "PITUI_CONFIG_DIR", "PITUI_DATA_DIR"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)


def _session(tmp_path: Path, usage: str) -> Path:
    path = tmp_path / "numbers.jsonl"
    path.write_text("\n".join([HEADER, ASKED, _answered(usage)]) + "\n", encoding="utf-8")
    return path


def _header(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    assert main(["export", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    return [line for line in lines if line.startswith(("- **Tokens:**", "- **Cost:**"))]


def test_counts_past_64_bits_and_a_huge_cost_are_written_as_javascript_writes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _session(tmp_path, HUGE)
    assert _header(path, capsys) == [
        "- **Tokens:** input Infinity, output 1.2345678901234568e+29, cacheRead 0, cacheWrite 0",
        "- **Cost:** $1e+308",
    ]
    assert main(["stats", "--all", "--session-dir", str(tmp_path)]) == 0
    total = capsys.readouterr().out.splitlines()[-1].split()
    assert "1.2345678901234568e+29" in total and total[-1] == "$1e+308"  # as pitui stats


def test_ordinary_counts_keep_their_grouped_digits_and_the_cost_four_places(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    usage = (
        '{"input":1234567,"output":9007199254740993,"cacheRead":2.5,"cacheWrite":0,'
        '"cost":{"total":0.5}}'
    )
    assert _header(_session(tmp_path, usage), capsys) == [
        # an integer past 2**53 is the double JSON.parse makes of it
        "- **Tokens:** input 1,234,567, output 9,007,199,254,740,992, cacheRead 2.5, cacheWrite 0",
        "- **Cost:** $0.5000",
    ]
