"""The documentation site builds strictly (``mkdocs build --strict``, mkdocs.yml): a broken link between
pages, a missing anchor, an API name mkdocstrings cannot find or a snippet that does not resolve fails
the build, and so this test. It runs in CI (``.ci/run`` installs the ``docs`` extra); elsewhere it is
skipped only where MkDocs is not installed."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _mkdocs():
    if os.environ.get("CI") != "true":
        pytest.importorskip("mkdocs", reason='the docs extra is not installed (pip install -e ".[docs]")')
        pytest.importorskip("mkdocstrings_handlers.python")
        pytest.importorskip("material")
    return [sys.executable, "-m", "mkdocs"]


def test_the_site_builds_strictly(tmp_path):
    site = tmp_path / "site"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NO_MKDOCS_2_WARNING": "1"}
    res = subprocess.run([*_mkdocs(), "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(site)],
                         capture_output=True, text=True, cwd=ROOT, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
    pages = {p.relative_to(site).as_posix() for p in site.rglob("index.html")}
    for page in ("index.html", "guide/advisor/index.html", "guide/opponents/index.html", "rules/index.html",
                 "schema/index.html", "game-record/index.html", "guide/rl/index.html", "api/index.html",
                 "results/index.html", "layout/index.html", "changelog/index.html"):
        assert page in pages, sorted(pages)
    api = (site / "api" / "index.html").read_text()
    import wizsim

    for name in set(wizsim.__all__) - {"__version__"}:  # every public name has its entry, read from its docstring
        assert re.search(rf'id="wizsim\.[\w.]*\b{name}"', api), name
    layout = (site / "layout" / "index.html").read_text()
    assert "Layers, each importing only from the ones before it" in layout  # the README's sentence, included
    assert f"<h2 id=\"{wizsim.__version__.replace('.', '')}\">{wizsim.__version__}" in (site / "changelog" / "index.html").read_text()
