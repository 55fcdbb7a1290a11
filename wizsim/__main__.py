"""The ``wizsim`` command (``python -m wizsim`` too): Ctrl-C handled from the first instant.

Loading the CLI imports NumPy, Numba and the kernels' cache (about a second, more on a busy machine); a
Ctrl-C in that window would end in a ``KeyboardInterrupt`` traceback. This module imports nothing heavy
(``wizsim``'s package init is lazy), so the handling below covers the load as well as the command.
"""

import sys


def main() -> None:
    try:
        from wizsim.cli import main as cli
    except KeyboardInterrupt:
        print("\ninterrupted: stopped before the command started", file=sys.stderr)
        sys.exit(130)
    cli(prog_name="wizsim")


if __name__ == "__main__":
    main()
