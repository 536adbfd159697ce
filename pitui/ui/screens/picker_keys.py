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
    Binding(
        "alt+e",
        "export",
        "Export",
        id="picker.export",
        priority=True,
        show=False,
        tooltip="Export the highlighted session's active branch",
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
    # From the search box, as Pi: the selection moves (and the list takes the focus). The
    # list's ids: a Pi remap of tui.select.* moves both.
    *(
        Binding(
            key,
            f"focus_list('{action}', {step})",
            "List",
            show=False,
            id=f"picker.{name}",
            tooltip="Move into the list",
        )
        for key, action, step, name in (
            ("down", "cursor", 1, "down"),
            ("up", "cursor", -1, "up"),
            ("pagedown", "page", 1, "page_down"),
            ("pageup", "page", -1, "page_up"),
        )
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
