"""pitui's two themes: Textual's dark and light, with colours every text of pitui can be read
in (WCAG contrast >= 4.5:1 on its background; tests/ui/test_contrast.py checks them)."""

from __future__ import annotations

from dataclasses import replace

from textual.theme import BUILTIN_THEMES, Theme

DARK = "pitui-dark"
LIGHT = "pitui-light"

PITUI_THEMES: tuple[Theme, ...] = (
    replace(
        BUILTIN_THEMES["textual-dark"],
        name=DARK,
        primary="#4EA1FF",
        secondary="#B48EFF",
        error="#FF7A8A",
    ),
    replace(
        BUILTIN_THEMES["textual-light"],
        name=LIGHT,
        primary="#004578",
        secondary="#5B2A8C",
        accent="#8A3A00",
        warning="#6E4A00",
        error="#A3122E",
        success="#1B5E20",
        variables={"footer-key-foreground": "#004578"},
    ),
)
