"""Child processes that die with their parent, even when the parent is killed outright.

A worker or bot process whose parent dies (SIGKILL, a crash, a closed terminal) must not
live on with PPID 1, holding a core. On Linux the kernel kills the child for us
(``prctl(PR_SET_PDEATHSIG)``); everywhere a daemon thread also checks once a second
whether the parent is still the one the child started with, and ends the child if not.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
"""From <sys/prctl.h>: the signal sent to this process when its parent ends."""
CHECK_EVERY = 1.0
"""Seconds between the fallback's checks of the parent."""
ORPHAN_EXIT = 75
"""Exit code of a child that ended because its parent was gone."""


def _kernel_kills_orphans() -> bool:
    """Ask Linux to SIGKILL this process when its parent ends (False where unavailable)."""
    if not sys.platform.startswith("linux"):
        return False
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    return False


def _watch_parent(parent_pid: int, every: float) -> None:
    while True:
        time.sleep(every)
        if os.getppid() != parent_pid:
            os._exit(ORPHAN_EXIT)


def exit_with_parent(parent_pid: int, *, kernel: bool = True, every: float = CHECK_EVERY) -> None:
    """End this process as soon as the process ``parent_pid`` (its parent) is gone.

    Call first thing in a child. ``kernel=False`` relies on the portable check alone.
    """
    if kernel:
        _kernel_kills_orphans()
    if os.getppid() != parent_pid:  # the parent died before the request was made
        os._exit(ORPHAN_EXIT)
    watcher = threading.Thread(
        target=_watch_parent, args=(parent_pid, every), name="cgsim-lifeline", daemon=True
    )
    watcher.start()
