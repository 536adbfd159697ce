"""What the assistant messages of an exported branch say about models, tokens and cost, and
the header lines that say it: the numbers as the messages record them, read as JavaScript
reads them (an integer past 64 bits is the double JSON.parse makes of it, `1e400`
Infinity) and written as JavaScript's `String(number)` writes one past 1e21 or not finite
(`1e+308`, `Infinity`), as `pitui stats` writes such sums."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from pitui.core.export.fence import inline_code
from pitui.core.format.jsvalues import js_number_string
from pitui.core.rows.render_text import content_text

USAGE_KEYS = ("input", "output", "cacheRead", "cacheWrite")
JS_EXPONENT_FROM = 1e21  # JavaScript's String() of a number this large turns to an exponent


@dataclass(slots=True)
class Totals:
    """What the assistant messages of a branch say about models, tokens and cost."""

    models: list[str] = field(default_factory=list)
    tokens: dict[str, float] = field(default_factory=dict)
    cost: float = 0.0
    first_user: str | None = None

    def add(self, message: Any) -> None:
        if not isinstance(message, dict):
            return
        role = message.get("role")
        if role == "user" and self.first_user is None:
            text = content_text(message.get("content"), with_tools=False).strip()
            self.first_user = text or None
        if role != "assistant":
            return
        if message.get("model"):
            model = f"{message.get('provider')}/{message.get('model')}"
            if model not in self.models:
                self.models.append(model)
        usage = message.get("usage")
        if isinstance(usage, dict):
            tokens = self.tokens
            for key in USAGE_KEYS:
                value = usage.get(key)
                if _is_number(value):
                    tokens[key] = tokens.get(key, 0.0) + _js_double(value)
            cost = usage.get("cost")
            total = cost.get("total") if isinstance(cost, dict) else None
            if _is_number(total):
                self.cost += _js_double(total)

    def header(self) -> list[str]:
        lines = []
        if self.models:
            lines.append("**Models:** " + ", ".join(inline_code(m) for m in self.models))
        if self.tokens:
            parts = [f"{key} {_count_text(value)}" for key, value in self.tokens.items()]
            lines.append("**Tokens:** " + ", ".join(parts))
        if self.cost:
            lines.append(f"**Cost:** ${_cost_text(self.cost)}")
        return lines


def _is_number(value: Any) -> TypeGuard[float]:
    return type(value) is int or type(value) is float  # not a bool


def _js_double(value: float) -> float:
    """The double JSON.parse makes of a recorded number (Infinity past the largest)."""
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _plain(value: float) -> bool:
    """Whether JavaScript writes `value` without an exponent (finite, below 1e21)."""
    return math.isfinite(value) and abs(value) < JS_EXPONENT_FROM


def _count_text(value: float) -> str:
    """A whole count in grouped digits (`1,234`), any other as JavaScript writes it."""
    return f"{int(value):,}" if _plain(value) and value.is_integer() else js_number_string(value)


def _cost_text(value: float) -> str:
    return f"{value:.4f}" if _plain(value) else js_number_string(value)
