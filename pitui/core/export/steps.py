"""An export's progress as one percentage over its phases (the branch's entries rendered,
then, for HTML, its blocks turned into HTML), reported only when the percentage moves."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]
STEPS = 100  # the total reported: a percentage


class Steps:
    """`phase(k)` is the progress callback of phase `k` of `phases` (None: none wanted)."""

    def __init__(self, progress: Progress | None, phases: int) -> None:
        self.progress, self.phases = progress, phases
        self._said = -1

    def phase(self, number: int) -> Progress | None:
        if self.progress is None:
            return None

        def report(done: int, total: int) -> None:
            share = done / total if total else 1.0
            self._say(int((number + share) * STEPS / self.phases))

        return report

    def done(self) -> None:
        if self.progress is not None:
            self._say(STEPS)

    def _say(self, step: int) -> None:
        if step != self._said and self.progress is not None:
            self._said = step
            self.progress(step, STEPS)
