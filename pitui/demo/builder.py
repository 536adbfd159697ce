"""Building blocks of Pi session files: JSON lines, paths, ids, headers, and ``SessionBuilder``.

Everything here writes files exactly as Pi 1.6.0 writes them: one
``JSON.stringify(entry) + "\\n"`` per line (reproduced with compact separators and
``ensure_ascii=False``; floats are kept in a range where Python and JavaScript print them
identically), a ``session`` header first, then entries with 8-hex ids linked by ``parentId``.
All randomness comes from a seeded :class:`random.Random` and clocks start from fixed base
dates, so the same arguments always produce the same bytes.
"""

from __future__ import annotations

import base64
import json
import random
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

Entry = dict[str, Any]

BASE_MS = 1_767_225_600_000  # 2026-01-01T00:00:00.000Z
MISSING_PARENT_ID = "deadbeef"  # parent id of the deliberate orphan; never generated as an id

MODELS: tuple[tuple[str, str, str], ...] = (
    ("anthropic", "claude-sonnet-4-5", "anthropic-messages"),
    ("anthropic", "claude-opus-4-1", "anthropic-messages"),
    ("openai", "gpt-5.1-codex", "openai-responses"),
    ("google", "gemini-2.5-pro", "google-generative-ai"),
)
THINKING_LEVELS: tuple[str, ...] = ("off", "minimal", "low", "medium", "high")


# ---------------------------------------------------------------------------
# Low-level helpers
# ---------------------------------------------------------------------------


def dumps(obj: Any) -> str:
    """Serialize like JavaScript's ``JSON.stringify`` (no spaces, raw non-ASCII)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def write_session(path: Path | str, header: Entry, entries: Iterable[Entry]) -> Path:
    """Write a session file (header line, then one line per entry) and return its path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n", buffering=1 << 20) as f:
        f.write(dumps(header) + "\n")
        for entry in entries:
            f.write(dumps(entry) + "\n")
    return path


def session_dir_name(cwd: str) -> str:
    """Pi's folder name for a cwd: ``--`` + cwd sans leading separator, ``/\\:`` -> ``-``."""
    stripped = cwd[1:] if cwd[:1] in ("/", "\\") else cwd
    for ch in "/\\:":
        stripped = stripped.replace(ch, "-")
    return f"--{stripped}--"


def session_file_name(header: Entry) -> str:
    """``<timestamp with : and . replaced by ->_<session id>.jsonl``."""
    stamp = str(header["timestamp"]).replace(":", "-").replace(".", "-")
    return f"{stamp}_{header['id']}.jsonl"


def session_path(sessions_root: Path | str, header: Entry) -> Path:
    """Where Pi stores the session with this header under a sessions root."""
    return Path(sessions_root) / session_dir_name(str(header["cwd"])) / session_file_name(header)


def iso_ms(ms: int) -> str:
    """Unix milliseconds -> ``2026-01-01T00:00:00.000Z`` (JavaScript ``toISOString``)."""
    dt = datetime.fromtimestamp(ms / 1000, UTC)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"


def uuid7(rng: random.Random, ms: int) -> str:
    """A UUIDv7 string (Pi's session ids) whose random bits come from ``rng``."""
    value = (ms & ((1 << 48) - 1)) << 80
    value |= 0x7 << 76
    value |= rng.getrandbits(12) << 64
    value |= 0b10 << 62
    value |= rng.getrandbits(62)
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def uuid4(rng: random.Random) -> str:
    """A UUIDv4 string (old Pi session ids) from ``rng``."""
    value = rng.getrandbits(128)
    value = (value & ~(0xF << 76)) | (0x4 << 76)
    value = (value & ~(0b11 << 62)) | (0b10 << 62)
    h = f"{value:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def make_header(
    rng: random.Random,
    cwd: str,
    ms: int,
    *,
    version: int | None = 3,
    parent_session: str | None = None,
    extra: Entry | None = None,
) -> Entry:
    """A session header; ``version=None`` gives a v1 header (no version key)."""
    header: Entry = {"type": "session"}
    if version is not None:
        header["version"] = version
    header["id"] = uuid7(rng, ms) if version == 3 else uuid4(rng)
    header["timestamp"] = iso_ms(ms)
    header["cwd"] = cwd
    if parent_session is not None:
        header["parentSession"] = parent_session
    if extra:
        header.update(extra)
    return header


def cost_value(x: float) -> float | int:
    """A cost that JavaScript and Python print identically (0, or >= 1e-4 with 6 decimals)."""
    if x <= 0:
        return 0
    x = max(round(x, 6), 0.0001)
    return int(x) if float(x).is_integer() else x


def make_usage(rng: random.Random, scale: int = 1) -> Entry:
    """A realistic assistant ``usage`` object with cost (Anthropic-like prices)."""
    inp = rng.randint(1, 40) * scale
    out = rng.randint(20, 1500)
    cache_read = rng.choice((0, rng.randint(2_000, 120_000)))
    cache_write = rng.randint(0, 4_000)
    cost = {
        "input": cost_value(inp * 3e-6),
        "output": cost_value(out * 15e-6),
        "cacheRead": cost_value(cache_read * 0.3e-6),
        "cacheWrite": cost_value(cache_write * 3.75e-6),
    }
    cost["total"] = cost_value(sum(float(v) for v in cost.values()))
    return {
        "input": inp,
        "output": out,
        "cacheRead": cache_read,
        "cacheWrite": cache_write,
        "totalTokens": inp + out + cache_read + cache_write,
        "cost": cost,
    }


def _png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A tiny solid-colour PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    row = b"\x00" + bytes(rgb) * width
    raw = row * height
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def png_base64(width: int = 4, height: int = 4, rgb: tuple[int, int, int] = (200, 40, 40)) -> str:
    """Base64 of a small valid PNG (for image content blocks)."""
    return base64.b64encode(_png(width, height, rgb)).decode("ascii")


# ---------------------------------------------------------------------------
# Session builder: appends entries the way Pi's SessionManager does
# ---------------------------------------------------------------------------


@dataclass
class SessionBuilder:
    """Builds a v3 entry list: every append is a child of the current leaf, like Pi."""

    rng: random.Random
    ms: int
    entries: list[Entry] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    leaf: str | None = None
    model: tuple[str, str, str] = MODELS[0]

    def tick(self, lo: int = 200, hi: int = 20_000) -> int:
        self.ms += self.rng.randint(lo, hi)
        return self.ms

    def new_id(self) -> str:
        while True:
            value = f"{self.rng.getrandbits(32):08x}"
            if value not in self.ids and value != MISSING_PARENT_ID:
                self.ids.add(value)
                return value

    def base(self, kind: str, parent: str | bool | None = True) -> Entry:
        """Entry base; ``parent=True`` means the current leaf."""
        self.tick()
        parent_id = self.leaf if parent is True else parent
        return {
            "type": kind,
            "id": self.new_id(),
            "parentId": parent_id,
            "timestamp": iso_ms(self.ms),
        }

    def push(self, entry: Entry) -> str:
        self.entries.append(entry)
        self.leaf = entry["id"]
        return str(entry["id"])

    def add(self, entry_type: str, parent: str | bool | None = True, **fields: Any) -> str:
        entry = self.base(entry_type, parent)
        entry.update(fields)
        return self.push(entry)

    def message(self, message: Entry, parent: str | bool | None = True) -> str:
        entry = self.base("message", parent)
        message["timestamp"] = self.ms - self.rng.randint(0, 5)
        entry["message"] = message
        return self.push(entry)

    # -- message shortcuts -------------------------------------------------

    def user(self, content: str | list[Entry], parent: str | bool | None = True) -> str:
        return self.message({"role": "user", "content": content}, parent)

    def assistant(
        self,
        blocks: list[Entry],
        stop: str = "stop",
        error: str | None = None,
        usage: Entry | None = None,
    ) -> str:
        provider, model, api = self.model
        msg: Entry = {
            "role": "assistant",
            "content": blocks,
            "api": api,
            "provider": provider,
            "model": model,
            "usage": usage or make_usage(self.rng),
            "stopReason": stop,
        }
        if error:
            msg["errorMessage"] = error
        return self.message(msg)

    def tool_result(self, call: Entry, text: str, is_error: bool = False) -> str:
        return self.message(
            {
                "role": "toolResult",
                "toolCallId": call["id"],
                "toolName": call["name"],
                "content": [{"type": "text", "text": text}],
                "isError": is_error,
            }
        )

    def tool_call(self, name: str, arguments: Entry) -> Entry:
        prefix = "toolu_" if self.model[0] == "anthropic" else "call_"
        suffix = "".join(
            self.rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789")
            for _ in range(24)
        )
        return {"type": "toolCall", "id": prefix + suffix, "name": name, "arguments": arguments}

    def set_model(self, index: int) -> str:
        self.model = MODELS[index % len(MODELS)]
        return self.add("model_change", provider=self.model[0], modelId=self.model[1])

    def label(self, target: str, label: str | None) -> str:
        """A label entry; ``None`` clears it (no ``label`` key: JSON.stringify drops undefined)."""
        if label is None:
            return self.add("label", targetId=target)
        return self.add("label", targetId=target, label=label)

    def custom(self, custom_type: str, data: Any) -> str:
        self.tick()
        entry = {"type": "custom", "customType": custom_type, "data": data}
        entry.update({"id": self.new_id(), "parentId": self.leaf, "timestamp": iso_ms(self.ms)})
        return self.push(entry)

    def custom_message(
        self, custom_type: str, content: Any, display: bool = True, details: Any = None
    ) -> str:
        self.tick()
        entry: Entry = {"type": "custom_message", "customType": custom_type, "content": content}
        entry["display"] = display
        if details is not None:
            entry["details"] = details
        entry.update({"id": self.new_id(), "parentId": self.leaf, "timestamp": iso_ms(self.ms)})
        return self.push(entry)

    def compaction(
        self,
        summary: str,
        first_kept: str | None,
        tokens_before: int,
        system_message: Entry | None = None,
        details: Entry | None = None,
    ) -> str:
        """A compaction; ``first_kept=None`` makes a retain-none compaction (points at itself)."""
        entry = self.base("compaction")
        entry["summary"] = summary
        entry["firstKeptEntryId"] = first_kept or entry["id"]
        entry["tokensBefore"] = tokens_before
        if details is not None:
            entry["details"] = details
        entry["fromHook"] = False
        if system_message is not None:
            entry["systemMessage"] = {**system_message, "timestamp": self.ms}
        return self.push(entry)

    def branch_summary(self, branch_from: str | None, from_id: str, summary: str) -> str:
        """Pi's ``branchWithSummary``: move the leaf to ``branch_from`` and summarise."""
        details = {"readFiles": ["src/app.py"], "modifiedFiles": []}
        return self.add(
            "branch_summary", parent=branch_from, fromId=from_id, summary=summary, details=details
        )

    def path_ids(self, leaf: str | None = None) -> list[str]:
        """Ids on the path root -> leaf (current leaf by default)."""
        by_id = {e["id"]: e for e in self.entries}
        out: list[str] = []
        cur = by_id.get(leaf or self.leaf or "")
        while cur is not None and len(out) <= len(by_id):
            out.append(cur["id"])
            cur = by_id.get(cur["parentId"]) if cur["parentId"] else None
        return out[::-1]

    def find_on_path(self, role: str) -> list[str]:
        by_id = {e["id"]: e for e in self.entries}
        return [
            i
            for i in self.path_ids()
            if by_id[i]["type"] == "message" and by_id[i]["message"].get("role") == role
        ]
