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
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
