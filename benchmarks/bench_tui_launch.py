"""The app as a user meets it: from launch to the screen showing the answer, pitui against
Pi 1.6.0's own TUI, measured in tmux, in the same run: the screen is read (`capture-pane`)
through one control-mode client (`tmux -C`) each time the program writes to it, so an answer
is seen within a millisecond or two of being drawn.

    python benchmarks/bench_tui_launch.py [--repeats 3] [--part picker|archive|session|enter|all]
                                          [--sessions 1000] [--pause 1.0] [--archived 900]

picker   `pitui --all` on a store of `--sessions` generated sessions (warm index) until the
         first session title appears and until the whole list is in (status "N shown"),
         against `pi --resume` until its picker is up, then Tab (All sessions) until the same
         title appears (Pi shows rows while it lists, "Loading 50/1000") and until the whole
         list is in ("◉ All"); and, as the floor no Textual app here can beat, a Textual app
         showing one line (`textual_floor.py`). With `--archived N`, also Pi's `/resume`
         (All) on the store against a copy of it after `pitui archive` moved its N oldest
         sessions out (until the picker is up, then Tab until "◉ All"), alternating;
         `--part archive`: only that comparison (N: 900 unless given).
session  `pitui FILE` on the 100k-entry session (~110 MB) until tree rows appear and until
         the whole tree is loaded (the header shows the entry count and no progress line),
         against `pi --session COPY` until the conversation (the leaf message) is shown. Pi
         appends an entry when it opens a session, so it gets a fresh copy per run; the
         session's cwd is an existing folder, else Pi asks first.
enter    each picker opened in a folder whose only session is the 100k-entry one, Enter
         pressed `--pause` seconds after it is listed (a user reads the list; 0: at once),
         until its rows and the whole tree (pitui) or its conversation (Pi) show: seconds
         from the key, and the ratio of pitui's to Pi's.

Each launch runs in its own tmux server (`tmux -L bench-tui-PID`) at 100x30. Alongside the
wall time, the CPU time (user + system) and peak RSS (VmHWM) of the launched process itself
are read from /proc when the answer is seen. Pi needs no credentials for these screens (it
warns "No models available"); it gets a private PI_CODING_AGENT_DIR and HOME. Runs alternate
pitui and Pi; figures are the best of `--repeats`, with the range.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import procs

REPO = procs.REPO
OUT = REPO / "benchmarks" / "out"
PI_CLI = REPO / ".oracle/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js"
SIZE = ("-x", "100", "-y", "30")
TIMEOUT = 60.0
TICK = os.sysconf("SC_CLK_TCK")

Check = Callable[[str], bool]


class ControlClient:
    """One tmux control-mode client (`tmux -C attach`): commands answered without starting a
    tmux process each (which on 2 cores competes with the program measured), and `written`
    set whenever the pane writes."""

    def __init__(self, tmux: list[str]) -> None:
        self.process = subprocess.Popen([*tmux, "-C", "attach"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
        self.written = threading.Event()
        self.replies: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        reply: list[str] | None = None
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if reply is not None:
                if line.startswith(("%end ", "%error ")):
                    self.replies.put("\n".join(reply))
                    reply = None
                else:
                    reply.append(line)
            elif line.startswith("%begin ") and line.endswith(" 1"):  # a reply to our command
                reply = []
            elif line.startswith("%output "):
                self.written.set()
        self.replies.put(None)

    def run(self, command: str) -> str:
        assert self.process.stdin is not None
        self.process.stdin.write(command.encode() + b"\n")
        self.process.stdin.flush()
        reply = self.replies.get(timeout=TIMEOUT)
        if reply is None:
            raise EOFError("the tmux server has ended")
        return reply

    def close(self) -> None:
        self.process.kill()
        self.process.wait()


class Launch:
    """One program in its own tmux server, its screen read until each named check holds."""

    count = 0

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        Launch.count += 1  # a new server each time: a killed one may linger a moment
        self.server = f"bench-tui-{os.getpid()}-{Launch.count}"
        self.tmux = ["tmux", "-L", self.server]
        command = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), *argv]
        self.start = time.perf_counter()
        subprocess.run([*self.tmux, "new-session", "-d", *SIZE, "-c", str(cwd), *command],
                       check=True)  # fmt: skip
        pid = subprocess.run([*self.tmux, "list-panes", "-F", "#{pane_pid}"],
                             capture_output=True, text=True, check=True).stdout  # fmt: skip
        self.pid = int(pid.split()[0])
        self.control = ControlClient(self.tmux)

    def screen(self) -> str:
        return self.control.run("capture-pane -p -J -S -200")

    def send(self, *keys: str) -> None:
        subprocess.run([*self.tmux, "send-keys", *keys], check=True)

    def seen(self, check: Check, since: float, timeout: float | None = None) -> float:
        """The time (`perf_counter`) at which the screen first satisfies `check` (within
        `timeout` seconds of `since`, by default `TIMEOUT`): read again as soon as the program
        writes (at least every 0.1 s)."""
        timeout = TIMEOUT if timeout is None else timeout
        while time.perf_counter() - since < timeout:
            self.control.written.clear()
            if check(self.screen()):
                return time.perf_counter()
            self.control.written.wait(0.1)
        raise SystemExit(f"timed out; the screen was:\n{self.screen()}")

    def until(self, check: Check, timeout: float | None = None) -> dict[str, float]:
        """Seconds since launch, CPU seconds and peak RSS (MB) when `check` first holds."""
        seconds = self.seen(check, self.start, timeout) - self.start
        return {"s": seconds, **self.usage()}

    def usage(self) -> dict[str, float]:
        stat = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        cpu = (int(stat[11]) + int(stat[12])) / TICK  # utime, stime (fields 14, 15)
        status = Path(f"/proc/{self.pid}/status").read_text()
        hwm = re.search(r"VmHWM:\s+(\d+) kB", status)
        return {"cpu": cpu, "mb": int(hwm.group(1)) / 1024 if hwm else 0.0}

    def close(self, quit_keys: tuple[str, ...] = ()) -> None:
        """Quit with `quit_keys` as a user does (waiting a few seconds for the program to
        end), then end the server."""
        if quit_keys:
            self.send(*quit_keys)
            deadline = time.perf_counter() + 5
            while Path(f"/proc/{self.pid}").exists() and time.perf_counter() < deadline:
                time.sleep(0.02)
        self.control.close()
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)
        sockets = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}"
        (sockets / self.server).unlink(missing_ok=True)  # kill-server leaves it behind


def base_env() -> dict[str, str]:
    keep = ("PATH", "LANG", "LC_ALL", "TERM", "USER", "LOGNAME")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.setdefault("LANG", "C.UTF-8")
    return env


QUIT_PITUI = ("C-q",)  # the index is closed cleanly, as a user quits


def pitui_env(agent: Path, cache: Path) -> dict[str, str]:
    return {**base_env(), "HOME": os.environ.get("HOME", "/tmp"), "PYTHONPATH": str(REPO),
            "PI_CODING_AGENT_DIR": str(agent), "PITUI_CACHE_DIR": str(cache)}  # fmt: skip


def pi_env(agent: Path, home: Path) -> dict[str, str]:
    return {**base_env(), "HOME": str(home), "PI_CODING_AGENT_DIR": str(agent)}


def contains(snippet: str) -> Check:
    return lambda text: snippet in text


def measure(
    argv: list[str], env: dict[str, str], cwd: Path, steps: list, quit_keys: tuple[str, ...] = ()
) -> dict:
    """Run `argv`; for each (name, check, keys) step, wait for check then send keys. A step
    after keys were sent also records "since keys": its seconds from that send. Then quit
    with `quit_keys` (none: the program is killed)."""
    launch = Launch(argv, env, cwd)
    found = {}
    sent: float | None = None
    try:
        for name, check, keys in steps:
            found[name] = launch.until(check)
            if sent is not None:
                found[name]["since keys"] = found[name]["s"] - sent
            if keys:
                launch.send(*keys)
                sent = time.perf_counter() - launch.start
    finally:
        launch.close(quit_keys)
    return found


# -- picker ---------------------------------------------------------------------------------


def store(sessions: int) -> Path:
    agent = OUT / f"agent-{sessions}x200"
    if not (agent / "sessions").exists():
        from pitui.demo.generate import generate_store

        print(f"generating {sessions} sessions ...", flush=True)
        generate_store(agent / "sessions", sessions, 200, seed=0)
    return agent


def first_title(agent: Path, cache: Path) -> str:
    """The first session of the threaded listing, as both pickers show it (a short prefix,
    which survives truncation); also warms pitui's index."""
    env = {**procs.pitui_env(agent, cache)}
    _, _, out = procs.run(procs.pitui_argv("list", "--all", "--json"), env)
    first = json.loads(out)[0]
    title = " ".join((first["name"] or first["firstMessage"]).split())
    return title[:16]


def pitui_all(sessions: int) -> Check:
    """pitui's status line counts the rows once the whole list is in."""
    return contains(f"{sessions:,} shown")


def pi_all(text: str) -> bool:
    """Pi's scope switch reads "Loading 50/1000" while it lists, showing rows as they come
    (not yet sorted), then "◉ All"."""
    return "◉ All" in text


def bench_picker(sessions: int, repeats: int, work: Path) -> dict[str, list[dict]]:
    agent = store(sessions)
    cache = work / f"cache-{sessions}"
    title = first_title(agent, cache)
    # one of each per store: a Pi folder kept from a run at another size listed that store
    pi_agent, pi_home = work / f"pi-agent-{sessions}", work / "pi-home"
    pi_home.mkdir(parents=True, exist_ok=True)
    if not pi_agent.exists():
        pi_agent.mkdir(parents=True)
        (pi_agent / "sessions").symlink_to(agent / "sessions")
    ours = procs.pitui_argv("--all")
    pi = [procs.node(), str(PI_CLI), "--resume"]
    floor = [sys.executable, str(REPO / "benchmarks" / "textual_floor.py")]
    runs: dict[str, list[dict]] = {"pitui": [], "pitui, no index": [], "pi": [],
                                   "textual floor": []}  # fmt: skip
    pitui_steps = [("title", contains(title), None),
                   ("all listed", pitui_all(sessions), ("Tab",)),
                   ("key answered", contains("this folder "), None)]  # fmt: skip

    def pitui_no_index() -> dict:
        cold = work / "cache-cold"
        shutil.rmtree(cold, ignore_errors=True)  # a first launch: the index is built
        return measure(ours, pitui_env(agent, cold), work, pitui_steps, QUIT_PITUI)

    for i in range(repeats):
        runs["textual floor"].append(
            measure(floor, pitui_env(agent, cache), work,
                    [("ready", contains("textual floor: ready"), None)]))  # fmt: skip
        order = [
            ("pitui", lambda: measure(ours, pitui_env(agent, cache), work, pitui_steps,
                                      QUIT_PITUI)),
            ("pitui, no index", pitui_no_index),
            ("pi", lambda: measure(pi, pi_env(pi_agent, pi_home), work,
                                   [("picker", contains("Resume Session"), ("Tab",)),
                                    ("title", contains(title), None),
                                    ("all listed", pi_all, ("Tab",)),
                                    ("key answered", contains("◉ Current Folder"), None)])),
        ]  # fmt: skip
        for side, run in order if i % 2 == 0 else order[::-1]:
            runs[side].append(run())
    return runs


def archived_copy(agent: Path, archived: int, work: Path) -> Path:
    """A copy of the store with its `archived` oldest sessions (by file name: their creation
    time) moved to pitui's archive by `pitui archive`, as a user would."""
    copy = work / f"{agent.name}-{archived}-archived"  # one per store size
    if (copy / "sessions-archive").exists():
        return copy
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(agent / "sessions", copy / "sessions")  # copy2 keeps the mtimes
    files = sorted((copy / "sessions").glob("*/*.jsonl"), key=lambda p: p.name)[:archived]
    env = procs.pitui_env(copy, work / f"cache-{copy.name}")
    env.pop("PITUI_ARCHIVE_DIR", None)
    procs.run(procs.pitui_argv("archive", "--yes", *map(str, files)), env)
    return copy


def bench_archived(sessions: int, archived: int, repeats: int, work: Path) -> dict[str, list]:
    """Pi's `/resume` (All) on the store, and on a copy after archiving `archived` of its
    sessions, alternating: from launch to the picker, then Tab until the whole list is in."""
    agent = store(sessions)
    copy = archived_copy(agent, archived, work)
    pi_home = work / "pi-home"
    pi_home.mkdir(parents=True, exist_ok=True)
    agents = {"pi": work / f"pi-agent-{sessions}",
              f"pi, {archived} archived": work / f"pi-agent-{sessions}-{archived}-archived"}  # fmt: skip
    for side, source in zip(agents, (agent, copy), strict=True):
        if not agents[side].exists():
            agents[side].mkdir(parents=True)
            (agents[side] / "sessions").symlink_to(source / "sessions")
    pi = [procs.node(), str(PI_CLI), "--resume"]
    steps = [("picker", contains("Resume Session"), ("Tab",)), ("all listed", pi_all, None)]
    runs: dict[str, list[dict]] = {side: [] for side in agents}
    for i in range(repeats):
        for side in list(agents) if i % 2 == 0 else list(agents)[::-1]:
            runs[side].append(measure(pi, pi_env(agents[side], pi_home), work, steps))
    return runs


# -- session --------------------------------------------------------------------------------


def session_copy(entries: int, cwd: Path) -> tuple[Path, str]:
    """The large session with its cwd set to an existing folder, and a snippet of its leaf
    message's text as Pi renders it (first line, markdown code marks dropped)."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_process import session_file

    source = session_file(entries)
    target = OUT / f"tui-{source.name}"
    if not target.exists() or target.stat().st_mtime < source.stat().st_mtime:
        with source.open("rb") as src, target.open("wb") as dst:
            header = json.loads(src.readline())
            header["cwd"] = str(cwd)
            dst.write(json.dumps(header, separators=(",", ":")).encode() + b"\n")
            shutil.copyfileobj(src, dst, 1 << 24)
    with target.open("rb") as handle:
        handle.seek(max(0, target.stat().st_size - (1 << 20)))
        lines = handle.read().splitlines()[1:]
    for line in reversed(lines):
        entry = json.loads(line)
        message = entry.get("message") or {}
        texts = [c["text"] for c in message.get("content") or [] if c.get("type") == "text"]
        if entry.get("type") == "message" and message.get("role") == "assistant" and texts:
            return target, texts[-1].splitlines()[0].replace("`", "")[:20]
    raise SystemExit("no assistant text near the end of the session")


def tree_rows(text: str) -> bool:
    return re.search(r"(user|assistant): ", text) is not None


def tree_loaded(entries: int) -> Check:
    count = f"{entries:,}"  # the header's "100,000 entries", maybe cut at the right edge
    busy = ("reading the session", "building the tree", "loading")
    return lambda text: count in text and not any(word in text for word in busy)


def bench_session(entries: int, repeats: int, work: Path) -> dict[str, list[dict]]:
    cwd = work / "project"
    cwd.mkdir(parents=True, exist_ok=True)
    file, snippet = session_copy(entries, cwd)
    pi_agent, pi_home = work / "pi-agent-s", work / "pi-home"
    pi_agent.mkdir(parents=True, exist_ok=True)
    pi_home.mkdir(parents=True, exist_ok=True)
    pi_file = work / file.name
    ours = procs.pitui_argv(str(file))
    runs: dict[str, list[dict]] = {"pitui": [], "pi": []}

    def pi_run() -> dict:
        shutil.copyfile(file, pi_file)  # Pi appends to the session it opens
        with pi_file.open("rb") as handle:  # both sides find their file in the page cache
            while handle.read(1 << 24):
                pass
        pi = [procs.node(), str(PI_CLI), "--session", str(pi_file)]
        return measure(pi, pi_env(pi_agent, pi_home), cwd,
                       [("conversation", contains(snippet), None)])  # fmt: skip

    def pitui_run() -> dict:
        return measure(ours, pitui_env(pi_agent, work / "cache-s"), cwd,
                       [("rows", tree_rows, None), ("loaded", tree_loaded(entries), None)])  # fmt: skip

    for i in range(repeats):
        order = [("pitui", pitui_run), ("pi", pi_run)]
        for side, run in order if i % 2 == 0 else order[::-1]:
            runs[side].append(run())
    return runs


def enter_store(entries: int, work: Path) -> tuple[Path, Path, Path, str, str]:
    """An agent dir whose project folder will hold the large session alone (copied from the
    returned source; the generated store's sessions are as recent, so they stay in their own
    folders, reached by Tab), its title snippet as both pickers show it, and its leaf
    snippet as Pi shows the conversation."""
    from pitui.core.catalog.scan.discovery import project_folder_name

    cwd = work / "project"
    cwd.mkdir(parents=True, exist_ok=True)
    file, leaf = session_copy(entries, cwd)
    agent = work / "enter-agent"
    folder = agent / "sessions" / project_folder_name(str(cwd))
    if not folder.exists():
        folder.mkdir(parents=True)
        for source in (store(1000) / "sessions").iterdir():
            (agent / "sessions" / source.name).symlink_to(source)
    return agent, file, folder / file.name, first_user_text(file)[:16], leaf


def first_user_text(file: Path) -> str:
    """The session's title as both pickers show it: its first user message, one line."""
    with file.open("rb") as handle:
        for line in handle:
            message = json.loads(line).get("message") or {}
            if message.get("role") == "user":
                content = message["content"]
                texts = [content] if isinstance(content, str) else [
                    c["text"] for c in content if c.get("type") == "text"]  # fmt: skip
                if texts and texts[0].strip():
                    return " ".join(texts[0].split())
    raise SystemExit(f"no user message in {file}")


def waited(seconds: float) -> Check:
    """Holds `seconds` after it is first asked."""
    start: list[float] = []

    def check(_: str) -> bool:
        start.append(start[0] if start else time.perf_counter())
        return time.perf_counter() - start[0] >= seconds

    return check


def bench_enter(entries: int, repeats: int, work: Path, pause: float) -> dict[str, list[dict]]:
    """Enter on the large session in each picker, `pause` seconds after it is listed (a
    user reads the list first), to its rows / conversation on screen."""
    agent, source, target, title, leaf = enter_store(entries, work)
    cwd = work / "project"
    pi_home = work / "pi-home"
    pi_home.mkdir(parents=True, exist_ok=True)
    runs: dict[str, list[dict]] = {"pitui": [], "pi": []}

    def fresh_copy() -> None:
        shutil.copyfile(source, target)  # Pi appends to the session it opens
        now = time.time() + 60  # the newest: the first row of both pickers
        os.utime(target, (now, now))

    def pi_run() -> dict:
        fresh_copy()
        pi = [procs.node(), str(PI_CLI), "--resume"]
        return measure(pi, pi_env(agent, pi_home), cwd,
                       [("list", contains(title), None), ("read", waited(pause), ("Enter",)),
                        ("conversation", contains(leaf), None)])  # fmt: skip

    def pitui_run() -> dict:
        fresh_copy()
        return measure(procs.pitui_argv(), pitui_env(agent, work / "cache-enter"), cwd,
                       [("list", contains(title), None), ("read", waited(pause), ("Enter",)),
                        ("rows", tree_rows, None),
                        ("loaded", tree_loaded(entries), None)])  # fmt: skip

    pitui_run()  # indexes the store once: the other runs find a warm index
    for i in range(repeats):
        order = [("pitui", pitui_run), ("pi", pi_run)]
        for side, run in order if i % 2 == 0 else order[::-1]:
            runs[side].append(run())
    return runs


# -- report ---------------------------------------------------------------------------------


def report(title: str, runs: dict[str, list[dict]]) -> None:
    """Best wall time (range), best CPU time, peak RSS per step; ratios against Pi's step of
    the same name, else against Pi's last step."""
    print(f"\n== {title} (best of {len(runs['pi'])})")
    pi_best: dict[str, tuple[float, float]] = {}
    pi_since = float("nan")  # Pi's last step's seconds from the keys sent
    for side in ("pi", *(side for side in runs if side != "pi")):
        for name in runs[side][0]:
            seen = [run[name] for run in runs[side]]
            walls = sorted(s["s"] for s in seen)
            cpu = min(s["cpu"] for s in seen)
            mb = max(s["mb"] for s in seen)
            line = (f"{side:<17}{name:<13}{walls[0]:6.2f}s ({walls[0]:.2f}-{walls[-1]:.2f})"
                    f"  cpu {cpu:5.2f}s  {mb:5.0f}MB")  # fmt: skip
            since = sorted(s["since keys"] for s in seen if "since keys" in s)
            if since:
                line += f"  from keys {since[0]:.2f}s ({since[0]:.2f}-{since[-1]:.2f})"
                if side == "pi":
                    pi_since = since[0]
                elif pi_since >= 0.05:  # a ratio to a key answered within a poll means nothing
                    line += f" = {since[0] / pi_since:.2f}x"
            if side == "pi":
                pi_best[name] = (walls[0], cpu)
            else:
                pi_wall, pi_cpu = pi_best.get(name) or list(pi_best.values())[-1]
                line += f"  vs Pi: wall {walls[0] / pi_wall:.2f}x cpu {cpu / pi_cpu:.2f}x"
            print(line, flush=True)


def main() -> None:
    global TIMEOUT
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--part", choices=("picker", "archive", "session", "enter", "all"), default="all"
    )
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--archived", type=int, default=0,
                        help="picker: also Pi's /resume (All) after archiving this many of "
                             "the store's sessions (in a copy), against the whole store")  # fmt: skip
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--pause", type=float, default=1.0,
                        help="enter: seconds from the list shown to Enter (0: at once)")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=TIMEOUT,
                        help="seconds a screen may take (Pi's /resume All at 20,000 sessions "
                             "takes more than the default)")  # fmt: skip
    args = parser.parse_args()
    TIMEOUT = args.timeout
    if shutil.which("tmux") is None or not PI_CLI.exists():
        raise SystemExit("needs tmux and Pi's package (scripts/install-oracle.sh)")
    work = OUT / "tui-launch"
    work.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    if args.part in ("picker", "all"):
        runs = bench_picker(args.sessions, args.repeats, work)
        report(f"picker, {args.sessions} sessions, warm index: launch to first title", runs)
    if args.part == "archive" or (args.part in ("picker", "all") and args.archived):
        archived = args.archived or 900
        runs = bench_archived(args.sessions, archived, args.repeats, work)
        report(f"Pi's /resume (All), {args.sessions} sessions, {archived} archived", runs)
    if args.part in ("session", "all"):
        runs = bench_session(args.entries, args.repeats, work)
        report(f"open the {args.entries:,}-entry session: launch to screen", runs)
    if args.part in ("enter", "all"):
        runs = bench_enter(args.entries, args.repeats, work, args.pause)
        report(
            f"Enter on the {args.entries:,}-entry session, {args.pause:g} s after it is listed",
            runs,
        )
    print(f"\nload average {load:.2f} -> {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
