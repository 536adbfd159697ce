"""`SummaryBuilder`: Pi's `buildSessionInfo`, fed line by line and resumable from a byte offset.

The rules live in `entry_rules.py` (exact, any line) and `fast_entries.py` (the common shapes,
decoded faster, same result); this module adds what makes the state resumable (`state` /
`from_state`: complete lines only) and the summary Pi would list (`summarize`: a partial last
line is applied to a throwaway copy, because Pi's readline yields it as a line too).
"""

from __future__ import annotations

import copy
from typing import Any

from pitui.core.catalog import lossless_json
from pitui.core.catalog.session_info.entry_rules import extract_text, split_lines
from pitui.core.catalog.session_info.fast_entries import FastEntries
from pitui.core.catalog.session_info.js_numbers import node_mtime_ms
from pitui.core.catalog.summary import SessionSummary
from pitui.core.format import jsvalues as js
from pitui.core.format.migration import is_newer

__all__ = ["SummaryBuilder", "extract_text", "node_mtime_ms", "split_lines"]

STATE_KEYS = (
    *("header", "entry_count", "message_count", "first_message", "name", "last_activity"),
    *("malformed", "rejected", "leaves", "parents", "labels", "models", "tokens", "cost"),
)


class SummaryBuilder(FastEntries):
    """Running summary state, resumable; see the module docstring."""

    # Characters of conversation text before `texts` that are not held here (the index keeps
    # them, see `from_state`): None when `texts` is all of it. A summary, and a state's text (one
    # with lone surrogates), then hold only the text that follows them (`index.Index._write`
    # makes them whole).
    text_before: int | None = None

    # -- persistence -------------------------------------------------------------------------

    def state(self, *, with_parents: bool = True) -> dict[str, Any]:
        """The state to resume from; `with_parents` False leaves the tree's parents out (the
        index stores them apart, by parts, and a growing session's set is large)."""
        out = {key: getattr(self, key) for key in STATE_KEYS if key != "parents"}
        out["leaves"] = sorted(self.leaves)
        if with_parents:
            out["parents"] = sorted(self.parents)
        out["tokens"], out["cost"] = (
            lossless_json.js_number(self.tokens),
            lossless_json.js_number(self.cost),
        )
        if self.last_activity is not None:
            out["last_activity"] = lossless_json.js_number(self.last_activity)
        text = " ".join(self.texts)
        if lossless_json.has_surrogates(text):  # SQLite's text column holds it without them
            out["text"] = text
        return out

    @classmethod
    def from_state(
        cls, state: dict[str, Any], text: str = "", *, text_before: int | None = None
    ) -> SummaryBuilder:
        """The builder `state()` saved, with its conversation text `text`, or (`text_before`)
        only that text's length: `texts` then holds what follows it (a state holding its own
        text, one with lone surrogates, always resumes with it)."""
        builder = cls(**{k: state[k] for k in STATE_KEYS if k in state})
        builder.leaves, builder.parents = set(builder.leaves), set(builder.parents)
        builder.tokens = lossless_json.from_js_number(builder.tokens)
        builder.cost = float(lossless_json.from_js_number(builder.cost))
        if builder.last_activity is not None:
            builder.last_activity = lossless_json.from_js_number(builder.last_activity)
        if text_before is not None and "text" not in state:
            builder.text_before = text_before
            builder.text_size = text_before + 1 if text_before else 0  # as if `texts` held it
            return builder
        text = state.get("text", text)
        builder.texts = [text] if text else []
        builder.text_size = len(text) + 1 if text else 0
        return builder

    def resume_here(self, text_before: int) -> SummaryBuilder:
        """This builder, as `from_state` would make it from the state it was stored with and
        the stored text's length: what it read since is stored (its text, its parents)."""
        self.texts, self.added_parents = [], []
        self.text_before = text_before
        self.text_size = text_before + 1 if text_before else 0
        return self

    @property
    def is_session(self) -> bool:
        return self.header is not None and not self.rejected

    # -- result ------------------------------------------------------------------------------

    def summarize(
        self, path: str, size: int, mtime_ns: int, tail: bytes = b""
    ) -> SessionSummary | None:
        """What Pi would list for these bytes (tail = a last line without newline), or None."""
        builder = self
        if tail and not self.rejected:
            builder = copy.copy(self)
            builder.texts = list(self.texts)
            builder.leaves, builder.parents = set(self.leaves), set(self.parents)
            builder.added_parents = list(self.added_parents)
            builder.labels, builder.models = dict(self.labels), list(self.models)
            builder.feed_lines([tail])
            if tail.lstrip().startswith(b"{"):
                # an entry not yet whole is `writing_in_progress`, not also a malformed line
                # (NUL bytes a crash left are still counted)
                builder.malformed = self.malformed
        if not builder.is_session:
            return None
        summary = builder._summary(path, mtime_ns)
        summary.size, summary.writing_in_progress = size, bool(tail)
        return summary

    def _summary(self, path: str, mtime_ns: int) -> SessionSummary:
        header = self.header or {}
        cwd = header.get("cwd")
        stamp = header.get("timestamp", js.UNDEFINED)
        header_ms = js.js_date_ms(stamp) if isinstance(stamp, str) else None
        if self.last_activity is not None and self.last_activity > 0:
            modified = js.valid_time(self.last_activity)
        elif header_ms is not None:
            modified = js.valid_time(header_ms)
        else:
            modified = node_mtime_ms(mtime_ns)
        return SessionSummary(
            path=path,
            id=header.get("id"),
            cwd=cwd if isinstance(cwd, str) else "",
            name=self.name,
            parent_session_path=header.get("parentSession"),
            created_ms=js.valid_time(js.js_date_ms(stamp)),
            modified_ms=modified,
            message_count=self.message_count,
            first_message=self.first_message or "(no messages)",
            all_messages_text=" ".join(self.texts),
            entry_count=self.entry_count,
            branch_count=len(self.leaves),
            labels=tuple(self.labels.values()),
            models=tuple(self.models),
            total_tokens=self.tokens,
            total_cost=round(self.cost, 10),
            malformed_lines=self.malformed,
            newer_format=is_newer(header),
            mtime_ns=mtime_ns,
        )
