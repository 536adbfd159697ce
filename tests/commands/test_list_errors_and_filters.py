"""`pitui list`: what it prints when the search cannot be made, and pitui's own filters."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pitui.cli import main
from pitui.core.catalog.search import regex_query


@pytest.mark.parametrize("slow", [False, True])
def test_a_bad_or_too_slow_regex_prints_only_the_error(
    agent: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    slow: bool,
) -> None:
    """Exit status 2 and the error on stderr, no empty table under it; `--json` still
    prints a JSON array (`[]`, as `pitui grep --json` does)."""
    if slow:
        monkeypatch.setattr(regex_query, "BUDGET", 0.0)  # every regex is too slow
    query = "re:parser" if slow else "re:(unclosed"
    said = "Regular expression too slow" if slow else "Invalid regular expression"
    assert main(["list", "--all", query]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert f"pitui: {said}" in err
    assert main(["list", "--all", query, "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out) == [] and f"pitui: {said}" in err


def test_a_bare_label_lists_the_sessions_with_any_label(
    agent: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a bare `tag:` lists the tagged sessions and `pin:` the pinned ones; `label:VALUE`
    is unchanged, and `pitui grep label:` finds the labelled entries."""
    assert main(["list", "--all", "--json"]) == 0
    every = json.loads(capsys.readouterr().out)
    labelled = [s["path"] for s in every if s["labels"]]
    assert labelled and len(labelled) < len(every)
    assert main(["list", "--all", "label:", "--json"]) == 0
    assert [s["path"] for s in json.loads(capsys.readouterr().out)] == labelled
    label = next(s["labels"][0] for s in every if s["labels"])
    assert main(["list", "--all", f"label:{label}", "--json"]) == 0
    assert [s["path"] for s in json.loads(capsys.readouterr().out)] == [
        s["path"] for s in every if label in s["labels"]
    ]
    assert main(["list", "--all", "label:"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert len(table) == 1 + len(labelled) and "(no sessions)" not in table
    assert main(["grep", "--all", "label:", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits and {h["path"] for h in hits} <= set(labelled)
