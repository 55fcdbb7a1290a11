"""Small statistics shared by the advisor and tournaments: the 95% normal quantile, JSON-safe floats."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal


def json_float(x) -> float | None:
    """A float for JSON: an unknown value (nan, or an infinite interval from a single deal) is null."""
    x = float(x)
    return x if math.isfinite(x) else None
