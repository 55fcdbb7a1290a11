"""wizsim's version: the one place it is written. ``pyproject.toml`` reads it (setuptools' dynamic version),
``wizsim.__version__``, ``wizsim --version`` and the datasets' ``wizsim.version`` stamp read it from here.
Nothing is imported: ``wizsim --version`` answers without loading NumPy or Numba."""

__version__ = "0.8.1"
