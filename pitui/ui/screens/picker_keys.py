"""The picker's keys. Each binding has an id, so that a keymap can rebind it."""

from __future__ import annotations

from textual.binding import Binding, BindingType

PICKER_BINDINGS: list[BindingType] = [
    Binding(
        "tab",
        "toggle_scope",
        "Scope",
        id="picker.scope",
        priority=True,
        tooltip="Sessions of this folder / all sessions",
    ),
    Binding(
        "ctrl+s",
        "cycle_sort",
        "Sort",
        id="picker.sort",
        priority=True,
        tooltip="Threaded / recent / relevance",
    ),
    Binding(
        "ctrl+n",
        "toggle_named",
        "Named",
        id="picker.named",
        show=False,
        priority=True,
        tooltip="Named sessions only",
    ),
    Binding(
        "ctrl+p",
        "toggle_paths",
        "Paths",
        id="picker.paths",
        show=False,
        priority=True,
        tooltip="Show the file path column",
    ),
    Binding(
        "ctrl+r",
        "rename",
        "Rename",
        id="picker.rename",
        show=False,
        priority=True,
        tooltip="Name the highlighted session",
    ),
    Binding(
        "ctrl+d",
        "trash",
        "Trash",
        id="picker.trash",
        priority=True,
        tooltip="Move the highlighted session to the trash",
    ),
    Binding(
        "enter", "open", "Open", id="picker.open", show=False, tooltip="Open in the session screen"
    ),
    Binding(
        "ctrl+e",
        "resume",
        "Resume",
        id="picker.resume",
        priority=True,
        tooltip="Resume the highlighted session in pi",
    ),
    Binding(
        "alt+r",
        "fork",
        "Fork",
        id="picker.fork",
        priority=True,
        tooltip="Fork the highlighted session in pi (pi --fork)",
    ),
    Binding(
        "down,up,pagedown,pageup",
        "focus_list",
        "List",
        show=False,
        id="picker.list",
        tooltip="Move into the list",
    ),
    Binding(
        "escape",
        "escape",
        "Quit",
        id="picker.quit",
        show=False,
        tooltip="Clear the search, or quit",
    ),
]
