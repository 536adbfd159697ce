"""The user's Pi key remapping, `<agentDir>/keybindings.json`, as a Textual keymap.

Pi reads the file as an object of `id: key | [keys]` (its `KeybindingsManager`): a key is up
to four of the modifiers `ctrl`, `shift`, `alt`, `super` joined by `+` before a base key (a
lower-case letter or digit, a named key such as `pageUp`, `escape`, `f5`, or a symbol). A user
entry replaces all of that id's keys. pitui maps each Pi id it has an equivalent for onto its
own binding ids (`PI_TO_PITUI`) and hands the result to `App.set_keymap`. Entries pitui cannot
use are skipped and named in the notices; a Pi id pitui has no feature for is skipped quietly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import orjson
from textual.binding import ActiveBinding
from textual.keys import _character_to_key

from pitui.core.format.jsonline import JsonValue
from pitui.core.regular_file import NotRegularFile, read_small

KEYMAP_LIMIT = 16 * 1024 * 1024  # Pi's keybindings.json: a few lines; larger is not one
DIALOG_CANCELS = ("confirm.no", "text.cancel", "choice.cancel", "export.cancel")
PI_TO_PITUI: Mapping[str, tuple[str, ...]] = {
    "tui.select.up": ("session.up", "picker.up"),
    "tui.select.down": ("session.down", "picker.down"),
    "tui.select.pageUp": ("session.page_up", "picker.page_up"),
    "tui.select.pageDown": ("session.page_down", "picker.page_down"),
    "tui.select.confirm": ("session.select", "picker.open", "confirm.yes"),
    "tui.select.cancel": (
        "session.back",
        "session.quit",
        "picker.quit",
        *DIALOG_CANCELS,
    ),
    "tui.editor.cursorLeft": ("session.page_left",),  # Pi's /tree pages with it
    "tui.editor.cursorRight": ("session.page_right",),
    "app.tree.foldOrUp": ("session.fold_up",),
    "app.tree.unfoldOrDown": ("session.unfold_down",),
    "app.tree.editLabel": ("session.label",),
    "app.tree.toggleLabelTimestamp": ("session.label_times",),
    "app.tree.filter.default": ("session.filter_default",),
    "app.tree.filter.noTools": ("session.filter_no_tools",),
    "app.tree.filter.userOnly": ("session.filter_user",),
    "app.tree.filter.labeledOnly": ("session.filter_labeled",),
    "app.tree.filter.all": ("session.filter_all",),
    "app.tree.filter.cycleForward": ("entry_tree.filter",),
    "app.tree.filter.cycleBackward": ("session.filter_back",),
    "app.message.copy": ("session.copy",),
    "app.session.rename": ("picker.rename", "session.rename"),
    "app.session.delete": ("picker.trash",),
    "app.session.togglePath": ("picker.paths",),
    "app.session.toggleSort": ("picker.sort",),
    "app.session.toggleNamedFilter": ("picker.named",),
}

# Pi's older names of the ids above (its KEYBINDING_NAME_MIGRATIONS): Pi reads a file that
# uses them as if it used the new ids; an entry under the new id wins over its old name.
LEGACY_NAMES: Mapping[str, str] = {
    "selectUp": "tui.select.up",
    "selectDown": "tui.select.down",
    "selectPageUp": "tui.select.pageUp",
    "selectPageDown": "tui.select.pageDown",
    "selectConfirm": "tui.select.confirm",
    "selectCancel": "tui.select.cancel",
    "cursorLeft": "tui.editor.cursorLeft",
    "cursorRight": "tui.editor.cursorRight",
    "treeFoldOrUp": "app.tree.foldOrUp",
    "treeUnfoldOrDown": "app.tree.unfoldOrDown",
    "treeEditLabel": "app.tree.editLabel",
    "treeToggleLabelTimestamp": "app.tree.toggleLabelTimestamp",
    "toggleSessionNamedFilter": "app.session.toggleNamedFilter",
    "toggleSessionPath": "app.session.togglePath",
    "toggleSessionSort": "app.session.toggleSort",
    "renameSession": "app.session.rename",
    "deleteSession": "app.session.delete",
}

# What `[]` (Pi's way to unbind an id) binds pitui's action to: a key name no terminal sends.
# The footer, the help and the palette leave it out.
UNBOUND = "pitui_unbound"

MODIFIERS = ("ctrl", "shift", "alt", "super")
NAMED_KEYS = {
    "escape": "escape",
    "esc": "escape",
    "enter": "enter",
    "return": "enter",
    "tab": "tab",
    "space": "space",
    "backspace": "backspace",
    "delete": "delete",
    "insert": "insert",
    "home": "home",
    "end": "end",
    "pageUp": "pageup",
    "pageDown": "pagedown",
    "up": "up",
    "down": "down",
    "left": "left",
    "right": "right",
    **{f"f{n}": f"f{n}" for n in range(1, 13)},
}
SYMBOLS = frozenset("`-=[]\\;',./!@#$%^&*()_+|~{}:<>?\"")


def textual_keys(pi_key: str) -> list[str] | None:
    """Pi's key id as Textual key names (None: not a key Pi accepts). Textual sorts the
    modifiers by name; a shifted letter also arrives as the capital letter."""
    if not isinstance(pi_key, str) or not pi_key:
        return None
    if pi_key.endswith("+"):  # the "+" key itself, maybe after modifiers
        rest = pi_key[:-1]
        if rest and not rest.endswith("+"):
            return None
        parts = [*(rest[:-1].split("+") if rest else []), "+"]
    else:
        parts = pi_key.split("+")
    *mods, base = parts
    if len(mods) > 4 or len(set(mods)) != len(mods) or not set(mods) <= set(MODIFIERS):
        return None
    if base in NAMED_KEYS:
        name = NAMED_KEYS[base]
    elif (len(base) == 1 and (base.isdigit() or "a" <= base <= "z")) or base in SYMBOLS:
        name = _character_to_key(base)
    else:
        return None
    keys = ["+".join([*sorted(mods), name])]
    if mods == ["shift"] and len(base) == 1 and "a" <= base <= "z":
        keys.append(base.upper())
    return keys


def pi_keymap(config: JsonValue) -> tuple[dict[str, str], list[str]]:
    """The Textual keymap for a parsed keybindings.json, and what was skipped and why."""
    if not isinstance(config, dict):
        return {}, ["keybindings.json is not a JSON object"]
    keymap: dict[str, str] = {}
    notices: list[str] = []
    for pi_id, value in _migrated(config).items():
        targets = PI_TO_PITUI.get(pi_id)
        if targets is None:
            if not pi_id.startswith(("app.", "tui.")):
                notices.append(f"{pi_id}: not a Pi key id")
            continue  # a Pi feature pitui does not have
        keys = _keys_of(value)
        if keys is None:
            notices.append(f"{pi_id}: not a key or list of keys Pi accepts")
            continue
        if typed := [key for key in _pi_keys(value) if _arrives_typed(key)]:
            notices.append(
                f"{pi_id}: {typed[0]} arrives as a typed character (terminals send Alt with a "
                "digit or sign as Esc, then the character)"
            )
            continue
        if not keys:  # Pi unbinds the id: its action has no key
            keys = [UNBOUND]
        for target in targets:
            keymap[target] = ",".join(keys)
    return keymap, notices


def _pi_keys(value: JsonValue) -> list[str]:
    return [key for key in (value if isinstance(value, list) else [value]) if isinstance(key, str)]


def _arrives_typed(pi_key: str) -> bool:
    """Alt with a digit or a sign: the terminal sends Esc and the character, which Textual
    reads as that character, so it would type into the search."""
    mods, base = (pi_key[:-1].split("+"), "+") if pi_key.endswith("+") else (pi_key.split("+"), "")
    base = base or mods.pop()
    return "alt" in mods and len(base) == 1 and not base.isalpha()


def _migrated(config: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """The entries under Pi's current ids, an old name's dropped where the new id is there."""
    current: dict[str, JsonValue] = {}
    for name, value in config.items():
        if name == "$schema":
            continue
        pi_id = LEGACY_NAMES.get(name, name)
        if pi_id != name and pi_id in config:
            continue
        current[pi_id] = value
    return current


def _keys_of(value: JsonValue) -> list[str] | None:
    values = value if isinstance(value, list) else [value]
    keys: list[str] = []
    for item in values:
        found = textual_keys(item)
        if found is None:
            return None  # Pi drops the whole entry when one key is invalid
        keys.extend(k for k in found if k not in keys)
    return keys


def load_pi_keymap(path: Path) -> tuple[dict[str, str], list[str]]:
    """Read `path` (absent: no keymap, no notice). Never raises."""
    try:
        raw = read_small(path, KEYMAP_LIMIT)  # a FIFO in its place is refused, not waited on
    except (FileNotFoundError, NotADirectoryError):
        return {}, []
    except NotRegularFile:
        return {}, [f"{path} is not a regular file"]
    except OSError as error:
        return {}, [f"cannot read {path}: {error.strerror or error}"]
    try:
        config = orjson.loads(raw.removeprefix(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError as error:
        return {}, [f"{path} is not valid JSON: {error}"]
    return pi_keymap(config)


def key_list(keys: str) -> list[str]:
    """The keys of a binding's comma-separated `key` (or a keymap's value), in order."""
    return [key.strip() for key in keys.split(",") if key.strip()]


def keys_taken(
    keymap: Mapping[str, str], active: Mapping[str, ActiveBinding], ids: Iterable[str]
) -> dict[str, str]:
    """{binding id: the key and what has it} for each of `ids` whose key in the user's
    `keymap` another binding of the screen answers first (a focused widget's own key is
    looked up before the screen's: the user's key would never reach the action)."""
    taken: dict[str, str] = {}
    for binding_id in ids:
        for key in key_list(keymap.get(binding_id, "")):
            found = active.get(key)
            if found is not None and found.binding.id != binding_id:
                what = found.binding.description or "own key"
                taken[binding_id] = f"{key} is pitui's '{what}'"
    return taken


def pi_id_of(binding_id: str) -> str:
    """The Pi id a keybindings.json entry names for pitui's `binding_id`."""
    return next((p for p, targets in PI_TO_PITUI.items() if binding_id in targets), binding_id)
