"""Whether this process has said that wizsim compiles kernels (``_numba.notice``). A module of its own,
importing nothing, so that the ``wizsim`` command (``__main__``) can mark it said before Numba loads:
the command prints its own notice, with the time measured for that command (``cli.announce_compile``)."""

said = False
