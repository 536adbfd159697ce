"""The session screen's keys. Each binding has an id, so that a keymap can rebind it.

Keys that type search the tree, as in Pi's /tree; so pitui's own actions sit on Ctrl, Alt,
function and editing keys, except Pi's own Shift+L (label) and Shift+T (label times). Not on
Alt with a digit or a sign: terminals send it as ESC and the character, which Textual reads as
a character (ESC 3 is "£", ESC - is "–", ESC , is ","), so it would type into the search."""

from __future__ import annotations

from textual.binding import Binding, BindingType

SESSION_BINDINGS: list[BindingType] = [
    Binding(
        "alt+t",
        "toggle_pane('tree')",
        "Tree",
        id="session.tree",
        show=False,
        tooltip="Show or hide the entry tree",
    ),
    Binding(
        "alt+m",
        "toggle_pane('message')",
        "Message",
        id="session.message",
        tooltip="Show or hide the message pane",
    ),
    Binding(
        "alt+x",
        "toggle_pane('context')",
        "Context",
        id="session.context",
        tooltip="Show or hide the context preview",
    ),
    Binding(
        "shift+left",
        "resize_tree(-1)",
        "Narrower tree",
        id="session.tree_narrower",
        show=False,
        tooltip="Give the tree less of the width",
    ),
    Binding(
        "shift+right",
        "resize_tree(1)",
        "Wider tree",
        id="session.tree_wider",
        show=False,
        tooltip="Give the tree more of the width",
    ),
    Binding(
        "alt+z",
        "maximise",
        "Zoom",
        id="session.zoom",
        show=False,
        tooltip="Maximise the focused pane (again: restore)",
    ),
    Binding(
        "L,shift+l",
        "label",
        "Label",
        id="session.label",
        show=False,
        tooltip="Set or clear the label of the highlighted entry",
    ),
    Binding(
        "ctrl+r", "rename", "Name", id="session.rename", show=False, tooltip="Name the session"
    ),
    Binding(
        "delete",
        "trash",
        "Trash",
        id="session.trash",
        show=False,
        tooltip="Move the session to the trash",
    ),
    Binding(
        "ctrl+x",
        "copy",
        "Copy",
        id="session.copy",
        show=False,
        tooltip="Copy the highlighted entry's text",
    ),
    Binding(
        "alt+e",
        "export",
        "Export",
        id="session.export",
        tooltip="Export the highlighted entry's branch (Markdown, HTML, jsonl)",
    ),
    Binding(
        "alt+y",
        "copy_markdown",
        "Copy Markdown",
        id="session.copy_markdown",
        show=False,
        tooltip="Copy the highlighted entry as Markdown",
    ),
    Binding(
        "ctrl+e",
        "resume",
        "Resume",
        id="session.resume",
        show=False,
        tooltip="Hand off to pi --session",
    ),
    Binding(  # not Alt+F: terminals send it as ESC f, which Textual reads as Ctrl+Right
        "alt+n",
        "fork_entry",
        "Fork",
        id="session.fork_entry",
        show=False,
        tooltip="Fork: a new session ending at the highlighted entry, after asking",
    ),
    Binding(
        "alt+c",
        "context_edit",
        "Edit context",
        id="session.context_edit",
        show=False,
        tooltip="Omit, replace or restore the message in the model's future context",
    ),
    Binding(  # not Alt+B: terminals send it as ESC b, which Textual reads as Ctrl+Left
        "alt+s",
        "sizes",
        "Sizes",
        id="session.sizes",
        show=False,
        tooltip="What makes this session large: bytes by kind, largest entries",
    ),
    Binding(  # not Alt+F: terminals send it as ESC f, which Textual reads as Ctrl+Right
        "alt+w",
        "files",
        "Files",
        id="session.files",  # in the footer where it fits (the first key it drops)
        tooltip="The files this session read, wrote or edited; Enter shows their calls",
    ),
    Binding("escape", "back", "Back", id="session.back", tooltip="Back to the picker"),
]
