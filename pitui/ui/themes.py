"""pitui's two themes: Textual's dark and light, with colours every text of pitui can be read
in (WCAG contrast >= 4.5:1 on its background; tests/ui/test_contrast.py checks them).

Rich text styled with a terminal colour name ("green", "cyan": headers, previews, the
stats table) is drawn through the app's ANSI theme, one per Textual theme: Textual's own
(Monokai, Alabaster) put red, blue and magenta below 4.5:1 on the dark panels and most
colours far below it on the light ones, so pitui brings its own."""

from __future__ import annotations

from dataclasses import replace

from rich.terminal_theme import TerminalTheme
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
        accent="#8A2E00",
        surface="#DCDCDC",
        warning="#6E4A00",
        error="#A3122E",
        success="#1B5E20",
        variables={"footer-key-foreground": "#004578"},
    ),
)


# Textual's Monokai and Alabaster (`textual._ansi_theme`, private), with red, blue and
# magenta (dark) and every colour (light) made readable: the 16 ANSI colours, normal then bright.
ANSI_DARK = TerminalTheme(
    (12, 12, 12),
    (217, 217, 217),
    [
        (26, 26, 26),
        (255, 120, 120),
        (152, 224, 36),
        (253, 151, 31),
        (120, 165, 255),
        (230, 140, 240),
        (88, 209, 235),
        (196, 197, 181),
    ],
    [
        (98, 94, 76),
        (255, 120, 120),
        (152, 224, 36),
        (224, 213, 97),
        (120, 165, 255),
        (230, 140, 240),
        (88, 209, 235),
        (246, 246, 239),
    ],
)
_LIGHT_COLOURS = (
    (150, 20, 20),
    (20, 100, 20),
    (115, 80, 0),
    (20, 60, 160),
    (115, 35, 135),
    (0, 95, 120),
)
ANSI_LIGHT = TerminalTheme(
    (247, 247, 247),
    (0, 0, 0),
    [(0, 0, 0), *_LIGHT_COLOURS, (247, 247, 247)],
    [(119, 119, 119), *_LIGHT_COLOURS, (247, 247, 247)],
)
