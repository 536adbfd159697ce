"""A write to a session of a remote's mirror is run by pitui on that remote: a command that
says `FORWARDED_FOR_MIRRORS = True` (`label`, `name`, `context-edit`, `trash`) and names a
mirrored session is run there with the words as typed, before they are parsed here, then
the mirror is synced (`core/remotes/remote_run.forward_write`)."""

from __future__ import annotations


def run_on_its_remote(name: str, command: object, args: list[str]) -> int | None:
    """The exit status of `pitui NAME ARGS` run on the remote whose mirror holds the session
    ARGS names; None when it runs here (`command`, the subcommand's module, writes nothing
    there, or no argument is a mirrored session)."""
    if not getattr(command, "FORWARDED_FOR_MIRRORS", False):
        return None
    if not any(arg.endswith(".jsonl") for arg in args):
        return None
    # deferred: ssh and the remotes, ~26 ms off every other command
    from pitui.core.remotes.remote_run import forward_write

    return forward_write(name, args)
