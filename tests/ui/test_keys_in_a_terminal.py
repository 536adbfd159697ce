"""Keys typed into the real `pitui` process on a pseudo-terminal, read back from a terminal
model (pyte): every key lands where the screen says, in the order typed, from launch on, and
a key that types never writes a file or starts a program.

Each launch is a new process: typed at once or a key at a time, at several delays after
launch, with no index yet, a warm one, and a session file changed since the index was built.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from pty_terminal import Pty, ended, pitui_env

from pitui.demo.generate import generate_store, write_demo_store

TARGET = "Speed up zsh startup"  # the one session with an entry saying both words
QUERY = "nvm startup"
SIZE = (100, 30)


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store among 300 generated sessions: an index takes a moment to build."""
    root = tmp_path_factory.mktemp("keys") / "agent"
    write_demo_store(root)
    generate_store(root / "sessions", 300, 30)
    return root


def prepare(agent: Path, tmp_path: Path, cache: str) -> dict[str, str]:
    env = pitui_env(agent, tmp_path)
    if cache in ("warm", "touched"):  # the app's index, built by a first launch
        with ended(Pty(env, size=SIZE)) as first:
            first.wait_to_show(" shown")
            first.wait_for(lambda: not first.shows("indexing"))
            first.quit()
    if cache == "touched":
        target = next(p for p in (agent / "sessions").rglob("*.jsonl") if "zprof" in p.read_text())
        os.utime(target)  # newer than the index: read again at launch
    return env


def search_line(terminal: Pty) -> str:
    """The search box's text: the line under its top border."""
    return terminal.lines()[1].strip(" ▊▎")


def highlighted_title(terminal: Pty) -> str:
    """The first list row (under the status line and the column header)."""
    return terminal.lines()[5][:40].strip()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("cache", "delay", "every"),
    [
        ("empty", 0.0, 0.0),
        ("empty", 0.4, 0.03),
        ("empty", 1.2, 0.0),
        ("warm", 0.0, 0.03),
        ("warm", 0.3, 0.0),
        ("warm", 0.8, 0.06),
        ("touched", 0.1, 0.0),
        ("touched", 0.6, 0.03),
    ],
)
def test_a_search_typed_at_launch_lands_in_order_and_enter_opens_the_first_row(
    agent: Path, tmp_path: Path, cache: str, delay: float, every: float
) -> None:
    env = prepare(agent, tmp_path, cache)
    with ended(Pty(env, size=SIZE)) as terminal:
        time.sleep(delay)
        terminal.type(QUERY, every)
        terminal.send(b"\r")
        terminal.wait_for(
            lambda: terminal.lines()[0].strip().startswith(TARGET), 30, terminal.screen_text
        )
        terminal.wait_to_show(f"Matches: {QUERY}   Esc clears")  # the tree at the first match
        terminal.send(b"\x1b")  # Esc clears the marks of the search the session was opened with
        terminal.wait_for(lambda: not terminal.shows("Esc clears"), 10, terminal.screen_text)
        terminal.send(b"\x1b")  # back to the picker: the search is as typed

        # the picker again, the search as typed, its first row highlighted (waited for: a frame
        # can reach the terminal model in more than one read)
        def back() -> bool:
            return search_line(terminal) == QUERY and highlighted_title(terminal).startswith(TARGET)

        terminal.wait_for(back, 10, terminal.screen_text)
        terminal.quit()


@pytest.mark.slow
def test_letters_in_the_picker_and_the_tree_search_and_never_write_or_launch(
    agent: Path, tmp_path: Path
) -> None:
    env = prepare(agent, tmp_path, "warm")
    before = sorted(agent.rglob("*.jsonl"))
    with ended(Pty(env, size=SIZE)) as terminal:
        terminal.wait_to_show(" shown")
        terminal.send(b"\x1b[B")  # Down: the selection moves, the search box keeps the keys
        terminal.type("frpc?L", 0.02)  # once: resume, fork, ...
        terminal.wait_for(lambda: search_line(terminal) == "frpc?L", 10, terminal.screen_text)
        terminal.send(b"\x15")  # Ctrl+U clears the box
        terminal.type(QUERY + "\r")
        terminal.wait_for(
            lambda: terminal.lines()[0].strip().startswith(TARGET), 30, terminal.screen_text
        )
        terminal.wait_to_show(f"Matches: {QUERY}   Esc clears")  # the tree at the first match
        terminal.send(b"\x1b")  # Esc clears the marks of the search the session was opened with
        terminal.wait_for(lambda: not terminal.shows("Esc clears"), 10, terminal.screen_text)
        terminal.type("Fix model gzn", 0.02)  # once: fork, zoom, top, fold, next...
        terminal.wait_to_show("Search: Fix model gzn   Esc clears")
        terminal.send(b"\x7f\x7f\x7f\x15abc")  # Backspace x3, Ctrl+U (a filter), then text
        terminal.wait_to_show("Search: Fix model abc   Esc clears")
        terminal.wait_to_show("filter: user-only")
        terminal.quit()
    assert sorted(agent.rglob("*.jsonl")) == before  # no fork, no label, nothing written


@pytest.mark.slow
def test_keys_typed_while_a_large_session_loads_reach_the_tree(agent: Path, tmp_path: Path) -> None:
    """The tree has the focus from the start: its search and Pi's filter keys act on it."""
    from pitui.demo.generate import generate_large_session

    big = generate_large_session(tmp_path / "big.jsonl", 30_000)
    with ended(Pty(pitui_env(agent, tmp_path), args=(str(big),), size=SIZE)) as terminal:
        terminal.type("cache")
        terminal.send(b"\x14")  # Ctrl+T: Pi's no-tools filter
        terminal.wait_to_show("filter: no-tools")
        terminal.wait_to_show("Search: cache   Esc clears")
        footer = lambda: terminal.lines()[-1].lstrip().startswith("^o Filter")  # noqa: E731
        terminal.wait_for(footer, 10, terminal.screen_text)  # the tree's keys: it has the focus
        terminal.quit()


PANE_EDGE = "▏"  # the left edge of the message and context panes


def pane_edges(terminal: Pty) -> list[int]:
    """Where the panes after the tree begin, on a line in the middle of the screen."""
    line = terminal.lines()[12]
    return [column for column, char in enumerate(line) if char == PANE_EDGE]


def test_the_pane_keys_the_footer_shows_reach_pitui(agent: Path, tmp_path: Path) -> None:
    """Alt+M / Alt+X / Alt+T and Shift+Left / Shift+Right as a terminal sends them (ESC m,
    CSI 1;2C...) act on the panes, and nothing is typed into the search (Alt with a digit
    would have been: a terminal sends ESC 3, which Textual reads as "£")."""
    session = next(p for p in (agent / "sessions").rglob("*.jsonl") if "zprof" in p.read_text())
    with ended(Pty(pitui_env(agent, tmp_path), args=(str(session),), size=(160, 30))) as terminal:
        terminal.wait_to_show("alt+m Message")
        terminal.wait_to_show("alt+x Context")
        terminal.wait_for(lambda: len(pane_edges(terminal)) == 2, 10, terminal.screen_text)
        [tree_edge, _] = pane_edges(terminal)
        terminal.send(b"\x1b[1;2C")  # Shift+Right: a wider tree
        terminal.wait_for(lambda: pane_edges(terminal)[0] > tree_edge, 10, terminal.screen_text)
        terminal.send(b"\x1bx")  # Alt+X: the context pane hidden
        terminal.wait_for(lambda: len(pane_edges(terminal)) == 1, 10, terminal.screen_text)
        terminal.send(b"\x1bm")  # Alt+M: the message pane hidden too, the tree alone
        terminal.wait_for(lambda: not pane_edges(terminal), 10, terminal.screen_text)
        # both back, a key at a time: Textual 8 reads ESC m then ESC within its escape delay
        # (0.1 s) as "^", "m" (docs/ARCHITECTURE.md), so the second waits for the first
        terminal.send(b"\x1bm")
        terminal.wait_for(lambda: len(pane_edges(terminal)) == 1, 10, terminal.screen_text)
        terminal.send(b"\x1bx")
        terminal.wait_for(lambda: len(pane_edges(terminal)) == 2, 10, terminal.screen_text)
        assert not terminal.shows("Search:")  # not one of these keys typed
        terminal.quit()


def test_alt_w_opens_the_files_view_and_types_nothing(agent: Path, tmp_path: Path) -> None:
    """Alt+W as a terminal sends it (ESC w) opens the files view; q closes it."""
    session = next(p for p in (agent / "sessions").rglob("*.jsonl") if "rounding" in p.read_text())
    with ended(Pty(pitui_env(agent, tmp_path), args=(str(session),), size=(120, 30))) as terminal:
        terminal.wait_for(lambda: len(pane_edges(terminal)) == 2, 10, terminal.screen_text)
        terminal.send(b"\x1bw")
        terminal.wait_to_show("Written")  # the files table's header
        terminal.send(b"q")
        terminal.wait_for(lambda: not terminal.shows("Written"), 10, terminal.screen_text)
        assert not terminal.shows("Search:")
        terminal.quit()


def clicks(column: int, line: int, times: int) -> bytes:
    """`times` clicks of the left button at (column, line), 0-based, as an xterm sends them
    (SGR mouse reports): Textual reads two within its double-click time as a double-click."""
    press = f"\x1b[<0;{column + 1};{line + 1}M".encode()
    release = f"\x1b[<0;{column + 1};{line + 1}m".encode()
    return (press + release) * times


@pytest.mark.slow
def test_double_and_triple_clicks_in_a_real_terminal_keep_the_app_up(
    agent: Path, tmp_path: Path
) -> None:
    """A double-click selects the words under the mouse (Textual calls the widget's `query()`;
    a widget attribute of that name ended the app): on the tree, the message and the context
    panes, then on the picker's search box, status line and preview."""
    session = next(p for p in (agent / "sessions").rglob("*.jsonl") if "zprof" in p.read_text())
    env = pitui_env(agent, tmp_path)
    with ended(Pty(env, args=(str(session),), size=(160, 30))) as terminal:
        terminal.wait_for(lambda: len(pane_edges(terminal)) == 2, 10, terminal.screen_text)
        [message_edge, context_edge] = pane_edges(terminal)
        for column in (4, message_edge + 4, context_edge + 4):
            for line in (3, 12):
                terminal.send(clicks(column, line, 2))
                time.sleep(0.6)  # past the double-click time: the next ones are a new chain
                terminal.send(clicks(column, line, 3))
                time.sleep(0.6)
        terminal.send(b"\x1b[1;2C")  # Shift+Right: the app still answers keys
        terminal.wait_for(lambda: pane_edges(terminal)[0] > message_edge, 10, terminal.screen_text)
        terminal.quit()
    with ended(Pty(env, size=SIZE)) as terminal:
        terminal.wait_to_show(" shown")
        for column, line in ((80, 10), (80, 20), (10, 2), (10, 1)):  # preview, status, search
            terminal.send(clicks(column, line, 2))
            time.sleep(0.6)
            terminal.send(clicks(column, line, 3))
            time.sleep(0.6)
        terminal.type("nvm")  # the app still answers keys (the search box was clicked last)
        terminal.wait_for(lambda: search_line(terminal) == "nvm", 10, terminal.screen_text)
        terminal.quit()


def test_ctrl_c_in_the_picker_says_ctrl_q_quits(agent: Path, tmp_path: Path) -> None:
    """Ctrl+C as a terminal sends it (ETX, not a signal: the terminal is in raw mode) with
    nothing selected: a notification names the key that quits, and pitui keeps running."""
    with ended(Pty(pitui_env(agent, tmp_path), size=SIZE)) as terminal:
        terminal.wait_to_show(" shown")
        terminal.send(b"\x03")
        terminal.wait_to_show("Ctrl+Q quits pitui")
        terminal.quit()


def test_alt_m_in_the_picker_asks_for_a_missing_folder_and_types_nothing(
    agent: Path, tmp_path: Path
) -> None:
    """Alt+M as a terminal sends it (ESC m) on a session whose folder is gone (the demo's
    /home/demo/... folders are not on this machine): the footer offers it, the dialog asks
    for the new folder, Esc leaves every session where it was, and nothing was typed."""
    before = sorted(p.name for p in (agent / "sessions").rglob("*.jsonl"))
    with ended(Pty(pitui_env(agent, tmp_path), size=(120, 30))) as terminal:
        terminal.wait_to_show(" shown")
        terminal.wait_to_show("alt+m Folder")
        terminal.send(b"\x1bm")
        terminal.wait_to_show("Move this folder's sessions to")
        terminal.send(b"\x1b")
        terminal.wait_for(lambda: not terminal.shows("Move this folder's"), 10)
        assert search_line(terminal).startswith("Search:")  # the placeholder: nothing typed
        terminal.quit()
    assert sorted(p.name for p in (agent / "sessions").rglob("*.jsonl")) == before


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.3])
def test_a_session_file_names_itself_at_once_and_keys_typed_at_launch_reach_its_screen(
    tmp_path: Path, delay: float
) -> None:
    """`pitui FILE`: the file's name and size before Textual has started, then a frame of
    its own while the session screen is built; a search typed meanwhile reaches the tree's
    search once that screen is there (held, not lost), in order."""
    from pitui.demo.generate import generate_large_session

    session = tmp_path / "big session.jsonl"
    generate_large_session(session, 20_000)
    env = pitui_env(tmp_path / "agent", tmp_path)
    with ended(Pty(env, args=(str(session),), size=SIZE)) as terminal:
        terminal.wait_for(lambda: b"opening big session.jsonl (" in terminal.out, 10)
        time.sleep(delay)
        terminal.type("zsh startup")
        terminal.wait_to_show("zsh startup")
        terminal.quit()


@pytest.mark.slow
def test_escape_after_a_double_click_opened_a_session_goes_back(
    agent: Path, tmp_path: Path
) -> None:
    """A click on the highlighted session opens it; the double-click's second click, read
    with it, opened it a second time (so the first Escape went back to the first copy): now
    it is opened once, and Escape goes back at once, as the footer says."""
    with ended(Pty(prepare(agent, tmp_path, "warm"), size=SIZE)) as terminal:
        terminal.wait_for(lambda: bool(highlighted_title(terminal)), 10, terminal.screen_text)
        terminal.send(clicks(10, 5, 2))  # the first row, highlighted
        terminal.wait_to_show("filter: default")  # the session screen's title line
        time.sleep(0.6)  # past the double-click time
        terminal.send(b"\x1b")
        terminal.wait_to_show(" shown")
        terminal.quit()
