"""The cyclic collector paused while sessions load: given back as it was, whatever the
threads, and never promoting other objects to the oldest generation (which starved full
collections: the app's garbage cycles piled up while a session being written was previewed)."""

from __future__ import annotations

import gc
import threading

from pitui.core.session.collector import collector_paused


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_young_objects_stay_young() -> None:
    gc.collect()
    young = _Cycle()
    with collector_paused():
        pass
    assert not any(o is young for o in gc.get_objects(generation=2))
    del young
    assert gc.collect(0) >= 1  # a young collection frees the cycle


def test_given_back_when_the_last_thread_leaves() -> None:
    assert gc.isenabled()
    inside, leave_first, first_left = threading.Event(), threading.Event(), threading.Event()

    def first() -> None:
        with collector_paused():
            inside.set()
            leave_first.wait(5)
        first_left.set()

    thread = threading.Thread(target=first)
    thread.start()
    inside.wait(5)
    with collector_paused():
        leave_first.set()
        first_left.wait(5)
        assert not gc.isenabled()  # the other thread left; this one is still loading
    thread.join(5)
    assert gc.isenabled()


def test_left_disabled_when_it_was() -> None:
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
