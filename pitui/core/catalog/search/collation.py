"""`String.prototype.localeCompare` as Node's default (ICU root collation) orders file names.

Pi sorts session file names with `b.localeCompare(a)`. Python has no ICU here, so this is the
root collation of ASCII, which is what Pi's names hold (`<ISO time with - for :.>_<uuid>.jsonl`):
control characters other than whitespace are ignored; whitespace, then punctuation and symbols
in CLDR's order, then digits, then letters compare first (case-blind); case decides only
between otherwise equal names, lowercase first. Other characters sort after ASCII by code point
(an approximation: ICU orders them by script; Pi never writes them in its names).
"""

from __future__ import annotations

# CLDR root order of the ASCII characters that are not ignorable (checked against Node's ICU).
_ORDER = "\t\n\x0b\x0c\r _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789abcdefghijklmnopqrstuvwxyz"
_IGNORED = [*range(0x00, 0x09), *range(0x0E, 0x20), 0x7F]
# Weights as characters, so that a key is two strings (built by str.translate, in C): every
# ASCII weight is below 128, so other characters (left as they are) sort after, by code point.
_PRIMARY: dict[int, str | None] = {ord(c): chr(i + 1) for i, c in enumerate(_ORDER)}
_PRIMARY.update({ord(c.upper()): _PRIMARY[ord(c)] for c in "abcdefghijklmnopqrstuvwxyz"})
_PRIMARY.update(dict.fromkeys(_IGNORED))
_TERTIARY: dict[int, str | None] = {ord(c): "\x00" for c in _ORDER}
_TERTIARY.update({ord(c.upper()): "\x01" for c in "abcdefghijklmnopqrstuvwxyz"})
_TERTIARY.update(dict.fromkeys(_IGNORED))


_PRIMARY_BYTES = bytes(ord(_PRIMARY.get(i) or "\x00") for i in range(128)) + bytes(range(128, 256))
_TERTIARY_BYTES = bytes(ord(_TERTIARY.get(i) or "\x00") for i in range(256))
_IGNORED_BYTES = bytes(_IGNORED)


def collation_key(text: str) -> tuple[str, str]:
    """Sort key: keys compare as `localeCompare` compares the strings (ASCII exactly): the
    primary weights (case-blind) first, then the case of each character."""
    if text.isascii():  # bytes.translate: a table lookup per byte, in C
        raw = text.encode()
        primary = raw.translate(_PRIMARY_BYTES, _IGNORED_BYTES)
        return primary.decode(), raw.translate(_TERTIARY_BYTES, _IGNORED_BYTES).decode()
    return text.translate(_PRIMARY), text.translate(_TERTIARY)


def locale_compare(a: str, b: str) -> int:
    """-1, 0 or 1, as `a.localeCompare(b)` in Node (for ASCII)."""
    ka, kb = collation_key(a), collation_key(b)
    return (ka > kb) - (ka < kb)
