"""The RL examples run (issue 34 item 4): ``scripts/train_maskable_ppo.py`` trains sb3-contrib's MaskablePPO
for a few hundred decisions with a fixed seed and prints its score against the heuristic, in a subprocess
as a user runs it, well under a minute; its score is printed, not judged. Every Python block of the
reinforcement learning guide (docs/guide/rl.md) runs as written, and the README's example is one of them."""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def python_blocks(path: str) -> list[str]:
    """The Python code blocks of a Markdown file of the repository, in order."""
    return re.findall(r"```python\n(.*?)```", (ROOT / path).read_text(), re.S)


def test_the_maskable_ppo_example_trains_and_prints_its_score():
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("torch")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    started = time.perf_counter()
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "train_maskable_ppo.py"), "--timesteps", "512",
                          "--seed", "3", "--eval", "20", "--envs", "2"], capture_output=True, text=True, env=env,
                         timeout=300, cwd=ROOT)
    took = time.perf_counter() - started
    assert out.returncode == 0, out.stderr[-2000:]
    print(out.stdout, f"({took:.0f} s)")
    assert re.search(r"trained MaskablePPO on [\d,]+ learner decisions", out.stdout)
    assert re.search(r"MaskablePPO \(trained\): +[+-]\d+\.\d\d \[", out.stdout)
    assert re.search(r"score vs heuristic: [+-]\d+\.\d\d a round", out.stdout)


@pytest.mark.parametrize("k", range(6))
def test_the_rl_pages_examples_run_and_print_what_they_did(k, capsys):
    """Every Python block of docs/guide/rl.md (Gymnasium one seat, MaskablePPO, the vector env, PettingZoo,
    OpenSpiel, VectorEnv) runs as written and prints what it played."""
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    blocks = python_blocks("docs/guide/rl.md")
    assert len(blocks) == 6
    for module in ("sb3_contrib", "pyspiel"):
        if module in blocks[k]:
            pytest.importorskip(module)
    exec(compile(blocks[k], f"docs/guide/rl.md block {k + 1}", "exec"), {})
    out = capsys.readouterr().out
    assert re.search(r"\d+ (rounds?|learner|game)", out), out


def test_the_readmes_rl_example_is_one_the_guide_runs():
    """The README's reinforcement learning example is, character for character, the guide's MaskablePPO
    block, which the test above runs."""
    readme = [b for b in python_blocks("README.md") if "MaskablePPO" in b]
    assert len(readme) == 1 and readme[0] in python_blocks("docs/guide/rl.md")
