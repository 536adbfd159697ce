"""The app as a whole: CLI wiring, global keys, palette, themes, help, failure reporting."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
from ui_helpers import settle, stub_pi, toast_saying
from waiting import wait_for

from pitui.commands import app as app_command
from pitui.core.errors import PituiError
from pitui.ui import app as ui_app
from pitui.ui.handoff import Handoff
from pitui.ui.screens.help import HelpScreen
from pitui.ui.screens.picker import PickerScreen

SIZE = (160, 40)


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="pitui")
    app_command.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_arguments() -> None:
    args = parse("x.jsonl", "--no-watch", "--no-cache", "--pi-command", "pi --x", "--all")
    assert args.file == "x.jsonl" and args.no_watch and args.no_cache and args.all
    assert args.pi_command == "pi --x"
    args = parse("--demo", "--session-dir", "/s")
    assert args.demo and args.session_dir == "/s" and args.file is None


def test_stylesheet_is_found() -> None:
    path = ui_app.stylesheet_path()
    assert path.name == "pitui.tcss" and path.is_file()


def test_file_and_demo_conflict() -> None:
    with pytest.raises(PituiError):
        app_command.run(parse("x.jsonl", "--demo"))


def test_missing_file_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(PituiError, match="no such session file"):
        app_command.run(parse(str(tmp_path / "nope.jsonl")))


class _FakeApp:
    def __init__(self, result: Any, seen: dict[str, Any], **options: Any) -> None:
        self.result = result
        self.return_code = 0
        seen.update(options)

    def run(self) -> Any:
        return self.result


def test_demo_runs_the_app_then_hands_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_command, "require_terminal", lambda: None)  # as on a terminal
    record = stub_pi(tmp_path, monkeypatch)
    seen: dict[str, Any] = {}

    def fake_make_app(**options: Any) -> _FakeApp:
        root = options["sessions_root"]
        assert root.name == "sessions" and any(root.rglob("*.jsonl"))
        target = next(root.rglob("*.jsonl"))
        return _FakeApp(Handoff(["pi", "--session", str(target)], str(tmp_path)), seen, **options)

    monkeypatch.setattr(ui_app, "make_app", fake_make_app)
    assert app_command.run(parse("--demo", "--no-watch")) == 0
    assert seen["all_scope"] is True and seen["watch"] is False
    lines = record.read_text().splitlines()
    assert lines[0] == str(tmp_path) and lines[1] == "--session"


def test_plain_run_uses_pi_agent_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_command, "require_terminal", lambda: None)  # as on a terminal
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "agent"))
    monkeypatch.delenv("PI_CODING_AGENT_SESSION_DIR", raising=False)
    seen: dict[str, Any] = {}
    monkeypatch.setattr(ui_app, "make_app", lambda **o: _FakeApp(None, seen, **o))
    assert app_command.run(parse()) == 0
    assert seen["sessions_root"] == tmp_path / "agent" / "sessions"
    assert seen["custom_dir"] is None and seen["all_scope"] is False


async def test_f1_shows_help_and_question_mark_is_typed(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        assert isinstance(pilot.app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(pilot.app.screen, PickerScreen)
        await pilot.press("down", "question_mark")  # a key that types searches, as in Pi
        assert isinstance(pilot.app.screen, PickerScreen)
        assert pilot.app.screen.query_one("#search").value == "?"


async def test_ctrl_k_opens_the_palette_with_screen_actions(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        picker = pilot.app.screen
        await wait_for(pilot, lambda: picker.scanned)
        await settle(pilot)
        commands = [c.title for c in pilot.app.get_system_commands(pilot.app.screen)]
        for key in ("tab", "^s", "^n", "^p", "^r", "^d", "^o", "f2", "^q"):
            assert sum(title.endswith(f"({key})") for title in commands) == 1, key
        assert len(commands) == len(set(commands))
        assert not [t for t in commands if t in ("Quit", "Theme", "Keys")]  # Textual's own
        assert not [t for t in commands if "cursor" in t.lower()]  # the search box's keys
        assert all("\n" not in t for t in commands)
        await pilot.press("ctrl+k")
        await pilot.pause()
        assert pilot.app.screen.__class__.__name__ == "CommandPalette"


async def test_f2_toggles_dark_and_light(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE) as pilot:
        assert pilot.app.theme == "pitui-dark"
        await pilot.press("f2")
        assert pilot.app.theme == "pitui-light"
        await pilot.press("f2")
        assert pilot.app.theme == "pitui-dark"


async def test_worker_failures_become_notifications(app_factory: Any) -> None:
    async with app_factory().run_test(size=SIZE, notifications=True) as pilot:
        picker = pilot.app.screen

        def boom() -> None:
            raise PituiError("disk on fire")

        picker.run_worker(boom, thread=True, exit_on_error=False, description="testing")
        title, message = (await toast_saying(pilot, "disk on fire")).split("\n")
        assert message == "disk on fire" and "testing" in title
        assert isinstance(picker, PickerScreen) and pilot.app.is_running


async def test_report_shows_type_for_unexpected_errors(app_factory: Any) -> None:
    """An error pitui did not expect is named by its type, its message shown as written."""
    async with app_factory().run_test(size=SIZE, notifications=True) as pilot:

        def bad() -> None:
            raise ValueError("bad [bold]value")

        pilot.app.screen.run_worker(bad, thread=True, exit_on_error=False, description="w")
        shown = await toast_saying(pilot, "ValueError")
        assert shown.split("\n")[-1] == "ValueError: bad [bold]value"


async def test_ctrl_q_quits(app_factory: Any) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert not app.is_running


def test_every_node_with_workers_reports_failures() -> None:
    """Worker.StateChanged does not bubble: each node that starts workers must forward them."""
    import importlib
    import inspect
    import pkgutil

    from textual.dom import DOMNode

    import pitui.ui
    from pitui.ui.failures import ReportsFailures

    starters = []
    for info in pkgutil.walk_packages(pitui.ui.__path__, "pitui.ui."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or not issubclass(cls, DOMNode):
                continue
            source = inspect.getsource(cls)
            if any(start in source for start in ("run_worker(", "@work(", "@thread_worker(")):
                starters.append(cls)
                assert issubclass(cls, ReportsFailures), cls
    assert len(starters) >= 4
