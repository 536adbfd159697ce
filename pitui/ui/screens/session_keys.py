"""The session screen's keys. Each binding has an id, so that a keymap can rebind it.

Keys that type search the tree, as in Pi's /tree; so pitui's own actions sit on Ctrl, Alt,
function and editing keys, except Pi's own Shift+L (label) and Shift+T (label times). Not on
Alt with a digit or a sign: terminals send it as ESC and the character, which Textual reads as
a character (ESC 3 is "£", ESC - is "–", ESC , is ","), so it would type into the search."""

from __future__ import annotations

from textual.binding import Binding, BindingType

# Each key's tooltip (the help's, the palette's and the footer's hover text), by its name.
_TOOLTIPS = {
    "tree": "Show or hide the entry tree",
    "message": "Show or hide the message pane",
    "context": "Show or hide the context preview",
    "tree_narrower": "Give the tree less of the width",
    "tree_wider": "Give the tree more of the width",
    "zoom": "Maximise the focused pane (again: restore)",
    "label": "Set or clear the label of the highlighted entry",
    "rename": "Name the session",
    "trash": "Move the session to the trash",
    "copy": "Copy the highlighted entry's text",
    "export": "Export the highlighted entry's branch (Markdown, HTML, jsonl)",
    "copy_markdown": "Copy the highlighted entry as Markdown",
    "resume": "Hand off to pi --session",
    "fork_entry": "Fork: a new session ending at the highlighted entry, after asking",
    "context_edit": "Omit, replace or restore the message in the model's future context",
    "sizes": "What makes this session large: bytes by kind, largest entries",
    "files": "The files this session read, wrote or edited; Enter shows their calls",
    "back": "Back to the picker",
    "quit": "Quit pitui (opened as pitui FILE: no picker to go back to)",
}


def _key(
    keys: str, action: str, description: str, *, name: str = "", show: bool = False
) -> Binding:
    """A session key with the id `session.NAME` (NAME: the action's, unless given) and the
    tooltip `_TOOLTIPS[NAME]`, in the footer only when `show`."""
    name = name or action
    tooltip = _TOOLTIPS[name]
    return Binding(keys, action, description, id=f"session.{name}", show=show, tooltip=tooltip)


SESSION_BINDINGS: list[BindingType] = [
    _key("alt+t", "toggle_pane('tree')", "Tree", name="tree"),
    _key("alt+m", "toggle_pane('message')", "Message", name="message", show=True),
    _key("alt+x", "toggle_pane('context')", "Context", name="context", show=True),
    _key("shift+left", "resize_tree(-1)", "Narrower tree", name="tree_narrower"),
    _key("shift+right", "resize_tree(1)", "Wider tree", name="tree_wider"),
    _key("alt+z", "maximise", "Zoom", name="zoom"),
    _key("L,shift+l", "label", "Label"),
    _key("ctrl+r", "rename", "Name"),
    _key("delete", "trash", "Trash"),
    _key("ctrl+x", "copy", "Copy"),
    _key("alt+e", "export", "Export", show=True),
    _key("alt+y", "copy_markdown", "Copy Markdown"),
    _key("ctrl+e", "resume", "Resume"),
    # not Alt+F: terminals send it as ESC f, which Textual reads as Ctrl+Right
    _key("alt+n", "fork_entry", "Fork"),
    _key("alt+c", "context_edit", "Edit context"),
    # not Alt+B: terminals send it as ESC b, which Textual reads as Ctrl+Left
    _key("alt+s", "sizes", "Sizes"),
    # not Alt+F (as Fork); in the footer where it fits (the first key it drops)
    _key("alt+w", "files", "Files", show=True),
    _key("escape", "back", "Back", show=True),
    _key("escape", "leave", "Quit", name="quit", show=True),  # `pitui FILE` (check_action)
]
