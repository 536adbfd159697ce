"""The stores a catalog lists beyond the sessions root: pitui's archive (`archive_dir`) and
remotes' mirrors, each laid out as a sessions root (`--<cwd>--/*.jsonl`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Mirror:
    """A remote's sessions mirrored here: `folder` holds what `remote_dir` holds there."""

    name: str  # the store name of its sessions
    folder: Path
    remote_dir: str

    def remote_path(self, path: str) -> str:
        """The remote's path of a file in `folder`."""
        relative = Path(path).relative_to(self.folder).as_posix()
        return self.remote_dir.rstrip("/") + "/" + relative
