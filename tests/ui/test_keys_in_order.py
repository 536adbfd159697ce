"""Keys typed in one burst into the real `pitui` process on a pseudo-terminal, as a fast typist
or a paste sends them: each acts where the one before it left the screen, as in Pi, whose
input is handled a key at a time. Textual gave each key to the focused widget at once, before
the keys ahead of it had their effect: Enter then Ctrl+D (Pi's /tree filter) asked to trash
the session, text typed after Ctrl+U in the name dialog was deleted with the old name (an empty
name was written), and Down typed before a search's answer was undone by it."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from pty_terminal import Pty, ended, pitui_env

from pitui.demo.generate import generate_store, write_demo_store

SIZE = (100, 30)
TARGET = "Speed up zsh startup"
QUERY = "nvm startup"  # TARGET alone
TRASH = "Move this session to the trash?"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("order") / "agent"
    write_demo_store(root)
    generate_store(root / "sessions", 300, 30)
    return root


@pytest.fixture
def agent(store: Path, tmp_path: Path) -> Path:
    """A copy each test may write to, its files last written an hour ago (a file written in
    the last seconds may be a pi writing it: pitui asks before writing to it)."""
    copy = Path(shutil.copytree(store, tmp_path / "agent"))
    an_hour_ago = time.time() - 3600
    for path in copy.rglob("*.jsonl"):
        os.utime(path, (an_hour_ago, an_hour_ago))
    return copy


def search_line(terminal: Pty) -> str:
    return terminal.lines()[1].strip(" ▊▎")


def row_title(terminal: Pty, row: int) -> str:
    """The title of the list's `row`-th row (0: the first, under the column header)."""
    return terminal.lines()[5 + row][:24].strip()


def picker(agent: Path, tmp_path: Path) -> Pty:
    terminal = Pty(pitui_env(agent, tmp_path), size=SIZE)
    terminal.wait_to_show(" shown")
    terminal.wait_for(lambda: not terminal.shows("indexing"), 60, terminal.screen_text)
    return terminal


def answered(terminal: Pty, query: str, first: str) -> None:
    terminal.wait_for(
        lambda: search_line(terminal) == query and row_title(terminal, 0).startswith(first[:20]),
        30,
        terminal.screen_text,
    )


def picker_on_target(agent: Path, tmp_path: Path) -> Pty:
    """The picker with QUERY typed and answered: TARGET its one row."""
    terminal = picker(agent, tmp_path)
    terminal.type(QUERY)
    answered(terminal, QUERY, TARGET)
    return terminal


def target_file(agent: Path) -> Path:
    return next(p for p in (agent / "sessions").rglob("*.jsonl") if "zprof" in p.read_text())


def test_enter_then_ctrl_d_filters_the_tree_and_never_asks_to_trash(
    agent: Path, tmp_path: Path
) -> None:
    session = target_file(agent)
    with ended(picker_on_target(agent, tmp_path)) as terminal:
        terminal.send(b"\r\x04")  # Enter opens the session, Ctrl+D is Pi's /tree filter
        terminal.wait_for(lambda: terminal.lines()[0].strip().startswith(TARGET), 30)
        terminal.wait_to_show("filter: default")
        terminal.send(b"\x1b\x1b")  # the search's marks cleared, then back to the picker
        answered(terminal, QUERY, TARGET)
        terminal.type("x")  # a key after the picker is back: it types, nothing asks
        terminal.wait_for(lambda: search_line(terminal) == QUERY + "x", 10, terminal.screen_text)
        assert not terminal.shows(TRASH)
        terminal.quit()
    assert session.exists()  # still in its folder, not in the trash


def test_letters_after_enter_search_the_tree_not_the_picker(agent: Path, tmp_path: Path) -> None:
    with ended(picker_on_target(agent, tmp_path)) as terminal:
        terminal.send(b"\rzprof")
        terminal.wait_to_show("Search: zprof")
        terminal.send(b"\x1b\x1b")
        answered(terminal, QUERY, TARGET)  # the picker's search as it was
        terminal.quit()


def test_a_name_typed_after_ctrl_u_in_the_name_dialog_is_the_name_written(
    agent: Path, tmp_path: Path
) -> None:
    session = target_file(agent)
    with ended(picker_on_target(agent, tmp_path)) as terminal:
        terminal.send(b"\x12")  # Ctrl+R: the name dialog, the current name in it
        terminal.wait_to_show("Enter saves")
        terminal.send(b"\x15Renamed three\r")  # Ctrl+U, the new name, Enter: at once
        terminal.wait_for(lambda: not terminal.shows("Enter saves"), 10, terminal.screen_text)
        terminal.quit()
    last = json.loads(session.read_text().splitlines()[-1])
    assert (last["type"], last["name"]) == ("session_info", "Renamed three")


def test_a_name_typed_with_the_key_that_opens_the_dialog_is_the_name_written(
    agent: Path, tmp_path: Path
) -> None:
    session = target_file(agent)
    with ended(picker_on_target(agent, tmp_path)) as terminal:
        terminal.send(b"\x12\x15Quick name\r")  # Ctrl+R, Ctrl+U, the name, Enter: at once
        terminal.wait_for(lambda: "Quick name" in session.read_text(), 10, terminal.screen_text)
        terminal.quit()
    assert json.loads(session.read_text().splitlines()[-1])["name"] == "Quick name"


def test_down_typed_before_the_answer_moves_in_the_answer(agent: Path, tmp_path: Path) -> None:
    with ended(picker(agent, tmp_path)) as terminal:
        terminal.type("Task 2")
        terminal.wait_for(
            lambda: all(row_title(terminal, row).startswith("Task 2") for row in (0, 1)), 30
        )  # the answer, not the list before it
        second = row_title(terminal, 1)
        terminal.send(b"\x15")  # Ctrl+U
        terminal.wait_for(lambda: search_line(terminal).startswith("Search"), 10)
        terminal.send(b"Task 2\x1b[B\r")  # the query, Down, Enter: at once
        terminal.wait_for(
            lambda: terminal.lines()[0].strip().startswith(second[:20]), 30, terminal.screen_text
        )
        terminal.quit()


def test_letters_after_an_enter_that_waited_for_the_answer_search_the_tree(
    agent: Path, tmp_path: Path
) -> None:
    """The query, Enter and letters at once: Enter waits for the search's answer, then opens
    the session; the first letter reached the screen before its tree had the focus, and was
    lost ("Search: vm" for "nvm")."""
    with ended(picker(agent, tmp_path)) as terminal:
        terminal.send(b"zprof\rnvm")
        terminal.wait_to_show("Search: nvm")
        terminal.quit()


def test_ctrl_c_right_after_the_key_that_opens_a_dialog_cancels_that_dialog(
    agent: Path, tmp_path: Path
) -> None:
    """Ctrl+C is a priority key (copy, or Pi's cancel in a dialog): it ran before the Ctrl+D
    typed ahead of it had opened the trash dialog, so the dialog stayed, and a next Enter
    trashed the session."""
    session = target_file(agent)
    with ended(picker_on_target(agent, tmp_path)) as terminal:
        terminal.send(b"\x04\x03")  # Ctrl+D (asks to trash), Ctrl+C (cancels): at once
        terminal.type("x")  # typed once the dialog is gone: into the search
        terminal.wait_for(lambda: search_line(terminal) == QUERY + "x", 10, terminal.screen_text)
        assert not terminal.shows(TRASH)
        terminal.quit()
    assert session.exists()


def test_f2_switches_the_theme_over_a_dialog(agent: Path, tmp_path: Path) -> None:
    """F2 (and F1) are listed for every screen; a dialog, a modal screen, hid them."""
    settings = tmp_path / "config" / "settings.json"
    with ended(picker_on_target(agent, tmp_path)) as terminal:
        terminal.send(b"\x04")  # the trash dialog
        terminal.wait_to_show(TRASH)
        terminal.send(b"\x1bOQ")  # F2
        terminal.wait_for(lambda: settings.exists() and "light" in settings.read_text(), 10)
        assert terminal.shows(TRASH)
        terminal.send(b"\x1bOP")  # F1: the keys of the dialog
        terminal.wait_to_show("pitui keys")
        terminal.send(b"\x1bOP")  # F1 again: closes it, back to the dialog
        terminal.wait_for(lambda: not terminal.shows("pitui keys"), 10, terminal.screen_text)
        assert terminal.shows(TRASH)
        terminal.quit()
