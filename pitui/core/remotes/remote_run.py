"""Commands run on a remote over ssh, every part quoted for the remote's shell (never a
local shell): resuming a mirrored session with `pi` there, and pitui's writes to a mirrored
session run by pitui there (so its checks run where the file is), then a sync."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

from pitui.core.changes.write_guard import ConcurrentWriteWarning
from pitui.core.errors import PituiError
from pitui.core.remotes.config import Remote, load_remotes
from pitui.core.remotes.mirror import mirrored_remote
from pitui.core.remotes.ssh import remote_path_word, ssh_argv
from pitui.core.remotes.stores import mirror_of
from pitui.core.remotes.sync import failure_line, sync_remote
from pitui.core.rows.safe_text import one_line

NOT_INSTALLED = 97  # the remote command's status when pitui is not there
MISSING = 1  # `test -d` there: the folder is not there
WRITE_TIMEOUT = 120  # seconds a write there may take, its connection included
# how a write command's refusal ends (commands/support/command_errors), here or on a remote
FORCE_HINT = "; nothing was changed (use --force to write anyway)"


def remote_of(path: str | os.PathLike[str]) -> tuple[Remote, str] | None:
    """The remote whose mirror holds `path`, and the file's path there (None: not mirrored)."""
    remotes = load_remotes()
    remote = mirrored_remote(path, remotes) if remotes else None
    if remote is None:
        return None
    return remote, mirror_of(remote).remote_path(os.path.abspath(path))


def remote_resume_argv(remote: Remote, cwd: str, remote_path: str) -> list[str]:
    """`ssh -t HOST 'cd CWD && pi --session REMOTE_PATH'` (CWD `~`: the home folder there)."""
    command = f"cd {remote_path_word(cwd)} && pi --session {remote_path_word(remote_path)}"
    return ssh_argv(remote.host, command, tty=True)


def resume_mirrored(path: str | os.PathLike[str], cwd: str) -> list[str] | None:
    """The command that resumes the mirrored session at `path` on its remote (None: `path`
    is not in a mirror)."""
    found = remote_of(path)
    return None if found is None else remote_resume_argv(found[0], cwd, found[1])


def folder_there(remote: Remote, folder: str) -> bool:
    """Whether `folder` is a folder on `remote` (asked over ssh, never prompting); a remote
    that cannot be reached raises `PituiError` with ssh's last line."""
    command = f"test -d {remote_path_word(folder)}" if folder else "false"
    done = _ssh(remote, command)
    if done.returncode in (0, MISSING):
        return done.returncode == 0
    raise PituiError(f"{remote.name}: {failure_line(done.stderr, done.returncode, remote.host)}")


NO_SESSIONS = 3  # `reach`'s remote command: no session folder there
NO_PITUI = 4  # `reach`'s remote command: its pitui command is not found there


def reach(remote: Remote, action: str = "added") -> list[str]:
    """Connect to `remote` as a sync does (never prompting): what is missing there, one line
    each (its session folder, its pitui command); a remote that cannot be reached raises
    `PituiError` with what ssh said."""
    program = shlex.split(remote.pitui_command)[0]
    command = (
        f"test -d {remote_path_word(remote.sessions_dir)} || exit {NO_SESSIONS}; "
        f"command -v {shlex.quote(program)} >/dev/null 2>&1 || exit {NO_PITUI}; exit 0"
    )
    done = _ssh(remote, command, f" (nothing {action})")
    if done.returncode == NO_SESSIONS:
        return [
            f"no session folder at {one_line(remote.sessions_dir)} there yet (--agent-dir "
            "names Pi's agent folder there)"
        ]
    if done.returncode == NO_PITUI:
        return [
            f"{one_line(program)} is not found there: its sessions are mirrored, but a label, "
            "name or trash of them needs pitui there (--pitui-command)"
        ]
    if done.returncode != 0:
        said = failure_line(done.stderr, done.returncode, remote.host)
        raise PituiError(f"{remote.name}: {said} (nothing {action}; --no-test skips this)")
    return []


def _ssh(remote: Remote, command: str, nothing: str = "") -> subprocess.CompletedProcess[str]:
    """`command` run there by ssh, output captured, never prompting; ssh that cannot run
    raises `PituiError` (`nothing`: what was not done, said after the reason)."""
    try:
        return subprocess.run(
            ssh_argv(remote.host, command),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=WRITE_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise PituiError(f"{remote.name}: cannot run ssh: {error}{nothing}") from None


def write_there(
    path: str | os.PathLike[str], subcommand: str, args: list[str], *, force: bool = False
) -> str:
    """`pitui SUBCOMMAND [--force] -- PATH_THERE ARGS...` run by pitui on the remote whose
    mirror holds `path` (output captured: the app's screen stays whole), then its mirror
    synced; what pitui there printed. A refusal there because pi may be writing raises
    `ConcurrentWriteWarning` (asked, then retried with `force`), any other failure
    `PituiError`, one line."""
    found = remote_of(path)
    if found is None:
        raise PituiError(f"{one_line(str(path))} is not in a remote's mirror")
    remote, there = found
    options = ["--force"] if force else []
    words = [*options, "--", there, *args]
    command = pitui_there_command(remote, subcommand, words, path_at=len(options) + 1)
    done = _ssh(remote, command)
    if done.returncode == NOT_INSTALLED:
        raise PituiError(_not_installed(remote))
    if done.returncode != 0:
        said = _last_line(done.stderr, done.returncode).removeprefix("pitui: ")
        if said.endswith(FORCE_HINT):
            raise ConcurrentWriteWarning(f"on {remote.name}: {said.removesuffix(FORCE_HINT)}")
        raise PituiError(f"{remote.name}: {said}")
    synced = sync_remote(remote)
    if synced.error:
        raise PituiError(
            f"written on {remote.name}, but its mirror was not synced: {one_line(synced.error)}"
        )
    return one_line(done.stdout.strip())


def _last_line(stderr: str, status: int) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return one_line(lines[-1]) if lines else f"exited with status {status}"


def _not_installed(remote: Remote) -> str:
    return (
        f"{remote.name}: {one_line(remote.pitui_command)} is not installed there: nothing was "
        f"written (pitui remote set {remote.name} --pitui-command CMD sets its command)"
    )


def pitui_there_command(
    remote: Remote, subcommand: str, args: list[str], path_at: int | None = None
) -> str:
    """`pitui SUBCOMMAND ARGS...` for the remote's shell, exiting with `NOT_INSTALLED` when
    its pitui command is not found there. Only `args[path_at]`, the session's path there,
    has a leading `~/` left to the remote's shell to expand; every other argument (a name,
    a label: `~/notes` is text) is quoted as it is."""
    program = shlex.split(remote.pitui_command)[0]
    words = " ".join(
        remote_path_word(a) if i == path_at else shlex.quote(a) for i, a in enumerate(args)
    )
    return (
        f"command -v {shlex.quote(program)} >/dev/null 2>&1 || exit {NOT_INSTALLED}; "
        f"exec {remote.pitui_command} {shlex.quote(subcommand)} {words}"
    )


def forward_write(subcommand: str, args: list[str]) -> int | None:
    """Run a write subcommand naming a mirrored session with pitui on its remote, then sync
    the mirror; None when no argument is a mirrored session (run it here)."""
    for index, arg in enumerate(args):
        if arg.startswith("-") or not arg.endswith(".jsonl"):
            continue
        found = remote_of(arg)
        if found is None:
            continue
        remote, there = found
        remote_args = [*args[:index], there, *args[index + 1 :]]
        command = pitui_there_command(remote, subcommand, remote_args, path_at=index)
        done = subprocess.run(ssh_argv(remote.host, command), stdin=subprocess.DEVNULL)
        if done.returncode == NOT_INSTALLED:
            print(f"pitui: {_not_installed(remote)}", file=sys.stderr)
            return 1
        synced = sync_remote(remote)
        if synced.error:
            print(f"pitui: {remote.name}: sync: {one_line(synced.error)}", file=sys.stderr)
        return done.returncode
    return None
