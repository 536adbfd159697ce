"""A user's keybindings.json key that a screen cannot honour, kept off and said.

A key another binding of the screen answers first (a focused widget's own, or pitui's key for
another action, e.g. Ctrl+K the palette) would leave the action with no key at all, or take
the other action's; a printable key where printable keys type (the picker's and the tree's
search) never reaches a binding. The action keeps its own key, and a notice says why."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from textual.binding import Binding
from textual.screen import Screen

from pitui.ui.keymap import key_list, keys_taken, pi_id_of


def keep_remaps_reachable(screen: Screen[Any], defaults: Mapping[str, Binding]) -> None:
    """Check the user's keys for the screen's bindings (`defaults`, by id) and keep each
    unusable one's action on its own key (app-wide: the screens' binding ids differ)."""
    keymap: dict[str, str] = screen.app.config.keymap  # type: ignore[attr-defined]
    remapped = [i for i in keymap if i in defaults]
    taken = keys_taken(keymap, screen.active_bindings, remapped)
    for binding_id in remapped:
        own = key_list(defaults[binding_id].key)
        for key in key_list(keymap[binding_id]):
            if binding_id in taken:
                break
            if key in own:
                continue
            if len(key) == 1 or (key.startswith("shift+") and len(key) == 7):
                taken[binding_id] = f"{key} types into the search"
            elif other := _default_holder(key, binding_id, defaults, keymap):
                taken[binding_id] = f"{key} is pitui's '{other.description}'"
            elif what := _app_key(screen, key):
                taken[binding_id] = f"{key} is pitui's '{what}'"
    if not taken:
        return
    restored = {binding_id: defaults[binding_id].key for binding_id in taken}
    keymap.update(restored)
    screen.app.update_keymap(restored)
    said = [
        f"{pi_id_of(i)}: {why} here; it stays on {_key_shown(screen, defaults[i])}"
        for i, why in taken.items()
    ]
    screen.notify(
        "\n".join(said),
        title="keybindings.json: keys kept",
        severity="warning",
        markup=False,
        timeout=10,
    )


def _default_holder(
    key: str, binding_id: str, defaults: Mapping[str, Binding], keymap: Mapping[str, str]
) -> Binding | None:
    """Another binding of the screen that keeps `key` over a user's `tui.*` key: one of Pi's
    `app.*` keys, which Pi's picker looks up first (its named filter's Ctrl+N before a Ctrl+N
    added to `tui.select.down`), and the user has not moved."""
    if not pi_id_of(binding_id).startswith("tui."):
        return None
    for other_id, other in defaults.items():
        first = pi_id_of(other_id).startswith("app.") and other_id not in keymap
        if first and key in key_list(other.key):
            return other
    return None


def _app_key(screen: Screen[Any], key: str) -> str | None:
    """What the app's own key `key` does (help, theme, quit, the palette), if it has it: a
    screen's binding would answer it first and take it from every screen."""
    app = screen.app
    if key == app.COMMAND_PALETTE_BINDING:
        return "palette"
    for binding in Binding.make_bindings(app.BINDINGS):
        if key in key_list(binding.key) and binding.description:
            return binding.description
    return None


def _key_shown(screen: Screen[Any], binding: Binding) -> str:
    """A binding's key as displayed: its first with a modifier (Shift+L, not L)."""
    keys = key_list(binding.key)
    key = next((k for k in keys if "+" in k), keys[0])
    return screen.app.get_key_display(replace(binding, key=key))
