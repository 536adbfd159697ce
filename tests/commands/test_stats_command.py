"""`pitui stats` on the command line: scope, grouping, JSON, totals line, bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core" / "usage"))
from usage_store import CWDS, build_store, independent_totals

from pitui.cli import main


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    return build_store(tmp_path / "agent" / "sessions")


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["stats", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_all_json_totals(store: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "--all", "--by", "model")
    expected = independent_totals(store)
    total = data["total"]
    assert total["assistantMessages"] == expected["messages"]
    assert total["cacheRead"] == expected["cache_read"]
    assert total["cost"] == pytest.approx(expected["cost"])
    assert total["sessions"] == len(store)
    assert set(data) == {"by", "since", "until", "groups", "total"}
    assert set(total) == {
        "key",
        "sessions",
        "assistantMessages",
        "input",
        "output",
        "cacheRead",
        "cacheWrite",
        "totalTokens",
        "cost",
    }


def test_current_folder_scope(
    store: list[Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir("/")
    monkeypatch.setattr("os.getcwd", lambda: CWDS[0])
    alpha = _json(capsys, "--by", "project")
    assert [g["key"] for g in alpha["groups"]] == [CWDS[0]]
    every = _json(capsys, "--all", "--by", "project")
    assert {g["key"] for g in every["groups"]} == set(CWDS)
    assert alpha["total"]["cost"] < every["total"]["cost"]


def test_text_table_has_totals_last(store: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--all", "--by", "month"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "MONTH"
    assert lines[-1].startswith("TOTAL")
    data = _json(capsys, "--all", "--by", "month")
    assert len(lines) == len(data["groups"]) + 2
    assert lines[-1].split()[-1] == f"${data['total']['cost']:,.2f}"
    assert lines[-1].split()[2] == f"{data['total']['assistantMessages']:,}"  # as the others


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--since", "yesterday"], "--since: 'yesterday' is not a day as YYYY-MM-DD"),
        (["--since", "2026-13-01"], "--since: 2026-13-01 is not a day that exists"),
        (["--since", "2026-12-32"], "--since: 2026-12-32 is not a day that exists"),
        (["--until", "2026-00-10"], "--until: 2026-00-10 is not a day that exists"),
        (["--until", "2026-02-30"], "--until: 2026-02-30 is not a day that exists"),
        (  # said "(no usage)" and exit 0
            ["--since", "2026-03-02", "--until", "2026-03-01"],
            "--since 2026-03-02 is after --until 2026-03-01",
        ),
    ],
)
def test_bad_date_is_one_line_and_exit_2(
    store: list[Path], capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    assert main(["stats", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"pitui: {said}") and err.count("\n") == 1


def test_empty_scope(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["stats", "--all"]) == 0
    out = capsys.readouterr().out
    assert "(no usage)" in out and out.splitlines()[-1].startswith("TOTAL")


def test_hostile_model_names_stay_inert(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "agent" / "sessions" / "--x--"
    folder.mkdir(parents=True)
    reply = {
        "type": "message", "id": "a1", "parentId": None, "timestamp": "2026-01-01T00:00:01.000Z",
        "message": {"role": "assistant", "content": [], "provider": "evil\x1b[2J",
                    "model": "[bold]m\x07", "usage": {"input": 1, "output": 2, "cacheRead": 0,
                    "cacheWrite": 0, "cost": {"total": 0.5}}},
    }  # fmt: skip
    header = {"type": "session", "id": "s", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/x"}
    (folder / "s.jsonl").write_text(
        json.dumps(header) + "\n" + json.dumps(reply) + "\n", encoding="utf-8"
    )
    assert main(["stats", "--all", "--by", "model"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "$0.50" in out
    assert main(["stats", "--all", "--by", "model", "--json"]) == 0
    text = capsys.readouterr().out
    assert json.loads(text)["groups"][0]["key"] == "evil\x1b[2J/[bold]m\x07"


def test_session_dir_scope_as_pitui_list(
    store: list[Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = store[0].parent.parent / "custom"  # a custom dir with sessions of both cwds
    folder.mkdir()
    for path in store[:4]:
        (folder / path.name).write_bytes(path.read_bytes())
    in_folder = {str(folder / p.name) for p in store[:4]}
    data = _json(capsys, "--session-dir", str(folder), "--all", "--by", "session")
    assert {g["key"] for g in data["groups"]} == in_folder
    monkeypatch.setattr("os.getcwd", lambda: CWDS[1])
    data = _json(capsys, "--session-dir", str(folder), "--by", "project")
    assert [g["key"] for g in data["groups"]] == [CWDS[1]]  # this cwd's sessions in DIR
    data = _json(capsys, "--session-dir", str(folder), "--all", "--by", "project")
    assert {g["key"] for g in data["groups"]} == set(CWDS)


def test_since_takes_an_age_as_prune_does(
    store: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """`--since 30d` is the local day 30 days ago, as prune's `--older-than 30d` counts."""
    import time

    day = time.strftime("%Y-%m-%d", time.localtime(time.time() - 30 * 86_400))
    by_age = _json(capsys, "--all", "--since", "30d")
    assert by_age["since"] == day
    assert by_age == _json(capsys, "--all", "--since", day)
    everything = _json(capsys, "--all", "--since", "100000d")
    assert everything["total"] == _json(capsys, "--all")["total"]
    assert main(["stats", "--since", "3x"]) == 2
    assert main(["stats", "--since", "soon"]) == 2  # neither a day nor an age


def test_every_count_has_its_thousands_separated() -> None:
    """The replies printed 4871 beside INPUT's 1,234,567."""
    from pitui.commands.stats import render
    from pitui.core.usage.groups import Group, Stats

    day = Group("2026-01-02", {f"s{n}" for n in range(1200)}, 4871, 1_234_567, 89_000)
    total = Group("TOTAL", day.sessions, 4871, 1_234_567, 89_000)
    header, line = [row.split() for row in render(Stats("day", [day], total)).splitlines()[:2]]
    assert line[:5] == ["2026-01-02", "1,200", "4,871", "1,234,567", "89,000"]
    assert header[:3] == ["DAY", "SESSIONS", "REPLIES"], "not MSGS: the list's Msgs counts all"


def _reply(n: int, usage: str) -> str:
    return (
        f'{{"type":"message","id":"a{n}","parentId":null,"timestamp":"2026-01-01T00:00:0{n}.000Z",'
        f'"message":{{"role":"assistant","content":[],"provider":"p","model":"m","usage":{usage}}}}}'
    )


def test_huge_and_negative_counts_are_summed_as_pi_sums_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pi adds token counts as JavaScript numbers (getSessionStats, getUsageCostBreakdown):
    1e308 is a double, a negative count is added as it is, 1e308 + 1e308 is Infinity. The
    table printed 1e308 as a 309-digit integer (~400 columns) and the JSON as one no JSON
    reader keeps; a sum past the largest double was a traceback, and once cached (as null)
    another. Now the table keeps its width (`1e+308`, `Infinity`) and the JSON holds the
    number JSON.stringify writes (`1e+308`; null for Infinity)."""
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.setenv("PITUI_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "agent" / "sessions" / "--x--"
    folder.mkdir(parents=True)
    header = '{"type":"session","id":"%s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}\n'
    big = '{"input":1e308,"output":-5,"cacheRead":0.5,"cacheWrite":0,"cost":{"total":1e308}}'
    (folder / "one.jsonl").write_text(header % "one" + _reply(1, big) + "\n", encoding="utf-8")
    data = _json(capsys, "--all", "--by", "session")
    assert data["total"] | {"key": "total"} == {
        "key": "total",
        "sessions": 1,
        "assistantMessages": 1,
        "input": 1e308,
        "output": -5,
        "cacheRead": 0.5,
        "cacheWrite": 0,
        "totalTokens": 1e308,
        "cost": 1e308,
    }
    assert main(["stats", "--all", "--json"]) == 0
    assert '"input": 1e+308,' in capsys.readouterr().out
    assert main(["stats", "--all"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(map(len, lines)) < 90
    assert lines[-1].split() == ["TOTAL", "1", "1", "1e+308", "-5", "0", "0", "$1e+308"]
    (folder / "two.jsonl").write_text(
        header % "two" + _reply(1, big) + "\n" + _reply(2, big) + "\n", encoding="utf-8"
    )
    for by in ("session", "day", "model"):  # summed, then read back from the usage cache
        assert main(["stats", "--all", "--by", by]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[-1].split() == ["TOTAL", "2", "3", "Infinity", "-15", "1", "0", "$Infinity"]
    total = _json(capsys, "--all", "--by", "provider")["total"]
    assert (total["input"], total["output"], total["cacheRead"]) == (None, -15, 1.5)
    assert (total["totalTokens"], total["cost"]) == (None, None)
