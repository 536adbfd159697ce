"""pitui's two themes: Textual's dark and light, with colours every text of pitui can be read
in (WCAG contrast >= 4.5:1 on its background; tests/ui/test_contrast.py checks them).

Rich text styled with a terminal colour name ("green", "cyan": headers, previews, the
stats table) is drawn through the app's ANSI theme, one per Textual theme: Textual's own
(Monokai, Alabaster) put red, blue and magenta below 4.5:1 on the dark panels and most
colours far below it on the light ones, so pitui brings its own."""

from __future__ import annotations

from dataclasses import replace

from rich.terminal_theme import TerminalTheme
from textual._ansi_theme import ALABASTER, MONOKAI
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


def _with_colours(base: TerminalTheme, colours: dict[int, tuple[int, int, int]]) -> TerminalTheme:
    """`base` with the normal and bright variants of these ANSI colours (1 red ... 6 cyan)."""
    palette = [tuple(base.ansi_colors[index]) for index in range(16)]
    for index, rgb in colours.items():
        palette[index] = palette[index + 8] = rgb
    return TerminalTheme(
        tuple(base.background_color), tuple(base.foreground_color), palette[:8], palette[8:]
    )


ANSI_DARK = _with_colours(MONOKAI, {1: (255, 120, 120), 4: (120, 165, 255), 5: (230, 140, 240)})
ANSI_LIGHT = _with_colours(
    ALABASTER,
    {
        1: (150, 20, 20),
        2: (20, 100, 20),
        3: (115, 80, 0),
        4: (20, 60, 160),
        5: (115, 35, 135),
        6: (0, 95, 120),
    },
)
