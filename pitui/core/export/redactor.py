"""Redaction applied, or not, to everything an export takes from a session."""

from __future__ import annotations

from collections import Counter
from typing import Any

# Fields that tie entries together: never secrets, and changing them would break the file.
STRUCTURE_KEYS = frozenset({"type", "id", "parentId", "timestamp", "targetId", "fromId"})
# Fields of messages that name things, never secrets (and opaque model signatures, which are
# long random strings that only the model reads).
NAMING_KEYS = STRUCTURE_KEYS | {
    "role", "toolCallId", "toolName", "api", "provider", "model", "modelId", "stopReason",
    "mimeType", "customType", "thinkingSignature", "textSignature", "responseId",
}  # fmt: skip


class Redactor:
    """Counts what it redacts; does nothing when disabled."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.counts: Counter[str] = Counter()

    def text(self, text: str) -> str:
        if not self.enabled:
            return text
        # deferred: the secret patterns, ~17 ms, only with --redact
        from pitui.core.secrets import redact

        redacted, found = redact(text)
        self.counts.update(found)
        return redacted

    def path(self, path: str, cwd: str | None = None) -> str:
        """A session file's path: its folder's name holds the session's cwd (Pi writes
        `/home/me/proj` as `--home-me-proj--`), whose secrets are replaced there too, found
        in the cwd when it is known and in each part of the path read back as a cwd (a
        secret after a `-` was not one in the path's own text)."""
        if not self.enabled:
            return path
        # deferred: the secret patterns, ~17 ms, only with --redact
        from pitui.core.secrets import find_secrets

        # deferred: the secret patterns, ~17 ms, only with --redact
        from pitui.core.secrets.detect import placeholder

        for finding in find_secrets(cwd) if cwd else ():
            path = path.replace(cwd[finding.start : finding.end], placeholder(finding.kind))
        parts = path.split("/")
        for index, part in enumerate(parts):
            as_cwd = part.replace("-", "/").replace("\\", "/").replace(":", "/")
            for finding in sorted(find_secrets(as_cwd), key=lambda f: -f.start):
                self.counts[finding.kind] += 1
                part = part[: finding.start] + placeholder(finding.kind) + part[finding.end :]
            parts[index] = part
        return self.text("/".join(parts))

    def value(self, value: Any) -> Any:
        if not self.enabled:
            return value
        # deferred: the secret patterns, ~17 ms, only with --redact
        from pitui.core.secrets import redact_json

        return redact_json(value, self.counts, NAMING_KEYS)[0]

    def entry(self, raw: dict[str, Any]) -> dict[str, Any]:
        """An entry's JSON with its content redacted and its structure kept."""
        if not self.enabled:
            return raw
        # deferred: the secret patterns, ~17 ms, only with --redact
        from pitui.core.secrets import redact_json

        return {
            key: value if key in STRUCTURE_KEYS else redact_json(value, self.counts, NAMING_KEYS)[0]
            for key, value in raw.items()
        }
