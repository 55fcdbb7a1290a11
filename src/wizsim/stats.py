"""Small statistics shared by the advisor and tournaments: the 95% normal quantile, JSON-safe floats."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal


def json_float(x) -> float | None:
    """A float for JSON: an unknown value (nan, or an infinite interval from a single deal) is null."""
    x = float(x)
    return x if math.isfinite(x) else None


def json_safe(obj):
    """``obj`` (dicts, lists, numbers; numpy scalars too) with every float through ``json_float``:
    what every ``to_dict`` returns, so that ``--json`` prints valid JSON (null, never NaN)."""
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return json_float(obj)
    return obj
