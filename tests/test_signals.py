"""The command's SIGINT handler (``wizsim._signals``) never raises where the exception would be dropped:
inside a C callback into Python (llvmlite's, during a Numba compile), an extension module's
initialisation or a ``__del__``; there it delivers the signal again a moment later."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from wizsim import _signals

LLVMLITE_FILE = "/site-packages/llvmlite/binding/executionengine.py"


def frame_in(filename: str, name: str = "callback"):
    """A live frame of a function whose code says it lives in ``filename``."""
    namespace = {}
    exec(compile(f"import sys\ndef {name}():\n    return sys._getframe()\n", filename, "exec"), namespace)
    return namespace[name]()


def test_a_frame_under_llvmlite_or_a_del_is_where_an_interrupt_is_dropped():
    assert _signals.swallowed_here(frame_in(LLVMLITE_FILE))
    assert _signals.swallowed_here(frame_in("/somewhere/mod.py", "__del__"))
    assert not _signals.swallowed_here(frame_in("/somewhere/mod.py"))
    assert not _signals.swallowed_here(sys._getframe())


def test_a_weakref_callback_is_where_an_interrupt_is_dropped():
    """importlib frees a module lock in a weakref callback (``_get_module_lock.<locals>.cb``): a Ctrl-C
    raised there was printed as "Exception ignored" and the command went on (a CI run, at 0.15 s)."""
    import weakref

    assert _signals.swallowed_here(frame_in("<frozen importlib._bootstrap>", "cb"))
    frames = []

    class Owner:
        pass

    owner = Owner()
    weakref.finalize(owner, lambda: frames.append(sys._getframe()))  # a real finalizer, run by the GC
    del owner
    assert frames and _signals.swallowed_here(frames[0])


@pytest.mark.skipif(not hasattr(signal, "SIGUSR1"), reason="POSIX signals")
def test_put_off_then_delivered_again_and_raised_elsewhere():
    got = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: got.append(time.monotonic()))
    try:
        started = time.monotonic()
        _signals.raise_or_retry(signal.SIGUSR1, frame_in(LLVMLITE_FILE), KeyboardInterrupt())  # no raise
        while not got and time.monotonic() < started + 5:
            time.sleep(0.005)
        assert got and got[0] - started < 1.0
        with pytest.raises(KeyboardInterrupt):
            _signals.raise_or_retry(signal.SIGUSR1, sys._getframe(), KeyboardInterrupt())
    finally:
        signal.signal(signal.SIGUSR1, previous)


SCRIPT = textwrap.dedent(f"""
    import sys, time
    inside, outside, handler = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    if handler == "wizsim":
        from wizsim._signals import install
        install()
    namespace = {{}}
    exec(compile('''
    def callback(seconds):
        try:  # what ctypes does with an exception in a callback: print it and carry on
            t = time.monotonic() + seconds
            while time.monotonic() < t:
                pass
        except KeyboardInterrupt:
            print("dropped", flush=True)
    ''', {LLVMLITE_FILE!r}, "exec"), {{"time": time}}, namespace)
    print("ready", flush=True)
    started = time.monotonic()
    try:
        while time.monotonic() < started + 4:
            namespace["callback"](inside)
            t = time.monotonic() + outside
            while time.monotonic() < t:
                pass
    except KeyboardInterrupt:
        print("interrupted", round(time.monotonic() - started, 2), flush=True)
        sys.exit(130)
    print("lost", flush=True)
""")


def run_callbacks(inside: float, outside: float, handler: str) -> tuple[int, list[str]]:
    """Run SCRIPT (a loop of ``inside`` seconds in a callback that drops exceptions, ``outside`` seconds
    in its own code), Ctrl-C it 0.05 s in; its status and printed words."""
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(inside), str(outside), handler],
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    return proc.returncode, out.split()


def test_python_alone_drops_an_interrupt_in_a_callback():
    """What the handler is for: with Python's own handler, Ctrl-C inside the callback is lost."""
    status, words = run_callbacks(1.0, 0.0, "python")
    assert status == 0 and words == ["dropped", "lost"], words


@pytest.mark.parametrize("attempt", range(3))
def test_the_handler_stops_a_process_whose_interrupt_lands_in_callbacks(attempt):
    """Callbacks half the time (llvmlite's are shorter): the interrupt is never dropped, and the
    process stops within a second."""
    status, words = run_callbacks(0.005, 0.005, "wizsim")
    assert status == 130 and words[0] == "interrupted" and "dropped" not in words, words
    assert float(words[1]) < 1.0, words
