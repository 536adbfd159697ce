"""A session being written (pi at work) is read on from where its last read ended, asking
for no more than the file holds."""

from __future__ import annotations

import io
import json
from pathlib import Path

from pitui.core.catalog.scan import lines


def _entry(entry_id: str, parent: str | None, text: str = "words") -> bytes:
    line = {"type": "message", "id": entry_id, "parentId": parent,
            "timestamp": "2026-01-01T00:00:01.000Z",
            "message": {"role": "user", "content": text}}  # fmt: skip
    return json.dumps(line).encode() + b"\n"


class _Asking:
    """A file whose reads are recorded (how many bytes each asked for)."""

    def __init__(self, fh: io.BufferedReader) -> None:
        self.fh, self.asked = fh, list[int]()

    def read(self, size: int = -1) -> bytes:
        self.asked.append(size)
        return self.fh.read(size)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self.fh.seek(offset, whence)

    def fileno(self) -> int:
        return self.fh.fileno()


def test_line_reader_asks_for_what_the_file_holds(tmp_path: Path) -> None:
    """A read asks for the bytes the file holds past where it is (and one more), not a whole
    chunk: `read(n)` allocates n bytes first, and a session being written is read on by a
    few KB at each change. A file that grows while it is read is still read to its end."""
    path = tmp_path / "s.jsonl"
    first = b"".join(_entry(f"{n}", None) for n in range(20))
    path.write_bytes(first)
    got: list[bytes] = []
    with path.open("rb") as raw:
        fh = _Asking(raw)
        reader = lines.LineReader(fh, 0)  # type: ignore[arg-type]
        for data, _ in reader:
            got += data.split(b"\n")
            if len(got) == 20:
                with path.open("ab") as out:
                    out.write(_entry("more", None) + b"{}")
    assert max(fh.asked) <= len(first) + 1 < lines.CHUNK
    assert len(got) == 21 and reader.tail == b"{}"
    assert reader.offset == len(first) + len(_entry("more", None))
