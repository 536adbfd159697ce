"""The picker's keys. Each binding has an id, so that a keymap can rebind it.

None is a priority binding: the search box has the focus and passes on every key that does not
type (`SearchBox`), so each key acts in the order typed, after the characters before it."""

from __future__ import annotations

from textual.binding import Binding, BindingType

PICKER_BINDINGS: list[BindingType] = [
    Binding(
        "tab",
        "toggle_scope",
        "Scope",
        id="picker.scope",
        tooltip="Sessions of this folder / all sessions",
    ),
    Binding(
        "alt+a",
        "toggle_archive",
        "Archive",
        id="picker.archive",
        show=False,  # said on the status line (the footer is full at 80 columns)
        tooltip="Sessions in pitui's archive / in Pi's session folder",
    ),
    Binding(
        "ctrl+s",
        "cycle_sort",
        "Sort",
        id="picker.sort",
        tooltip="Threaded / recent / relevance / cost / size",
    ),
    Binding(
        "ctrl+n",
        "toggle_named",
        "Named",
        id="picker.named",
        show=False,
        tooltip="Named sessions only",
    ),
    Binding(
        "ctrl+p",
        "toggle_paths",
        "Paths",
        id="picker.paths",
        show=False,
        tooltip="Show the file path column",
    ),
    Binding(
        "ctrl+r",
        "rename",
        "Rename",
        id="picker.rename",
        show=False,
        tooltip="Name the highlighted session",
    ),
    Binding(
        "ctrl+d",
        "trash",
        "Trash",
        id="picker.trash",
        tooltip="Move the highlighted session to the trash",
    ),
    Binding(
        "alt+s",
        "stats",
        "Usage",
        id="picker.stats",
        show=False,  # in the help, the palette and the README; the footer is full at 80 columns
        tooltip="Usage and cost of the listed sessions",
    ),
    Binding(
        "alt+z",
        "trash_view",
        "Trash view",
        id="picker.trash_view",
        show=False,
        tooltip="Sessions in the trash, with restore",
    ),
    Binding(
        "alt+p",
        "pin",
        "Pin",
        id="picker.pin",
        show=False,
        tooltip="Pin or unpin the highlighted session (pinned stay on top)",
    ),
    Binding(
        "alt+t",
        "tags",
        "Tags",
        id="picker.tags",
        show=False,
        tooltip="Edit the tags of the highlighted session",
    ),
    Binding(
        "f5",
        "sync_remotes",
        "Sync",
        id="picker.sync",
        show=False,
        tooltip="Sync the remotes' mirrors now (as pitui sync)",
    ),
    Binding(
        "alt+e",
        "export",
        "Export",
        id="picker.export",
        show=False,
        tooltip="Export the highlighted session's active branch",
    ),
    Binding(  # Ctrl+J: an Enter typed before the terminal left its line mode
        "enter,ctrl+j",
        "open",
        "Open",
        id="picker.open",
        show=False,
        tooltip="Open the highlighted session",
    ),
    Binding(  # not Ctrl+E: in Pi's picker it ends the search line (`tui.editor.cursorLineEnd`)
        "ctrl+o",
        "resume",
        "Resume",
        id="picker.resume",
        tooltip="Resume the highlighted session in pi",
    ),
    Binding(
        "alt+r",
        "fork",
        "Fork",
        id="picker.fork",
        tooltip="Fork the highlighted session in pi (pi --fork), after asking",
    ),
    Binding(  # last: in the footer only while the highlighted session's folder is gone
        "alt+m",
        "move_folder",
        "Folder",
        id="picker.move_folder",
        tooltip="The session's folder is gone: move its folder's sessions to where it is now",
    ),
    # The search box keeps the focus, as in Pi's selector: these move the list's selection.
    # The ids are Pi's tui.select.* remaps' (`keymap.PI_TO_PITUI`).
    *(
        Binding(key, f"move_list('{move}', {step})", "Move", show=False, id=f"picker.{name}")
        for key, move, step, name in (
            ("down", "cursor", 1, "down"),
            ("up", "cursor", -1, "up"),
            ("pagedown", "page", 1, "page_down"),
            ("pageup", "page", -1, "page_up"),
        )
    ),
    # Home and End edit the search: these reach the ends of a list of thousands
    Binding(
        "ctrl+home",
        "move_list('jump', 0)",
        "First",
        show=False,
        id="picker.first",
        tooltip="Select the first session listed",
    ),
    Binding(
        "ctrl+end",
        "move_list('jump', -1)",
        "Last",
        show=False,
        id="picker.last",
        tooltip="Select the last session listed",
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
