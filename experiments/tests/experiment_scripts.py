"""Tests of an experiment's parts load its script as a module: experiments/ is not a package."""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXPERIMENTS = Path(__file__).resolve().parent.parent


def experiment(name: str):
    """The script ``experiments/<name>.py`` as a module."""
    spec = importlib.util.spec_from_file_location(name, EXPERIMENTS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
