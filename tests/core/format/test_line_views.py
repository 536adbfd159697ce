"""Pi's line shapes are declared once: every msgspec struct of the core is a view in
`core/format/line_views.py`, but the few that are not partial views of a line."""

from __future__ import annotations

import ast
from pathlib import Path

import pitui.core

CORE = Path(pitui.core.__file__).parent
LINE_VIEWS = CORE / "format" / "line_views.py"
# Not views of a Pi line: an index record, a capped block reader's, the loaded entry (its
# tree fields plus where it stands and its JSON read lazily) with its row subclass, and an
# export's Markdown block.
NOT_LINE_VIEWS = {"FileRow", "RawBlock", "Entry", "RowEntry", "Block"}


def core_structs() -> list[tuple[str, str]]:
    """Every msgspec struct class declared in pitui/core: (its file, its name); a struct is a
    class whose base is `msgspec.Struct`, or a struct of its own file or imported from one."""
    classes, origins = [], {}
    for path in sorted(CORE.rglob("*.py")):
        file = path.relative_to(CORE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                classes.append((file, node))
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pitui.core."):
                source = node.module.removeprefix("pitui.core.").replace(".", "/") + ".py"
                for alias in node.names:
                    origins[(file, alias.asname or alias.name)] = (source, alias.name)
    structs: set[tuple[str, str]] = set()
    while True:
        found = {
            (file, node.name)
            for file, node in classes
            if any(_is_struct(file, base, structs, origins) for base in node.bases)
        }
        if found == structs:
            return sorted(structs)
        structs = found


def _is_struct(
    file: str,
    base: ast.expr,
    structs: set[tuple[str, str]],
    origins: dict[tuple[str, str], tuple[str, str]],
) -> bool:
    if isinstance(base, ast.Attribute):
        return base.attr == "Struct"
    if not isinstance(base, ast.Name):
        return False
    key = (file, base.id)
    return key in structs or origins.get(key) in structs


def test_every_line_view_is_declared_in_line_views() -> None:
    elsewhere = [
        (path, name)
        for path, name in core_structs()
        if path != str(LINE_VIEWS.relative_to(CORE)) and name not in NOT_LINE_VIEWS
    ]
    assert elsewhere == []


def test_the_struct_finder_sees_line_views_structs_and_subclasses() -> None:
    here = {name for path, name in core_structs() if path == "format/line_views.py"}
    assert {"ListingLine", "MessageFields", "RowMessage"} <= here  # RowMessage: a subclass
    assert {name for _, name in core_structs()} >= NOT_LINE_VIEWS
