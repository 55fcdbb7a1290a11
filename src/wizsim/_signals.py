"""Ctrl-C (and SIGTERM) that cannot be lost, for the ``wizsim`` command.

Python runs a signal handler between bytecodes of the main thread, in whatever Python code runs there.
While Numba compiles or loads a kernel, that is often a callback that C code calls (llvmlite's object
cache notifications), and an exception raised inside such a callback is printed as "Exception ignored
on calling ctypes callback function" and dropped: the command went on as if Ctrl-C had never been
pressed (3 of 15 tries, 0.4 s into a ``simulate``). Python code that an extension module's C
initialisation calls (``abc.register`` while NumPy loads) drops it silently too (2 of 40 at 0.15 s), and so
does a weakref callback: importlib's module-lock ``cb`` printed "Exception ignored in: <function
_get_module_lock.<locals>.cb>" and the ``simulate`` went on (once in a CI run).
The handler here raises only where the exception can travel: inside llvmlite's code, an extension's
loading or a ``__del__``, it sends the signal again a moment later instead.
Only the command installs it (``wizsim/__main__.py``); a library leaves its host's signals alone.
"""

from __future__ import annotations

import functools
import os
import signal
import threading
from importlib.machinery import ExtensionFileLoader

RETRY_SECONDS = 0.05
# A signal is put off at most this many times (2 s), then raised wherever it lands.
MAX_RETRIES = 40

_retries = {"n": 0}


# Python functions that the interpreter calls as callbacks whose exceptions it prints and drops:
# importlib's weakref callback that frees a module lock, weakref.finalize's runner.
DROPPING_CALLBACKS = {
    ("<frozen importlib._bootstrap>", "cb"),
    ("weakref.py", "__call__"),
    ("weakref.py", "_exitfunc"),
    ("weakref.py", "remove"),  # WeakValueDictionary's and WeakSet's key removal
    ("_weakrefset.py", "_remove"),
}


def swallowed_here(frame) -> bool:
    """Whether an exception raised in ``frame`` (or a frame that called it) could be dropped on its way
    out: C code called back into Python there (llvmlite, an extension module's initialisation, a weakref
    callback), or it is inside a ``__del__``."""
    while frame is not None:
        code = frame.f_code
        if "llvmlite" in code.co_filename or code.co_name == "__del__" or (
                code.co_name in ("create_module", "exec_module")
                and isinstance(frame.f_locals.get("self"), ExtensionFileLoader)):
            return True
        if (os.path.basename(code.co_filename), code.co_name) in DROPPING_CALLBACKS or (
                code.co_filename, code.co_name) in DROPPING_CALLBACKS:
            return True
        frame = frame.f_back
    return False


def raise_or_retry(signum: int, frame, error: BaseException) -> None:
    """Raise ``error`` for signal ``signum`` where it can reach the command's handler, else deliver the
    signal again after ``RETRY_SECONDS``."""
    if swallowed_here(frame) and _retries["n"] < MAX_RETRIES:
        _retries["n"] += 1
        # os.kill on Windows terminates the process for any signal but Ctrl-C/Break events: raise it there
        send = signal.raise_signal if os.name == "nt" else functools.partial(os.kill, os.getpid())
        timer = threading.Timer(RETRY_SECONDS, send, (signum,))
        timer.daemon = True
        timer.start()
        return
    _retries["n"] = 0
    raise error


def interrupt(signum, frame) -> None:
    """The SIGINT handler: ``KeyboardInterrupt``, as Python's own, but never where it would be dropped."""
    raise_or_retry(signum, frame, KeyboardInterrupt())


def install() -> None:
    signal.signal(signal.SIGINT, interrupt)
