"""The conformance corpus: v1, v2 and v3 sessions over several project folders, and odd files."""

from __future__ import annotations

import random
from pathlib import Path

from pitui.demo.builder import (
    BASE_MS,
    MODELS,
    Entry,
    SessionBuilder,
    dumps,
    make_header,
    session_dir_name,
    session_path,
    write_session,
)
from pitui.demo.content import turn
from pitui.demo.legacy import generate_v1_session, generate_v2_session
from pitui.demo.varied import generate_varied_session

CORPUS_CWDS: tuple[str, ...] = (
    "/home/dev/projects/webshop",
    "/home/dev/projects/pitui",
    "/home/dev/projects/data-pipeline",
    "/home/dev/my-notes",  # lossy: shares its folder with the next one
    "/home/dev-my/notes",
    "/home/dev/Documents/Übersetzung tool",
    "C:\\Users\\dev\\src\\winapp",
)


def generate_corpus(
    root: Path | str, seed: int = 0, count: int = 24, *, include_malformed: bool = True
) -> list[Path]:
    """A varied conformance corpus under a sessions root; returns every ``.jsonl`` written.

    Contains v1, v2 and v3 sessions over several project folders (including two cwds that map
    to the same folder, a Windows cwd and a non-ASCII one), named sessions, forks whose header
    ``parentSession`` is another file's absolute path, and a few odd files: one that is not a
    session (first line is not a header), one with a blank and a garbage line, one with CRLF
    line endings and one with a partial last line (``include_malformed=False`` leaves those
    four out). Sessions come first in the returned list, the odd files last.
    """
    root = Path(root)
    rng = random.Random(seed)
    paths: list[Path] = []
    ms = BASE_MS
    for i in range(max(count, 6)):
        ms += rng.randint(60_000, 86_400_000)
        cwd = CORPUS_CWDS[i % len(CORPUS_CWDS)]
        kind = i % 6
        parent = str(paths[rng.randrange(len(paths))].resolve()) if kind == 5 and paths else None
        header, entries = _corpus_session(rng, kind, cwd, ms, parent, i)
        paths.append(write_session(session_path(root, header), header, entries))
    if include_malformed:
        paths.extend(_odd_files(root, rng, ms))
    return paths


def _corpus_session(
    rng: random.Random, kind: int, cwd: str, ms: int, parent: str | None, i: int
) -> tuple[Entry, list[Entry]]:
    if kind == 0:
        return generate_v1_session(rng, cwd, start_ms=ms, turns=rng.randint(4, 8))
    if kind == 1:
        return generate_v2_session(rng, cwd, start_ms=ms)
    if kind == 2:
        return generate_varied_session(rng, cwd, start_ms=ms, name=f"Session {i}")
    if kind == 5:
        return generate_varied_session(rng, cwd, start_ms=ms, parent_session=parent, name=None)
    return _simple_session(rng, cwd, ms, turns=rng.randint(1, 6), name=None if kind == 3 else "")


def _simple_session(
    rng: random.Random, cwd: str, ms: int, turns: int, name: str | None = None
) -> tuple[Entry, list[Entry]]:
    header = make_header(rng, cwd, ms)
    b = SessionBuilder(rng, ms)
    b.set_model(rng.randrange(len(MODELS)))
    for _ in range(turns):
        turn(b, tools=rng.randint(0, 3), thinking=rng.random() < 0.5)
    if name is not None:
        b.add("session_info", name="  temporary\nname  ")
        b.add("session_info", name=name)  # "" clears the name again
    return header, b.entries


def _odd_files(root: Path, rng: random.Random, ms: int) -> list[Path]:
    folder = root / session_dir_name(CORPUS_CWDS[0])
    not_session = folder / "2026-01-01T00-00-00-000Z_not-a-session.jsonl"
    not_session.write_text(dumps({"type": "message", "id": "abcd1234"}) + "\n", encoding="utf-8")
    out = [not_session]
    for n, style in enumerate(("garbage", "crlf", "partial")):
        header, entries = _simple_session(rng, CORPUS_CWDS[1], ms + (n + 1) * 3_600_000, turns=2)
        lines = [dumps(header)] + [dumps(e) for e in entries]
        if style == "garbage":
            lines[2:2] = ["", "{not json at all", "   "]
            text = "\n".join(lines) + "\n"
        elif style == "crlf":
            text = "\r\n".join(lines) + "\r\n"
        else:
            text = "\n".join(lines) + "\n" + lines[-1][: len(lines[-1]) // 2]
        path = session_path(root, header)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        out.append(path)
    return out
