"""The package lives in src/ (issue 34): Python started in a folder that holds a clone named ``wizsim`` (no
``__init__.py`` at its top, so Python would take it as a namespace package) still imports the real package,
as it did not with the flat layout and an editable install (``AttributeError: module 'wizsim' has no attribute
'read_rounds'``)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_is_in_src():
    assert (ROOT / "src" / "wizsim" / "__init__.py").is_file() and not (ROOT / "wizsim").exists()


def test_a_clone_named_wizsim_where_python_runs_does_not_shadow_the_package(tmp_path):
    clone = tmp_path / "wizsim"
    (clone / "tests").mkdir(parents=True)
    (clone / "README.md").write_text("a clone of wizsim, as a user names it\n")
    out = subprocess.run([sys.executable, "-c", "import wizsim; print(wizsim.read_rounds.__name__, wizsim.__file__)"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    name, where = out.stdout.split()
    assert name == "read_rounds" and Path(where).name == "__init__.py" and Path(where).parent.name == "wizsim"
    assert not Path(where).is_relative_to(clone)
