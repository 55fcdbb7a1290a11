"""Corruption is caught: 64 flipped bytes inside a data page, the footer intact, are found on resume
(the chunk is rewritten and the report says so) and on read (``read_rounds`` refuses, naming the
file), by the digest the run file records and, without a run file, by the pages' own checksums."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from helpers import files_of, invoke

import wizsim
from wizsim.dataset.read import read_tricks
from wizsim.dataset.run import MANIFEST, write_dataset
from wizsim.io.parquet import DatasetError

RUN = ["simulate", "--players", "4", "--round", "10", "--rounds", "6000", "--chunk-size", "2000", "--seed", "3"]
PART = "rounds/players=4/round=10/part-{:06d}.parquet"


def flip_inside_a_data_page(path: Path, column: str = "hand", n: int = 64) -> None:
    """Invert ``n`` bytes in the middle of ``column``'s data, located from the Parquet metadata (the
    column chunk's first data page and its size), far from the page header and the footer."""
    rg = pq.read_metadata(path).row_group(0)
    chunk = next(rg.column(i) for i in range(rg.num_columns) if rg.column(i).path_in_schema == column)
    first = chunk.dictionary_page_offset if chunk.dictionary_page_offset is not None else chunk.data_page_offset
    end = first + chunk.total_compressed_size  # the data pages run from data_page_offset to here
    assert end - chunk.data_page_offset > 8 * n
    start = (chunk.data_page_offset + end) // 2
    data = bytearray(path.read_bytes())
    footer = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    assert start + n < footer
    data[start:start + n] = bytes(b ^ 0xFF for b in data[start:start + n])
    path.write_bytes(bytes(data))


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    out = tmp_path_factory.mktemp("fresh") / "d"
    assert invoke(*RUN, "--out", out).exit_code == 0
    return out


@pytest.fixture
def flipped(tmp_path, fresh):
    out = tmp_path / "d"
    shutil.copytree(fresh, out)
    flip_inside_a_data_page(out / PART.format(1))
    return out


def test_the_flip_is_silent_without_the_checks(flipped, fresh):
    # what the checks guard against: the footer still reads, and the rows come back wrong
    assert pq.read_metadata(flipped / PART.format(1)).num_rows == 8000
    bad = wizsim.read_rounds(flipped, verify=False)
    good = wizsim.read_rounds(fresh)
    assert len(bad) == len(good) and (bad["hand"].to_numpy() != good["hand"].to_numpy()).sum() > 100


def test_read_rounds_refuses_a_flipped_page_naming_the_file(flipped):
    with pytest.raises(DatasetError) as err:
        wizsim.read_rounds(flipped)
    msg = str(err.value)
    assert "\n" not in msg and str(flipped / PART.format(1)) in msg and "digest" in msg and "verify=False" in msg
    # reading one column of it is refused too: the file as a whole is not what was written
    with pytest.raises(DatasetError, match="part-000001"):
        wizsim.read_rounds(flipped, columns="bid")


def test_resume_rewrites_the_flipped_chunk_and_says_so(flipped, fresh):
    res = invoke(*RUN, "--out", flipped)
    assert res.exit_code == 0, res.output
    assert f"rewrote 1 damaged chunk: {PART.format(1)} (damaged: its bytes differ from the sha256 digest" in res.output
    assert "2 chunks were already complete and verified (resumed): 2 files by the digest in the run file" in res.output
    assert files_of(flipped) == files_of(fresh)
    pd_equal = wizsim.read_rounds(flipped).equals(wizsim.read_rounds(fresh))
    assert pd_equal
    rep = json.loads(invoke(*RUN, "--out", flipped, "--json").output)
    assert rep["chunks_skipped"] == 3 and rep["chunks_rewritten"] == [] and rep["files_verified"] == 3


def test_without_the_run_file_the_page_checksums_catch_it(flipped, fresh):
    (flipped / MANIFEST).unlink()
    with pytest.raises(DatasetError) as err:
        wizsim.read_rounds(flipped)
    assert str(flipped / PART.format(1)) in str(err.value) and "CRC" in str(err.value)
    res = invoke(*RUN, "--out", flipped, "--json")
    rep = json.loads(res.stdout)
    assert rep["recovered"] and rep["chunks_rewritten"] == [1] and "CRC" in rep["rewritten"][0]
    assert rep["files_decoded"] == 2 and rep["files_verified"] == 0
    assert files_of(flipped) == files_of(fresh)
    # the rebuilt run file records every file's digest again, the same as the uninterrupted run's
    digests = json.loads((flipped / MANIFEST).read_text())["digests"]
    assert digests == json.loads((fresh / MANIFEST).read_text())["digests"] and len(digests) == 3


def test_the_text_report_says_which_files_were_decoded(flipped):
    manifest = json.loads((flipped / MANIFEST).read_text())
    del manifest["digests"]  # a run file as an older wizsim wrote it
    (flipped / MANIFEST).write_text(json.dumps(manifest))
    res = invoke(*RUN, "--out", flipped)
    assert res.exit_code == 0, res.output
    assert "2 files with no digest recorded" in res.output and "rewrote 1 damaged chunk" in res.output


def test_game_mode_and_the_trick_log_are_checked_too(tmp_path):
    out = tmp_path / "g"
    write_dataset(out, 3, games=40, seed=5, trick_log=True, chunk_size=20)
    tricks = out / "tricks/players=3/round=20/part-000001.parquet"
    flip_inside_a_data_page(tricks, "cards.list.element", 16)
    assert len(wizsim.read_rounds(out)) == 40 * 20 * 3  # the rounds table is intact
    with pytest.raises(DatasetError, match="part-000001"):
        read_tricks(out)
    rep = write_dataset(out, 3, games=40, seed=5, trick_log=True, chunk_size=20)
    assert rep.chunks_rewritten == [1] and rep.files_verified == 40
    assert np.array_equal(read_tricks(out)["winner"].to_numpy(), read_tricks(out, verify=False)["winner"].to_numpy())


def test_verify_must_be_a_flag(fresh):
    with pytest.raises(TypeError, match="verify must be True or False"):
        wizsim.read_rounds(fresh, verify="no")
