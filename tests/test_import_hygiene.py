"""pitui.core must never import Textual: each core module is imported in a fresh process."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import pitui.core


def core_modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages(pitui.core.__path__, "pitui.core.")]


def test_core_modules_exist() -> None:
    assert {
        "pitui.core.session.reader",
        "pitui.core.session.tree",
        "pitui.core.session.context",
    } <= set(core_modules())


def test_no_core_module_imports_textual() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {core_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "    assert 'textual' not in sys.modules, name\n"
        "print('ok')\n"
    )
    assert _python_prints(code) == "ok"


def test_picker_launch_leaves_renderers_and_session_screen_for_later() -> None:
    """The app imports at launch only what the picker needs: the exporters (markdown-it)
    load when an export is made, the secrets detector when the list is shown, the session
    screen (pydantic models, Markdown) in the background once the list is shown."""
    code = (
        "import sys\n"
        "import pitui.commands.app, pitui.ui.app, pitui.ui.screens.picker\n"
        "heavy = ['markdown_it', 'pydantic', 'pitui.core.export.export',\n"
        "         'pitui.core.secrets.patterns', 'pitui.ui.screens.session']\n"
        "print(sorted(name for name in heavy if name in sys.modules))\n"
    )
    assert _python_prints(code) == "[]"


def test_list_stats_and_grep_modules_leave_their_work_for_later() -> None:
    """A warm `pitui list` or `pitui stats` prints its kept answer, `pitui grep --help` its
    help, with only its command's module loaded: the catalog, the sums, the entry search,
    SQLite, orjson and Rich are imported by the functions that compute an answer."""
    code = (
        "import sys\n"
        "import pitui.cli, pitui.commands.list, pitui.commands.stats, pitui.commands.grep\n"
        "heavy = ['orjson', 'sqlite3', 'rich', 'pitui.core.catalog.catalog',\n"
        "         'pitui.core.listing.sessions', 'pitui.core.usage.load',\n"
        "         'pitui.core.entry_search.search']\n"
        "print(sorted(name for name in heavy if name in sys.modules))\n"
    )
    assert _python_prints(code) == "[]"


def _python_prints(code: str) -> str:
    """What `code` prints in a fresh interpreter (it must succeed)."""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()
