"""What the picker says after a sync of the remotes: a failure, and what a sync that worked
has to say (files that vanished there, a mirror grown past the warning size)."""

from __future__ import annotations

from pitui.core.remotes.sync import MIRROR_WARNING, SyncResult
from pitui.ui.screens.picker_remotes import sync_notices


def test_a_sync_that_worked_says_its_note_and_warning() -> None:
    quiet = SyncResult("box")
    vanished = SyncResult("lab", note="some files vanished \x1b[31mthere")
    large = SyncResult("big", mirror_bytes=MIRROR_WARNING + 1)
    failed = SyncResult("down", error="Host key verification failed", note="ignored")
    notices = sync_notices([quiet, vanished, large, failed])
    assert notices[0] == "lab: some files vanished ␛[31mthere"
    assert notices[1].startswith("big: ") and notices[1][5:] == large.warning
    assert notices[2] == "down: Host key verification failed (its last mirror stays listed)"
    assert len(notices) == 3
