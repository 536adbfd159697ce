"""The worker processes of a cold scan start in the app too, where Textual captures stderr."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from pitui.demo.generate import generate_corpus

# Run in a process of its own: the pool's resource tracker is started once per process, and
# only its first start reads stderr's descriptor.
SCRIPT = textwrap.dedent(
    """
    import sys
    from pathlib import Path

    from pitui.core.catalog.scan.workers import Workers


    class Captured:  # as Textual's print capture: a stream without a descriptor
        def write(self, text):
            return len(text)

        def flush(self):
            pass

        def fileno(self):
            return -1


    if __name__ == "__main__":  # the workers import this module again
        files = sorted(str(p) for p in Path(sys.argv[1]).rglob("*.jsonl"))
        captured = sys.stderr = Captured()
        workers = Workers()
        started = workers.start()
        read = [r for _, results in workers.read_fresh(files, 4) for r in results]
        workers.shutdown()
        still_captured = sys.stderr is captured
        sys.stderr = sys.__stderr__
        print(started, still_captured, len(files), sum(r is not None for r in read))
    """
)


def test_workers_start_where_stderr_has_no_descriptor(tmp_path: Path) -> None:
    generate_corpus(tmp_path / "sessions", seed=4, count=12, include_malformed=False)
    script = tmp_path / "start_workers.py"
    script.write_text(SCRIPT)
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "sessions")],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    started, still_captured, files, read = done.stdout.split()
    assert started == "True"  # it was False: the app read a cold store on one core
    assert still_captured == "True"
    assert int(files) >= 12 and read == files
