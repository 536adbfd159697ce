"""Secrets inside base64 (a Kubernetes Secret, `echo ... | base64 -d`): a run of base64 whose
decoded text holds a secret is one secret.

Such runs are found by `FRAGMENTS`: what base64 makes of a word that tells a secret
(`PASSWORD`, `_KEY=`, `-----BEGIN`) at each of its three alignments, the characters that
depend on the word only. Other base64 (images, hashes) is never decoded.
"""

from __future__ import annotations

import base64
import binascii
import re

KIND = "encoded-secret"
WORDS: tuple[str, ...] = (
    "PASSWORD",
    "SECRET",
    "TOKEN",
    "_KEY=",
    "password",
    "secret",
    "token",
    "api_key",
)
WORDS += ("apiKey", "sk_live_", "sk-ant-", "sk-proj-", "-----BEGIN")
MIN_RUN = 16  # shorter base64 holds no secret and its name
MAX_RUN = 64 * 1024  # a larger run is data (an image), not a configuration
_RUN = re.compile(r"[A-Za-z0-9+/\-_]+={0,2}")
_PRINTABLE = re.compile(rb"[\t\n\r\x20-\x7e]*")


def fragments(word: str) -> tuple[str, ...]:
    """The base64 characters that the word alone decides, at byte offsets 0, 1 and 2."""
    found = []
    for shift in range(3):
        encoded = base64.b64encode(b"\0" * shift + word.encode()).decode()
        first, end = -(-8 * shift // 6), 8 * (shift + len(word)) // 6
        found.append(encoded[first:end])
    return tuple(found)


FRAGMENTS = tuple(sorted({f for word in WORDS for f in fragments(word)}))


def encoded_run(text: str, at: int) -> tuple[int, int, str | None] | None:
    """(start, end, decoded text or None) of the base64 run holding position `at` (where a
    fragment starts)."""
    low = max(0, at - MAX_RUN)
    for run in _RUN.finditer(text, low, min(len(text), at + MAX_RUN)):
        if run.start() <= at < run.end():
            plain = decoded(run[0]) if run.end() - run.start() >= MIN_RUN else None
            return run.start(), run.end(), plain
    return None


def decoded(run: str) -> str | None:
    """The text a base64 run encodes (standard or URL-safe alphabet), None when it is not
    text."""
    core = run.rstrip("=")
    core = core[: len(core) - len(core) % 4] if len(core) % 4 == 1 else core
    altchars = b"-_" if "-" in core or "_" in core else None
    try:
        data = base64.b64decode(core + "=" * (-len(core) % 4), altchars, validate=True)
    except (binascii.Error, ValueError):
        return None
    if not data or not _PRINTABLE.fullmatch(data):
        return None
    return data.decode("ascii")
