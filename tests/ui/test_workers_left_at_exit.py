"""Once the app has quit and given its workers their grace, a worker thread still running
does not go through Python's exit: on the 10,000-session store, Ctrl+Q during the background
credential scan of a 164 MB session aborted the process in 3 runs of 4 ("FATAL: exception
not rethrown", exit status 134), the thread ended by the interpreter's exit inside native
code. The process now ends at once with the app's status."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from pty_terminal import REPO

SCRIPT = textwrap.dedent(
    """
    import sys, threading, time
    from pitui.commands.app import _end_now_if_workers_remain
    if sys.argv[1] == "worker":
        threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
    print("ending", flush=True)
    sys.stdout.write("unflushed")  # written before the process ends, even without a flush
    _end_now_if_workers_remain(7)
    print(" and on")
    """
)


def run(mode: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", SCRIPT, mode],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=REPO,
    )


def test_a_worker_left_running_ends_the_process_with_the_apps_status() -> None:
    done = run("worker")
    assert done.returncode == 7 and done.stdout == "ending\nunflushed"


def test_with_no_worker_left_the_process_goes_on() -> None:
    done = run("none")
    assert done.returncode == 0 and done.stdout == "ending\nunflushed and on\n"
