"""The first hour (issue 34): compile time said apart from the answer's, measured notices, ``wizsim warmup``."""

import json
import os
import re
import subprocess
import sys

from numba import njit

from wizsim._numba import Stopwatch, compile_seconds
from wizsim.render import took


def test_the_stopwatch_leaves_compiling_out():
    @njit  # a new function: compiled now, whatever the cache holds
    def f(x):
        return x * 2 + 1

    before = compile_seconds()
    clock = Stopwatch()
    assert f(3) == 7
    assert compile_seconds() - before > 0.01
    assert clock.compiled > 0.01 and clock.seconds < clock.compiled


def test_took_says_compiling_apart():
    assert took(0.8, 0.0) == "0.80 s"
    assert took(0.8, 44.6) == "0.80 s (and 44.6 s compiling or loading kernels first, not counted)"


def _wizsim(tmp_path, *args):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "WIZSIM_NUMBA_CACHE": "1"}
    return subprocess.run([sys.executable, "-m", "wizsim", *args], env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)


def test_warmup_compiles_ahead_and_the_command_then_compiles_nothing(tmp_path):
    warmed = _wizsim(tmp_path, "warmup", "--kind", "simulate", "--json")
    assert warmed.returncode == 0, warmed.stderr
    report = json.loads(warmed.stdout)
    assert [k["kind"] for k in report["kinds"]] == ["simulate"] and report["kinds"][0]["ok"]
    res = _wizsim(tmp_path, "simulate", "--round", "3", "--rounds", "1000", "--policy", "heuristic", "--seed", "1")
    assert res.returncode == 0, res.stderr
    assert "Compiling" not in res.stderr  # the notice speaks only where the cache lacks the kernels
    rate = re.search(r"card plays/s \(([\d.]+) s(.*)\)", res.stdout)
    assert rate and "compiling" not in rate.group(2), res.stdout  # nothing (measurable) compiled


def test_warmup_refuses_an_unknown_kind(tmp_path):
    res = _wizsim(tmp_path, "warmup", "--kind", "nothing")
    assert res.returncode == 2
    assert res.stderr.strip().splitlines()[-1].startswith("Error: unknown kind 'nothing': choose from search")


def test_a_first_run_prints_its_answer_time_without_the_compile(tmp_path):
    res = _wizsim(tmp_path, "simulate", "--round", "2", "--rounds", "2000", "--policy", "random", "--seed", "1")
    assert res.returncode == 0, res.stderr
    assert res.stderr.startswith("wizsim: Compiling wizsim's kernels for simulate on this machine, once")
    m = re.search(r"\(([\d.]+) s \(and ([\d,.]+) s compiling or loading kernels first, not counted\)\)", res.stdout)
    assert m, res.stdout
    assert float(m.group(1)) < float(m.group(2).replace(",", ""))


def test_no_minus_zero_in_printed_intervals():
    from wizsim.render import _num, _signed

    assert _signed(-0.04) == "+0.0" and _signed(-0.06) == "-0.1" and _signed(0.04) == "+0.0"
    assert _num(-0.04) == "0.0" and _num(-0.4) == "-0.4"


def test_the_package_says_it_is_typed():
    from importlib.resources import files

    assert files("wizsim").joinpath("py.typed").is_file()


# README's first-run sentence -> the first_run.json kinds it speaks for
README_COMPILE_CLAIMS = {
    "for `simulate` and `tournament`": ("simulate", "simulate --games", "datasets", "tournament"),
    "for advice": ("bid advice", "play advice", "trump advice"),
    "for a `net` table": ("net",),
    "for a `search`\nseat at your table": ("your table",),
    "for `review`": ("review",),
    "for a tournament with a `search` seat": ("search",),
}


def test_the_readme_compile_times_are_the_measured_ones():
    """README's first-run times are those ``benchmarks/first_run.py`` wrote (``wizsim/data/first_run.json``,
    which the notices quote): a new measurement that moves one out of its stated range fails here."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text()
    measured = json.loads((root / "src" / "wizsim" / "data" / "first_run.json").read_text())["compile_seconds"]
    for phrase, kinds in README_COMPILE_CLAIMS.items():
        m = re.search(r"(\d+)(?:-(\d+))? s " + re.escape(phrase), readme)
        assert m, f"README no longer says how long the first run {phrase!r} compiles"
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        for kind in kinds:
            assert lo <= round(measured[kind]) <= hi, (phrase, kind, measured[kind], (lo, hi))
