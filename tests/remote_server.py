"""A real OpenSSH server on 127.0.0.1 for the remote tests: a throwaway host key and user key,
a port of its own, run by the test session (as root, which these tests need) and stopped at
its end. `ssh_server.env` is the `PITUI_SSH_COMMAND` that reaches it. A test that needs it and
finds sshd, ssh or rsync missing (or is not root) skips with the reason (`.ci/run` installs
them)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from waiting import wait_until

SSHD = "/usr/sbin/sshd"


@dataclass
class SshServer:
    folder: Path
    port: int
    process: subprocess.Popen[bytes]

    @property
    def ssh_command(self) -> str:
        return (
            f"ssh -F /dev/null -p {self.port} -i {self.folder / 'user_key'} "
            f"-o UserKnownHostsFile={self.folder / 'known_hosts'} "
            "-o StrictHostKeyChecking=accept-new -o BatchMode=yes -o LogLevel=ERROR"
        )

    def new_host_key(self) -> None:
        """Another host key (the server restarted with it): a known host's key changed."""
        self.stop()
        key = self.folder / "host_key"
        key.unlink()
        key.with_suffix(".pub").unlink()
        _keygen(key)
        self.process = _start(self.folder, self.port)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def missing_tools() -> str | None:
    if os.geteuid() != 0:
        return "the ssh server tests run sshd as root"
    for tool in (SSHD, "ssh", "ssh-keygen", "rsync"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install openssh-server openssh-client rsync)"
    return None


def _keygen(path: Path) -> None:
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)],
        check=True,
        stdin=subprocess.DEVNULL,
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(folder: Path, port: int) -> subprocess.Popen[bytes]:
    log = open(folder / "sshd.log", "ab")  # noqa: SIM115 (kept open by the server)
    process = subprocess.Popen(
        [SSHD, "-D", "-e", "-f", str(folder / "sshd_config"), "-p", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
    )

    def answers() -> bool:
        if process.poll() is not None:
            raise RuntimeError((folder / "sshd.log").read_text(errors="replace"))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                return s.recv(4).startswith(b"SSH-")
        except OSError:
            return False

    try:
        wait_until(answers, "sshd to answer", 10)
    except AssertionError:
        process.kill()
        raise
    return process


def _config(folder: Path) -> str:
    return "\n".join(
        [
            "ListenAddress 127.0.0.1",
            f"HostKey {folder / 'host_key'}",
            f"AuthorizedKeysFile {folder / 'user_key.pub'}",
            "PidFile none",
            "UsePAM no",
            "StrictModes no",
            "PermitRootLogin yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "PermitUserEnvironment no",
            "Subsystem sftp internal-sftp",
            # the remote's commands (`pi`, `pitui`) are found in the server's bin folder
            f"SetEnv PATH={folder / 'bin'}:/usr/local/bin:/usr/bin:/bin",
            "",
        ]
    )


def _remote_commands(folder: Path) -> None:
    """`pi` there notes its folder and arguments in `pi-called`; `pitui` there is this one,
    with user folders of its own."""
    bin_folder = folder / "bin"
    bin_folder.mkdir()
    pi = bin_folder / "pi"
    pi.write_text(f'#!/bin/sh\n{{ pwd; printf "%s\\n" "$@"; }} > {folder / "pi-called"}\n')
    home = folder / "remote-home"
    pitui = bin_folder / "pitui"
    pitui.write_text(
        "#!/bin/sh\n"
        + "".join(f"export {v}={home / v.lower()}\n" for v in REMOTE_FOLDERS)
        + f'exec {sys.executable} -m pitui "$@"\n'
    )
    for command in (pi, pitui):
        command.chmod(0o755)


REMOTE_FOLDERS = ("XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME")


@pytest.fixture(scope="session")
def ssh_server() -> Iterator[SshServer]:
    reason = missing_tools()
    if reason is not None:
        pytest.skip(reason)
    folder = Path(tempfile.mkdtemp(prefix="pitui-sshd-"))
    _keygen(folder / "host_key")
    _keygen(folder / "user_key")
    (folder / "sshd_config").write_text(_config(folder))
    _remote_commands(folder)
    os.makedirs("/run/sshd", exist_ok=True)  # sshd's privilege separation folder
    port = _free_port()
    server = SshServer(folder, port, _start(folder, port))
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
