"""No attribute of a pitui widget, screen or app hides a Textual method: Textual calls its own
methods on our objects (a double-click calls `Widget.query()` to select text; a property or a
string named `query` ended the app with "'str' object is not callable")."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import textwrap
from collections.abc import Iterator

from textual.app import App
from textual.dom import DOMNode

import pitui.ui


def pitui_ui_classes() -> Iterator[type]:
    """Every DOM class (widget, screen, app) defined in `pitui.ui`."""
    for module_info in pkgutil.walk_packages(pitui.ui.__path__, "pitui.ui."):
        module = importlib.import_module(module_info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, (DOMNode, App)):
                yield cls


def textual_methods(cls: type) -> dict[str, type]:
    """The names Textual's classes in `cls`'s bases define as methods, with their class."""
    methods: dict[str, type] = {}
    for base in reversed(cls.__mro__):
        if not base.__module__.startswith("textual"):
            continue
        for name, value in vars(base).items():
            if name.startswith("__"):
                continue
            if isinstance(value, (staticmethod, classmethod)) or inspect.isfunction(value):
                methods[name] = base
            else:
                methods.pop(name, None)  # a later Textual class made it a plain attribute
    return methods


def own_names(cls: type) -> Iterator[tuple[str, str]]:
    """(name, what it is) for each attribute `cls` itself defines: its class body's names and
    the `self.NAME = ...` assignments in its methods."""
    for name, value in vars(cls).items():
        if inspect.isfunction(value) or isinstance(value, (staticmethod, classmethod)):
            yield name, "method"
        else:
            yield name, type(value).__name__
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = [t for target in node.targets for t in _flatten(target)]
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = list(_flatten(node.target))
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                yield target.attr, "instance attribute"


def _flatten(target: ast.expr) -> Iterator[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            yield from _flatten(element)
    else:
        yield target


def shadowing() -> list[str]:
    found = []
    for cls in pitui_ui_classes():
        methods = textual_methods(cls)
        for klass in cls.__mro__:
            if klass.__module__.startswith("textual") or klass is object:
                continue
            if not klass.__module__.startswith("pitui"):
                continue
            for name, kind in own_names(klass):
                if name in methods and kind != "method":
                    textual = methods[name].__name__
                    found.append(f"{cls.__name__}.{name} ({kind}) hides {textual}.{name}()")
    return sorted(set(found))


def test_no_pitui_class_hides_a_textual_method() -> None:
    assert shadowing() == []


def test_the_check_sees_a_property_and_an_instance_attribute() -> None:
    """The check itself: both ways of hiding a method that once ended the app are found."""
    from textual.widget import Widget

    class _Bad(Widget):
        def __init__(self) -> None:
            super().__init__()
            self.query = ""  # type: ignore[assignment]

        @property
        def refresh(self) -> str:  # type: ignore[override]
            return ""

    methods = textual_methods(_Bad)
    kinds = dict(own_names(_Bad))
    assert "query" in methods and kinds["query"] == "instance attribute"
    assert "refresh" in methods and kinds["refresh"] == "property"
