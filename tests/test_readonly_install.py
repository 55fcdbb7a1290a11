"""A read-only install runs (issue 10 item 12): with no writable cache folder anywhere (package
folder read-only, no writable home, NUMBA_CACHE_DIR unset) wizsim compiles in memory and says so in
one stderr line, instead of dying at import with Numba's "no locator available"."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import wizsim

_PROBE = """
import wizsim
print(wizsim.trick_winner([17, 25, 0], 0), wizsim.score(2, 2))
"""


def _copy_of_package() -> Path:
    root = Path(tempfile.mkdtemp(prefix="wizsim-ro-"))
    shutil.copytree(Path(wizsim.__file__).parent, root / "wizsim", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "home").mkdir()
    return root


def _read_only(root: Path, cmd: list[str]) -> list[str]:
    """``cmd`` run where ``root`` (the package copy and the home folder) cannot be written.

    Root writes whatever the file modes say, so as root the copy is bind-mounted read-only in a
    private mount namespace (``unshare -m``); as another user, taking away the write bits does it."""
    if os.geteuid() != 0:
        for path in [root, *root.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        return cmd
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("running as root without unshare: no way to make a read-only folder here")
    mounted = subprocess.run([unshare, "-m", "sh", "-c", f"mount --bind -o ro {root} {root} && touch {root}/probe"],
                             capture_output=True, text=True)
    if "Read-only file system" not in mounted.stderr:
        pytest.skip(f"this sandbox cannot make a read-only bind mount: {mounted.stderr.strip()[-200:]}")
    script = f"mount --bind -o ro {root} {root} && exec \"$@\""
    return [unshare, "-m", "sh", "-c", script, "sh", *cmd]


def test_read_only_install_compiles_in_memory_and_says_so():
    root = _copy_of_package()
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "WIZSIM_", "XDG_"))}
        env.update(PYTHONPATH=str(root), HOME=str(root / "home"), PYTHONDONTWRITEBYTECODE="1")
        out = subprocess.run(_read_only(root, [sys.executable, "-c", _PROBE]), env=env,
                             capture_output=True, text=True, cwd="/", timeout=600)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["2", "40"]  # 2S, the only trump, wins; bid 2 took 2 scores 40
        lines = [line for line in out.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and "cache is off" in lines[0] and "NUMBA_CACHE_DIR" in lines[0], out.stderr
        cli = subprocess.run(_read_only(root, [sys.executable, "-m", "wizsim.cli", "simulate", "--help"]), env=env,
                             capture_output=True, text=True, cwd="/", timeout=600)
        assert cli.returncode == 0 and "--players" in cli.stdout, cli.stderr
        assert not [p for p in root.rglob("*") if p.suffix in (".nbi", ".nbc")], "the read-only copy was written"
    finally:
        for path in [root, *root.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        shutil.rmtree(root)
