"""The picker's `file:PATH`: the sessions that wrote or edited PATH (or anything under a
folder), from the index's file ops; the same sessions `pitui log` finds."""

from __future__ import annotations

import os
from pathlib import Path

from file_edits import CALC_EDITS, EditingSession

from pitui.core.catalog.catalog import Catalog
from pitui.core.catalog.search.query import parse_query
from pitui.core.file_history.history import file_history, targets_of

PROJ = "/home/u/proj"


def store(tmp_path: Path) -> dict[str, Path]:
    """Sessions by what they did (each in its own cwd, relative or absolute paths)."""
    sessions = tmp_path / "sessions"
    made: dict[str, Path] = {}

    def save(name: str, cwd: str, fill) -> None:  # type: ignore[no-untyped-def]
        session = EditingSession(cwd, seed=len(made) + 1)
        fill(session)
        made[name] = session.save(sessions)

    save(
        "relative edit",
        PROJ,
        lambda s: s.call("edit", {"path": "src/calc.py", "edits": CALC_EDITS}),
    )
    save("absolute write", "/elsewhere", lambda s: s.write(f"{PROJ}/src/calc.py", "x"))
    save("legacy edit", f"{PROJ}/src", lambda s: s.call("edit", {"path": "./calc.py", "oldText": "a", "newText": "b"}))  # fmt: skip
    save("failed edit", PROJ, lambda s: s.edit("src/calc.py", "a", "b", error=True))
    save("no result", PROJ, lambda s: s.edit("src/calc.py", "a", "b", answered=False))
    save("only read", PROJ, lambda s: s.call("read", {"path": "src/calc.py"}))
    save("other file", PROJ, lambda s: s.write("src/calc.pyc", "x"))
    save("docs", PROJ, lambda s: s.write("docs/a.md", "x"))
    return made


def search(tmp_path: Path, query: str, here: str, **options) -> set[str]:  # type: ignore[no-untyped-def]
    with Catalog(tmp_path / "sessions", cache_dir=tmp_path / "cache") as catalog:
        catalog.scan(tools="later")
        result = catalog.search(query, here=here, index_tools=True, **options)
    return {row.summary.path for row in result.rows}


def logged(tmp_path: Path, path: str) -> set[str]:
    """The sessions `pitui log --all` names for `path`."""
    with Catalog(tmp_path / "sessions", no_cache=True) as catalog:
        catalog.scan()
        history = file_history(catalog.sessions(), targets_of(path))
    return set(history.sessions)


def test_file_keeps_its_case_and_takes_a_quoted_path() -> None:
    query = parse_query('fix file:Src/Calc.py file: "my dir/a b.txt"')
    assert query.files == ["Src/Calc.py", "my dir/a b.txt"]
    assert [t.value for t in query.tokens] == ["fix"]


def test_the_sessions_that_wrote_or_edited_the_file_as_log_says(tmp_path: Path) -> None:
    made = store(tmp_path)
    found = search(tmp_path, "file:src/calc.py", here=PROJ)
    names = {name for name, path in made.items() if str(path) in found}
    assert names == {"relative edit", "absolute write", "legacy edit"}
    assert found == logged(tmp_path, f"{PROJ}/src/calc.py")
    assert search(tmp_path, f"file:{PROJ}/src/calc.py", here="/") == found  # absolute
    assert search(tmp_path, "file:../calc.py", here=f"{PROJ}/src/x") == found


def test_a_folder_matches_everything_under_it(tmp_path: Path) -> None:
    made = store(tmp_path)
    found = search(tmp_path, f"file:{PROJ}", here="/")
    names = {name for name, path in made.items() if str(path) in found}
    assert names == {"relative edit", "absolute write", "legacy edit", "other file", "docs"}
    assert found == logged(tmp_path, PROJ)
    assert search(tmp_path, "file:src/", here=PROJ) == {
        str(made[n]) for n in ("relative edit", "absolute write", "legacy edit", "other file")
    }
    assert search(tmp_path, "file:sr", here=PROJ) == set()  # a folder, not a prefix


def test_with_words_and_other_filters(tmp_path: Path) -> None:
    made = store(tmp_path)
    assert search(tmp_path, "file:src/calc.py cwd:/elsewhere", here=PROJ) == {
        str(made["absolute write"])
    }
    assert search(tmp_path, "file:src/calc.py file:docs", here=PROJ) == set()
    assert search(tmp_path, "file:nothing/here.py", here=PROJ) == set()


def test_a_symbolic_link_matches_where_it_leads(tmp_path: Path) -> None:
    made = store(tmp_path)
    link = tmp_path / "link"
    os.symlink(PROJ, link)  # dangling on this machine: realpath still follows it
    found = search(tmp_path, f"file:{link}/docs/a.md", here="/")
    assert found == {str(made["docs"])}


def test_appended_calls_and_a_rewritten_file(tmp_path: Path) -> None:
    made = store(tmp_path)
    assert str(made["only read"]) not in search(tmp_path, "file:src/calc.py", here=PROJ)
    later = EditingSession(PROJ, seed=99)
    later.write("src/calc.py", "y")
    lines = later.save(tmp_path / "later").read_text().splitlines()[2:]  # its calls alone
    with made["only read"].open("a") as fh:
        fh.write("\n".join(lines) + "\n")
    assert str(made["only read"]) in search(tmp_path, "file:src/calc.py", here=PROJ)
    made["only read"].write_text(made["docs"].read_text())  # replaced: its ops again
    found = search(tmp_path, "file:src/calc.py", here=PROJ)
    assert str(made["only read"]) not in found
    assert str(made["only read"]) in search(tmp_path, "file:docs", here=PROJ)
