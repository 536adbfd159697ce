"""The picker's `file:PATH` (relative to the folder pitui started in): the sessions that
wrote or edited the file, the same `pitui log` names."""

from __future__ import annotations

import posixpath
from typing import Any

from ui_helpers import plain, settle, started
from waiting import wait_for

from pitui.core.file_history.history import file_history
from pitui.core.file_history.session_files import session_files

DEMO_CWD = "/home/demo/projects/pitui"  # the app_factory's cwd


async def test_file_lists_the_sessions_that_wrote_or_edited_it(app_factory: Any) -> None:
    async with app_factory().run_test(size=(160, 40)) as pilot:
        picker = await started(pilot)
        catalog = pilot.app.catalog
        await wait_for(pilot, lambda: not catalog.tools_pending, "the tool pass", 20)
        sessions = catalog.sessions()
        edited = next(
            use.path
            for s in sessions
            for use in session_files(s.path)
            if use.counts["edit"] and "cart.ts" in use.path
        )
        expected = set(file_history(sessions, (edited,)).sessions)
        assert len(expected) >= 2
        assert "all sessions" in plain(picker.query_one("#picker-status"), 300)
        typed = "file:" + posixpath.relpath(edited, DEMO_CWD)
        await pilot.press(*typed)
        await wait_for(pilot, lambda: not picker.search_pending, "the answer")
        await settle(pilot)
        assert {row.summary.path for row in picker.rows} == expected
