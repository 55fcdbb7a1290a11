"""Whether this process has said that wizsim compiles kernels (``_numba.notice``). A module of its own,
importing nothing, so that the ``wizsim`` command (``__main__``) can mark it said before Numba loads:
the command prints its own notice, with the time measured for that command (``cli.announce_compile``,
from ``compile_seconds_measured``)."""

said = False


def compile_seconds_measured(kind: str) -> float | None:
    """What the first run of a kind of command spent compiling on an empty Numba cache, as measured by
    ``benchmarks/first_run.py`` on a quiet machine (``wizsim/data/first_run.json``); None if unmeasured."""
    import json
    from importlib.resources import files

    try:
        measured = json.loads(files("wizsim").joinpath("data/first_run.json").read_text())
        return float(measured["compile_seconds"][kind])
    except (OSError, KeyError, ValueError, TypeError):
        return None
