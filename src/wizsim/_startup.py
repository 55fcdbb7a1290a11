"""Start-up time of short command-line runs (``wizsim advise`` answers in well under a second).

Numba's first compile or cache load imports ``numba.np.arraymath``, which probes for BLAS by
importing ``scipy.linalg`` when SciPy is installed: about 0.7 s on the reference machine, more than
the advisor's whole answer, for linear algebra no wizsim kernel uses. ``skip_blas_probe`` imports
that module with SciPy hidden, then unhides it. Its one lasting effect, in this process only, is that
Numba thinks BLAS-backed functions such as ``np.dot`` are unavailable in nopython code; ``np.linalg``
in kernels still works. So only the short-lived CLI process calls it, never the library.
"""

from __future__ import annotations

import sys

_HIDDEN = "scipy.linalg"  # numba itself imports the top-level scipy; the cost is in linalg


def skip_blas_probe() -> None:
    """Import ``numba.np.arraymath`` without letting it import SciPy (no-op when either is loaded)."""
    if "numba.np.arraymath" in sys.modules or _HIDDEN in sys.modules:
        return
    sys.modules[_HIDDEN] = None  # makes `import scipy.linalg...` raise ImportError
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules[_HIDDEN]
