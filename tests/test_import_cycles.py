"""No import cycles inside pitui/, and the core's layers import only downwards."""

from __future__ import annotations

import ast
from pathlib import Path

import pitui

PACKAGE = Path(pitui.__file__).parent
# Lower layers first: a module may import from its own layer or any layer before it.
LAYERS = [
    ("pitui.core.errors", "pitui.core.user_dirs", "pitui.core.version"),
    ("pitui.core.format",),
    ("pitui.core.session",),
    ("pitui.core.rows", "pitui.core.catalog"),
    ("pitui.core.live", "pitui.core.changes", "pitui.core.userdata", "pitui.core.remotes"),
    (
        "pitui.core.export",
        "pitui.core.usage",
        "pitui.core.secrets",
        "pitui.core.entry_search",
        "pitui.core.file_history",
        "pitui.core.listing",
    ),
    ("pitui.demo", "pitui.ui", "pitui.commands", "pitui.cli", "pitui.__main__"),
]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, known: set[str]) -> set[str]:
    """The pitui modules a file imports, TYPE_CHECKING imports included."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(name for name in names if name in known)
    return found


def import_graph() -> dict[str, set[str]]:
    files = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    known = set(files)
    return {name: imported_modules(path, known) - {name} for name, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if _is_package_of(target, node):
                continue  # `from pkg import module` names the package itself
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def _is_package_of(package: str, module: str) -> bool:
    return module.startswith(package + ".")


def layer_of(module: str) -> int | None:
    for index, prefixes in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return index
    return None


def test_no_import_cycle_inside_pitui() -> None:
    assert find_cycle(import_graph()) is None


def test_cycle_finder_sees_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert find_cycle(graph) == ["a", "b", "c", "a"]


def test_core_layers_import_only_downwards() -> None:
    upward = []
    for module, targets in import_graph().items():
        own = layer_of(module)
        for target in targets:
            theirs = layer_of(target)
            if own is not None and theirs is not None and theirs > own:
                upward.append(f"{module} -> {target}")
    assert upward == []


def test_every_core_module_has_a_layer() -> None:
    core = [m for m in import_graph() if m.startswith("pitui.core.") and m.count(".") >= 2]
    assert [m for m in core if layer_of(m) is None] == []
