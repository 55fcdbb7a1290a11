"""The single place that passes options to Numba.

Every kernel uses ``kernel`` (serial, inlinable into other kernels) or ``parallel_kernel`` (the
driver's outer loop only). Both compile in nopython mode and cache to disk so a second process
starts without recompiling; ``WIZSIM_NUMBA_CACHE=0`` turns caching off for read-only installs,
clusters or stale caches. Rules code never uses fastmath: results must match the reference twins.
"""

from __future__ import annotations

import os

from numba import njit

CACHE = os.environ.get("WIZSIM_NUMBA_CACHE", "1") != "0"

# error_model="numpy" drops Python's ZeroDivisionError checks from integer division in hot loops;
# kernels never divide by a value that can be zero.
_OPTIONS = dict(cache=CACHE, nogil=True, error_model="numpy", boundscheck=False)


def kernel(fn):
    """Serial nopython kernel, cached."""
    return njit(**_OPTIONS)(fn)


def inline_kernel(fn):
    """Serial kernel that Numba inlines into its callers: for the small per-card-play helpers,
    where a call's argument marshalling (arrays are passed as several words each) would cost more
    than the body."""
    return njit(inline="always", **_OPTIONS)(fn)


def parallel_kernel(fn):
    """Parallel nopython kernel (``prange`` over independent batch rows), cached."""
    return njit(parallel=True, **_OPTIONS)(fn)
