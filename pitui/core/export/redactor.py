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
        from pitui.core.secrets import redact  # deferred: see ARCHITECTURE.md

        redacted, found = redact(text)
        self.counts.update(found)
        return redacted

    def path(self, path: str, cwd: str) -> str:
        """A session file's path: its folder's name holds the session's cwd, whose secrets
        are replaced there too."""
        if not self.enabled:
            return path
        from pitui.core.secrets import find_secrets  # deferred: see ARCHITECTURE.md
        from pitui.core.secrets.detect import placeholder  # deferred: see ARCHITECTURE.md

        for finding in find_secrets(cwd):
            path = path.replace(cwd[finding.start : finding.end], placeholder(finding.kind))
        return self.text(path)

    def value(self, value: Any) -> Any:
        if not self.enabled:
            return value
        from pitui.core.secrets import redact_json  # deferred: see ARCHITECTURE.md

        return redact_json(value, self.counts, NAMING_KEYS)[0]

    def entry(self, raw: dict[str, Any]) -> dict[str, Any]:
        """An entry's JSON with its content redacted and its structure kept."""
        if not self.enabled:
            return raw
        from pitui.core.secrets import redact_json  # deferred: see ARCHITECTURE.md

        return {
            key: value if key in STRUCTURE_KEYS else redact_json(value, self.counts, NAMING_KEYS)[0]
            for key, value in raw.items()
        }
