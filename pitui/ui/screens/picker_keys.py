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
        tooltip="Threaded / recent / relevance / cost / size",
    ),
    Binding(
        "ctrl+n",
        "toggle_named",
        "Named",
        id="picker.named",
        priority=True,
        tooltip="Named sessions only",
    ),
    Binding(
        "ctrl+p",
        "toggle_paths",
        "Paths",
        id="picker.paths",
        priority=True,
        tooltip="Show the file path column",
    ),
    Binding(
        "ctrl+r",
        "rename",
        "Rename",
        id="picker.rename",
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
        "alt+s",
        "stats",
        "Usage",
        id="picker.stats",
        priority=True,
        show=False,  # in the help, the palette and the README; the footer is full at 80 columns
        tooltip="Usage and cost of the listed sessions",
    ),
    Binding(
        "alt+z",
        "trash_view",
        "Trash view",
        id="picker.trash_view",
        priority=True,
        show=False,
        tooltip="Sessions in the trash, with restore",
    ),
    Binding(
        "alt+p",
        "pin",
        "Pin",
        id="picker.pin",
        show=False,
        priority=True,
        tooltip="Pin or unpin the highlighted session (pinned stay on top)",
    ),
    Binding(
        "alt+t",
        "tags",
        "Tags",
        id="picker.tags",
        show=False,
        priority=True,
        tooltip="Edit the tags of the highlighted session",
    ),
    Binding("enter", "open", "Open", id="picker.open", tooltip="Open in the session screen"),
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
