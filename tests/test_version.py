"""The release's version is written once (wizsim/_version.py) and read everywhere: the package, the
``wizsim --version`` answer (instant: it loads neither NumPy nor Numba), setuptools' dynamic version, the
datasets' stamp, and the changelog's newest release."""

import re
import subprocess
import sys
import tomllib
from pathlib import Path

from click.testing import CliRunner

import wizsim
from wizsim._version import __version__
from wizsim.cli import main
from wizsim.dataset.spec import wizsim_version

ROOT = Path(__file__).resolve().parent.parent


def test_one_version_everywhere():
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert wizsim.__version__ == wizsim_version() == __version__
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "wizsim._version.__version__"}
    assert CliRunner().invoke(main, ["--version"]).output == f"wizsim, version {__version__}\n"


def test_version_answers_without_loading_the_engine():
    code = ("import sys; sys.argv = ['wizsim', '--version']; from wizsim.__main__ import main; main(); "
            "print(sorted(m for m in ('numpy', 'numba', 'wizsim.cli') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out == f"wizsim, version {__version__}\n[]\n"
    out = subprocess.run([sys.executable, "-m", "wizsim", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout == f"wizsim, version {__version__}\n"


def test_the_changelog_names_this_release_first():
    text = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## (\d+\.\d+\.\d+)", text, flags=re.M)
    assert releases[0] == __version__ and "0.1.0" in releases
    assert "Unreleased" not in text.split(f"## {__version__}")[0]
