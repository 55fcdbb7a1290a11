"""MkDocs hook: the API page lists wizsim's public surface as the package declares it (``wizsim.__all__``
and the module each name lives in, ``wizsim._HOMES``), so the reference follows the package: a name added
or moved shows in the next build, which ``mkdocs build --strict`` fails on if mkdocstrings cannot find it.
Each entry names the object where it is defined (its ``__module__``), since the packages re-export lazily."""

from __future__ import annotations

import sys
from pathlib import Path

from mkdocs.exceptions import PluginError

ROOT = Path(__file__).resolve().parent.parent
MARK = "<!-- api:members -->"
# the page's sections, in this order; a module not named here gets a section of its own name at the end
SECTIONS = {
    "wizsim.sim.driver": "Simulate",
    "wizsim.advisor": "Advice",
    "wizsim.advisor.table_fit": "The table learned from a game",
    "wizsim.table": "The open table and players",
    "wizsim.jit": "Jitted players",
    "wizsim.tournament": "Tournaments",
    "wizsim.record": "Game records and review",
    "wizsim.dataset.read": "Datasets",
    "wizsim.cards": "Cards",
    "wizsim.rules.api": "Rules",
    "wizsim.config": "Configuration",
}


def defined_at(module: str, name: str) -> str:
    """``package.module.Name`` where the public name's object is defined (a lazy re-export is followed)."""
    import importlib

    obj = getattr(importlib.import_module(module), name)
    where = getattr(obj, "__module__", None) or module
    return f"{where}.{getattr(obj, '__qualname__', name)}"


def api_sections() -> str:
    sys.path.insert(0, str(ROOT))  # this tree's wizsim, not another installed copy
    import wizsim

    homes = wizsim._HOMES
    unplaced = set(wizsim.__all__) - {n for names in homes.values() for n in names} - {"__version__"}
    if unplaced:
        raise PluginError(f"api.md: wizsim.__all__ names {sorted(unplaced)} without a home in wizsim._HOMES")
    order = sorted(homes, key=lambda m: (list(SECTIONS).index(m) if m in SECTIONS else len(SECTIONS), m))
    parts = []
    for module in order:
        parts.append(f"## {SECTIONS.get(module, module)}\n\nFrom `{module}`, exported as `wizsim.NAME`.\n")
        parts += [f"::: {defined_at(module, name)}\n" for name in homes[module]]
    return "\n".join(parts)


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    return markdown.replace(MARK, api_sections()) if MARK in markdown else markdown
