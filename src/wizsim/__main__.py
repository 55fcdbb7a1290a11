"""The ``wizsim`` command (``python -m wizsim`` too): Ctrl-C handled from the first instant.

Loading the CLI imports NumPy, Numba and the kernels' cache (about a second, more on a busy machine); a
Ctrl-C in that window would end in a ``KeyboardInterrupt`` traceback. This module imports nothing heavy
(``wizsim``'s package init is lazy), so the handling below covers the load as well as the command.
"""

import os
import sys


def main() -> None:
    if sys.argv[1:] == ["--version"]:  # instant: nothing heavy is loaded to say it
        from wizsim._version import __version__

        print(f"wizsim, version {__version__}")
        return
    import wizsim._notice as _notice
    from wizsim._signals import install

    _notice.said = True  # the command says its own compile notice, with the measured time
    install()  # before the heavy imports: a Ctrl-C during Numba's loading must not be dropped
    try:
        from wizsim.cli import main as cli
    except KeyboardInterrupt:
        print("\ninterrupted: stopped before the command started", file=sys.stderr, flush=True)
        # not sys.exit: an interrupt that lands in Python code an extension runs while it loads leaves
        # CPython's "unhandled KeyboardInterrupt" mark set, and the process would then end killed by
        # SIGINT (status -2) after all; nothing is open yet that needs closing
        os._exit(130)
    try:
        cli(prog_name="wizsim")
    except SystemExit as done:
        if done.code in (130, 143):  # interrupted: the same mark may be set (see above); all is closed by now
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(done.code)
        raise


if __name__ == "__main__":
    main()
