"""read_rounds checks its arguments like the CLI and warns about datasets that are not one finished
run (issue 10 items 7 and 9)."""

import json
import shutil
import warnings
from pathlib import Path

import pytest

import wizsim
from wizsim.dataset.read import DatasetWarning
from wizsim.dataset.run import MANIFEST, write_dataset

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample"


def test_one_column_name_is_one_column_not_its_letters():
    assert list(wizsim.read_rounds(SAMPLE, columns="bid", round=1).columns) == ["bid"]


def test_a_none_filter_is_an_error_not_an_empty_frame():
    with pytest.raises(ValueError, match="round=None"):
        wizsim.read_rounds(SAMPLE, round=None)


@pytest.mark.parametrize("filters, exc", [
    (dict(round="x"), TypeError), (dict(round=1.5), TypeError), (dict(round=[[1]]), TypeError),
    (dict(round=10**30), ValueError), (dict(seat=True), TypeError), (dict(policy=3), TypeError),
])
def test_bad_filter_values_are_named_errors_not_arrow_exceptions(filters, exc):
    (name,) = filters
    with pytest.raises(exc, match=name):
        wizsim.read_rounds(SAMPLE, **filters)


def test_bad_path_and_flags_are_named():
    with pytest.raises(TypeError, match="path"):
        wizsim.read_rounds(123)
    with pytest.raises(TypeError, match="decode_hands"):
        wizsim.read_rounds(SAMPLE, decode_hands="yes")
    with pytest.raises(TypeError, match="columns"):
        wizsim.read_rounds(SAMPLE, columns=[1, 2])


def test_the_finished_sample_reads_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(wizsim.read_rounds(SAMPLE, round=3)) == 400


def test_an_unfinished_run_warns(tmp_path):
    out = tmp_path / "d"
    write_dataset(out, 4, r=3, rounds=200, seed=1)
    manifest = out / MANIFEST
    run = json.loads(manifest.read_text())
    run["status"] = "interrupted"
    manifest.write_text(json.dumps(run))
    with pytest.warns(DatasetWarning, match="not complete"):
        df = wizsim.read_rounds(out)
    assert len(df) == 800


def test_files_of_two_runs_warn(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    write_dataset(a, 4, r=3, rounds=100, seed=1)
    write_dataset(b, 4, r=4, rounds=100, seed=2)
    shutil.copytree(b / "rounds" / "players=4" / "round=4", a / "rounds" / "players=4" / "round=4")
    with pytest.warns(DatasetWarning, match="2 runs"):
        wizsim.read_rounds(a)
    with warnings.catch_warnings():  # a filter that reads one run's files only: nothing mixed
        warnings.simplefilter("error")
        wizsim.read_rounds(a, round=3)
