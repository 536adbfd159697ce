"""The session screen's keys. Each binding has an id, so that a keymap can rebind it.

Keys that type search the tree, as in Pi's /tree; so pitui's own actions sit on Ctrl, Alt,
function and editing keys, except Pi's own Shift+L (label) and Shift+T (label times). Not on
Alt with a digit or a sign: terminals send it as ESC and the character, which Textual reads as
a character (ESC 3 is "£", ESC - is "–", ESC , is ","), so it would type into the search."""

from __future__ import annotations

from textual.binding import Binding, BindingType


def _key(
    keys: str, action: str, description: str, tooltip: str, *, name: str = "", show: bool = False
) -> Binding:
    """A session key with the id `session.NAME` (NAME: the action's, unless given), in the
    footer only when `show`."""
    name = name or action
    return Binding(keys, action, description, id=f"session.{name}", show=show, tooltip=tooltip)


SESSION_BINDINGS: list[BindingType] = [
    _key("alt+t", "toggle_pane('tree')", "Tree", "Show or hide the entry tree", name="tree"),
    _key(
        "alt+m",
        "toggle_pane('message')",
        "Message",
        "Show or hide the message pane",
        name="message",
        show=True,
    ),
    _key(
        "alt+x",
        "toggle_pane('context')",
        "Context",
        "Show or hide the context preview",
        name="context",
        show=True,
    ),
    _key(
        "shift+left",
        "resize_tree(-1)",
        "Narrower tree",
        "Give the tree less of the width",
        name="tree_narrower",
    ),
    _key(
        "shift+right",
        "resize_tree(1)",
        "Wider tree",
        "Give the tree more of the width",
        name="tree_wider",
    ),
    _key("alt+z", "maximise", "Zoom", "Maximise the focused pane (again: restore)", name="zoom"),
    _key("L,shift+l", "label", "Label", "Set or clear the label of the highlighted entry"),
    _key("ctrl+r", "rename", "Name", "Name the session"),
    _key("delete", "trash", "Trash", "Move the session to the trash"),
    _key("ctrl+x", "copy", "Copy", "Copy the highlighted entry's text"),
    _key(
        "alt+e",
        "export",
        "Export",
        "Export the highlighted entry's branch (Markdown, HTML, jsonl)",
        show=True,
    ),
    _key("alt+y", "copy_markdown", "Copy Markdown", "Copy the highlighted entry as Markdown"),
    _key("ctrl+e", "resume", "Resume", "Hand off to pi --session"),
    # not Alt+F: terminals send it as ESC f, which Textual reads as Ctrl+Right
    _key(
        "alt+n",
        "fork_entry",
        "Fork",
        "Fork: a new session ending at the highlighted entry, after asking",
    ),
    _key(
        "alt+c",
        "context_edit",
        "Edit context",
        "Omit, replace or restore the message in the model's future context",
    ),
    # not Alt+B: terminals send it as ESC b, which Textual reads as Ctrl+Left
    _key(
        "alt+s", "sizes", "Sizes", "What makes this session large: bytes by kind, largest entries"
    ),
    # not Alt+F (as Fork); in the footer where it fits (the first key it drops)
    _key(
        "alt+w",
        "files",
        "Files",
        "The files this session read, wrote or edited; Enter shows their calls",
        show=True,
    ),
    _key("escape", "back", "Back", "Back to the picker", show=True),
]
