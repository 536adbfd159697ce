"""How the write commands (`label`, `name`, `trash`, `context-edit`) report a refusal or
a failure."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pitui.core.changes.file_messages import shown
from pitui.core.changes.write_guard import ConcurrentWriteWarning
from pitui.core.errors import PituiError
from pitui.core.remotes.remote_run import FORCE_HINT


@contextlib.contextmanager
def writing_from_command() -> Iterator[None]:
    """A refusal names `--force`, and every message is shown inert (one raised below the
    changes layer may quote a file name or session text as it is)."""
    try:
        yield
    except ConcurrentWriteWarning as warning:
        raise PituiError(f"{shown(str(warning))}{FORCE_HINT}") from None
    except PituiError as error:
        raise PituiError(shown(str(error))) from None
