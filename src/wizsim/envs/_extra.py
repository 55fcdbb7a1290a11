"""The optional extra ``wizsim[rl]``: one wording for an environment whose library is not installed."""

from __future__ import annotations

import contextlib


@contextlib.contextmanager
def needs_extra(module: str, libraries: str):
    """Imports inside the block that fail raise one ImportError that names ``module``, the ``libraries`` it
    needs and the extra that installs them."""
    try:
        yield
    except ImportError as err:
        raise ImportError(f"{module} needs {libraries}: pip install 'wizsim[rl]' ({err})") from err
