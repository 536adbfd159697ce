"""Runs pitui with a thread that writes where its memory is, every 10 s, as JSON lines.

    python benchmarks/memprobe.py LOG [pitui arguments ...]

Each line: resident memory (/proc), glibc malloc's bytes in use and free inside its arenas
and its arena count (`mallinfo2`), SQLite's own allocations (`sqlite3_memory_used`),
pymalloc's allocated blocks, the collector's tracked objects, and the live threads. Used by
`bench_soak.py --breakdown` to tell Python objects, SQLite and malloc fragmentation apart.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
import re
import runpy
import sys
import threading
import time
from pathlib import Path


class MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                     "uordblks", "fordblks", "keepcost")
    ]  # fmt: skip


def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.mallinfo2.restype = MallInfo2
    return libc


def _sqlite_used() -> int:
    import _sqlite3
    import sqlite3  # noqa: F401  (loads the library the app uses)

    lib = ctypes.CDLL(_sqlite3.__file__)
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    return int(lib.sqlite3_memory_used())


def _arenas() -> int:
    maps = Path("/proc/self/maps").read_text()
    return len(re.findall(r"^\S+ rw-p 00000000 00:00 0 *$", maps, re.M))


def sample(libc: ctypes.CDLL) -> dict[str, float]:
    status = Path("/proc/self/status").read_text()
    rss = int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024  # type: ignore[union-attr]
    info = libc.mallinfo2()
    mb = 1024 * 1024
    return {
        "t": time.time(),
        "rss": rss,
        "malloc_used": info.uordblks / mb,
        "malloc_free": info.fordblks / mb,
        "malloc_mmapped": info.hblkhd / mb,
        "sqlite": _sqlite_used() / mb,
        "pymalloc_blocks": sys.getallocatedblocks(),
        "gc_objects": len(gc.get_objects()),
        "threads": threading.active_count(),
        "anon_maps": _arenas(),
    }


def probe(log: Path) -> None:
    libc = _libc()
    with log.open("a") as out:
        while True:
            out.write(json.dumps(sample(libc)) + "\n")
            out.flush()
            time.sleep(10)


def main() -> None:
    log = Path(sys.argv[1])
    sys.argv = ["pitui", *sys.argv[2:]]
    threading.Thread(target=probe, args=(log,), daemon=True).start()
    runpy.run_module("pitui", run_name="__main__")


if __name__ == "__main__":
    main()
