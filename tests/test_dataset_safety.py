"""A dataset folder is the user's: wizsim never deletes or overwrites a file it did not write (anywhere
below the folder, with or without --overwrite), resumes only over files it verified, rebuilds a lost
run file from the files' own metadata, and turns operating-system faults (full disk, read-only or
forbidden folder, unreachable scheduler, SIGTERM) into one-line errors that leave nothing behind.

The fault tests use real processes and, where this machine lets us mount one (root with
CAP_SYS_ADMIN), a real small tmpfs; they skip, saying why, where it does not."""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from helpers import files_of, invoke

from wizsim.cli import main
from wizsim.dataset.lock import LOCK
from wizsim.dataset.run import MANIFEST, write_dataset
from wizsim.io.parquet import DatasetError

RUN = ["simulate", "--players", "4", "--round", "10", "--rounds", "6000", "--chunk-size", "2000", "--seed", "3"]
PART = "rounds/players=4/round=10/part-{:06d}.parquet"


def everything(root: Path) -> dict[str, bytes | None]:
    """Every entry below root: files with their bytes, folders as None."""
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def wizsim_process(*args, **kw):
    return subprocess.run([sys.executable, "-m", "wizsim.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=300, **kw)


def assert_one_line_error(res, *needles, code=2):
    out = res.output if hasattr(res, "output") else res.stdout + res.stderr
    status = res.exit_code if hasattr(res, "exit_code") else res.returncode
    assert status == code, out
    assert "Traceback" not in out, out
    errors = [line for line in out.splitlines() if line.startswith("Error")]
    assert len(errors) == 1, out
    for n in needles:
        assert n in errors[0], errors[0]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """The run RUN written once, uninterrupted: what every resumed folder must equal byte for byte."""
    out = tmp_path_factory.mktemp("fresh") / "d"
    assert invoke(*RUN, "--out", out).exit_code == 0
    return out


# --- 1. never a file wizsim did not write ----------------------------------------------------------

# (the user's file, the entry the refusal names: the first one below the folder that is not wizsim's)
USER_FILES = [("rounds/my_scores.csv", "rounds/my_scores.csv"), ("rounds/ANALYSIS.md", "rounds/ANALYSIS.md"),
              ("rounds/players=4/round=5/notes.txt", "rounds/players=4/round=5/notes.txt"),
              ("tricks/players=4/notes/x.txt", "tricks/players=4/notes"),
              ("rounds/players=4/round=10/part-000000.parquet.bak", "rounds/players=4/round=10/part-000000.parquet.bak"),
              ("rounds/players=4/round=10/.part-000007.parquet.mine.tmp",
               "rounds/players=4/round=10/.part-000007.parquet.mine.tmp")]


@pytest.mark.parametrize(("rel", "named"), USER_FILES)
def test_a_users_file_below_a_new_folder_is_never_deleted(tmp_path, rel, named):
    out = tmp_path / "d"
    (out / "tricks").mkdir(parents=True)
    (out / rel).parent.mkdir(parents=True, exist_ok=True)
    (out / rel).write_text("mine")
    before = everything(out)
    for extra in ([], ["--overwrite"]):
        res = invoke(*RUN, "--out", out, *extra)
        assert_one_line_error(res, str(out / named), "did not ")
        assert everything(out) == before


@pytest.mark.parametrize(("rel", "named"), USER_FILES)
def test_overwrite_never_deletes_a_users_file_among_an_old_runs_data(tmp_path, fresh, rel, named):
    out = tmp_path / "d"
    shutil.copytree(fresh, out)
    (out / rel).parent.mkdir(parents=True, exist_ok=True)
    (out / rel).write_text("mine")
    before = everything(out)
    res = invoke(*RUN[:-1], "4", "--out", out, "--overwrite")  # another seed: another run
    assert_one_line_error(res, str(out / named))
    assert everything(out) == before
    res = invoke(*RUN, "--out", out)  # resuming the same run does not touch it either
    assert_one_line_error(res, str(out / named))
    assert everything(out) == before


def test_a_parquet_file_wizsim_did_not_write_is_refused_even_under_its_names(tmp_path, fresh):
    out = tmp_path / "d"
    shutil.copytree(fresh, out)
    theirs = out / PART.format(1)
    pq.write_table(pa.table({"x": [1, 2, 3]}), theirs)  # a user's Parquet file under a chunk's name
    before = theirs.read_bytes()
    for extra in ([], ["--overwrite"]):
        assert_one_line_error(invoke(*RUN, "--out", out, *extra), str(theirs), "without wizsim's run metadata")
        assert_one_line_error(invoke(*RUN[:-1], "4", "--out", out, *extra), str(theirs))
    assert theirs.read_bytes() == before
    (out / PART.format(2)).write_bytes(b"my notes, not Parquet")
    theirs.unlink()
    assert_one_line_error(invoke(*RUN, "--out", out, "--overwrite"), "part-000002.parquet", "not a Parquet file")


def test_an_empty_out_is_an_error_not_the_current_folder(tmp_path):
    res = CliRunner().invoke(main, [*RUN, "--out", ""], catch_exceptions=False)
    assert_one_line_error(res, "empty path")
    with pytest.raises(DatasetError, match="empty path"):
        write_dataset("", 4, r=3, rounds=10)


def test_a_symlinked_rounds_folder_is_refused_and_its_target_untouched(tmp_path, fresh):
    target = tmp_path / "elsewhere"
    shutil.copytree(fresh / "rounds", target)
    (target / "mine.txt").write_text("mine")
    before = everything(target)
    out = tmp_path / "d"
    out.mkdir()
    (out / "rounds").symlink_to(target)
    for extra in ([], ["--overwrite"]):
        assert_one_line_error(invoke(*RUN, "--out", out, *extra), str(out / "rounds"), "symbolic link")
    assert everything(target) == before


def test_overwrite_deletes_only_what_it_proved_its_own(tmp_path, fresh):
    out = tmp_path / "d"
    shutil.copytree(fresh, out)
    (out / PART.format(2)).write_bytes((out / PART.format(2)).read_bytes()[:1000])  # damaged: a Parquet cut short
    res = invoke(*RUN[:-1], "4", "--out", out, "--overwrite", "--json")
    assert res.exit_code == 0, res.output
    seeds = {json.loads(pq.read_schema(p).metadata[b"wizsim.run"])["seed"] for p in out.rglob("*.parquet")}
    assert seeds == {4} and len(list(out.rglob("*.parquet"))) == 3


# --- 2. resume verifies what it skips ---------------------------------------------------------------

def test_resume_rewrites_truncated_empty_and_foreign_chunks_and_says_so(tmp_path, fresh):
    out = tmp_path / "d"
    shutil.copytree(fresh, out)
    other = tmp_path / "other"
    assert invoke(*RUN[:-1], "4", "--out", other).exit_code == 0
    (out / PART.format(0)).write_bytes((out / PART.format(0)).read_bytes()[:-100])  # cut short
    (out / PART.format(1)).write_bytes(b"")  # empty
    shutil.copy(other / PART.format(2), out / PART.format(2))  # another run's file under this run's name
    res = invoke(*RUN, "--out", out, "--json")
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["chunks_rewritten"] == [0, 1, 2] and rep["chunks_skipped"] == 0 and rep["chunks_written"] == 3
    assert "truncated" in rep["rewritten"][0] and "empty" in rep["rewritten"][1]
    assert "belongs to run" in rep["rewritten"][2]
    assert files_of(out) == files_of(fresh)
    # the text report says it too, and a rerun over verified files skips them all
    (out / PART.format(1)).write_bytes(b"PAR1")
    res = invoke(*RUN, "--out", out)
    assert res.exit_code == 0 and "rewrote 1 damaged chunk: rounds/players=4/round=10/part-000001.parquet" in res.output
    rep = json.loads(invoke(*RUN, "--out", out, "--json").output)
    assert rep["chunks_skipped"] == 3 and rep["chunks_written"] == 0 and rep["chunks_rewritten"] == []


def test_a_lost_or_damaged_run_file_is_recovered_from_the_files(tmp_path, fresh):
    out = tmp_path / "d"
    shutil.copytree(fresh, out)
    (out / PART.format(1)).unlink()  # an interrupted run ...
    (out / MANIFEST).unlink()  # ... whose run file is lost
    res = invoke(*RUN, "--out", out)
    assert res.exit_code == 0, res.output
    assert "recovered the run from its files' own metadata" in res.output
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["status"] == "complete" and manifest["run_id"] == json.loads(
        pq.read_schema(out / PART.format(0)).metadata[b"wizsim.run"])["run_id"]
    assert files_of(out) == files_of(fresh)
    (out / MANIFEST).write_text('{"format": "wizsim-dat')  # cut short by a crash
    rep = json.loads(invoke(*RUN, "--out", out, "--json").output)
    assert rep["recovered"] and rep["chunks_skipped"] == 3
    # without a run file, another run's files still say whose they are
    (out / MANIFEST).unlink()
    res = invoke(*RUN[:-1], "4", "--out", out)
    assert_one_line_error(res, "--overwrite", "wizsim simulate --players 4 --round 10 --rounds 6000")


def test_a_stray_file_of_another_run_is_refused_without_overwrite(tmp_path, fresh):
    out = tmp_path / "d"
    shutil.copytree(fresh, out)
    other = tmp_path / "other"
    assert invoke("simulate", "--round", "10", "--rounds", "8000", "--chunk-size", "2000", "--out", other).exit_code == 0
    shutil.copy(other / PART.format(3), out / PART.format(3))  # chunk 3: this run has chunks 0..2
    assert_one_line_error(invoke(*RUN, "--out", out), str(out / PART.format(3)), "not a file of run")
    res = invoke(*RUN, "--out", out, "--overwrite")
    assert res.exit_code == 0, res.output
    assert files_of(out) == files_of(fresh)


def test_the_run_file_is_written_atomically_and_synced(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync

    def fsync(fd):
        synced.append(os.readlink(f"/proc/self/fd/{fd}") if os.path.exists(f"/proc/self/fd/{fd}") else fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_dataset(tmp_path / "d", 4, r=3, rounds=10)
    names = [Path(str(p)).name for p in synced]
    assert any(n.startswith(f".{MANIFEST}.") and n.endswith(".tmp") for n in names), names
    assert not [p for p in (tmp_path / "d").rglob(".*") if p.name != LOCK]


# --- 3. faults of the operating system ---------------------------------------------------------------

def _mount(mnt: Path, options: str) -> None:
    res = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(mnt)], capture_output=True, text=True)
    if res.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({res.stderr.strip() or 'mount failed'}): needs root "
                    "with CAP_SYS_ADMIN")


@pytest.fixture
def small_fs(tmp_path):
    """A real tmpfs at ``tmp_path/mnt``: ``small_fs(options)`` (re)mounts it, e.g. "size=64k" or "remount,ro"."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    mounted = []

    def mount(options):
        if mounted:
            subprocess.run(["mount", "-o", options, str(mnt)], check=True)
        else:
            _mount(mnt, options)
            mounted.append(True)
        return mnt

    yield mount
    if mounted:
        subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_a_full_disk_is_a_one_line_error_that_leaves_nothing(small_fs, tmp_path):
    mnt = small_fs("size=64k")  # the run file fits, the first chunk (~75 KB) does not
    res = wizsim_process(*RUN, "--out", mnt / "d")
    assert_one_line_error(res, "No space left on device", "nothing of this run is left behind", code=1)
    assert list(mnt.iterdir()) == []
    (mnt / "d").mkdir()  # a folder the user made stays, empty
    res = wizsim_process(*RUN, "--out", mnt / "d")
    assert_one_line_error(res, "No space left on device", code=1)
    assert list(mnt.rglob("*")) == [mnt / "d"]


def test_a_disk_that_fills_mid_run_keeps_the_complete_chunks_and_resumes(small_fs, fresh):
    mnt = small_fs("size=200k")  # room for about two of the three chunks
    res = wizsim_process(*RUN, "--out", mnt / "d")
    assert_one_line_error(res, "No space left on device", "run the same command again to resume", code=1)
    kept = files_of(mnt / "d")
    assert 0 < len(kept) < 3 and all(fresh.joinpath(k).read_bytes() == v for k, v in kept.items())
    assert not [p for p in mnt.rglob(".*") if p.name != LOCK]  # no temporaries
    assert not (mnt / "d" / LOCK).exists()
    assert json.loads((mnt / "d" / MANIFEST).read_text())["status"] == "failed"
    small_fs("remount,size=2m")
    res = wizsim_process(*RUN, "--out", mnt / "d", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["chunks_skipped"] == len(kept)
    assert files_of(mnt / "d") == files_of(fresh)


def test_a_read_only_filesystem_is_a_one_line_error(small_fs, fresh):
    mnt = small_fs("size=2m")
    shutil.copytree(fresh, mnt / "d")
    small_fs("remount,ro")
    before = everything(mnt)
    for args in ([*RUN, "--out", mnt / "d"], [*RUN, "--out", mnt / "new"], [*RUN[:-1], "4", "--out", mnt / "d",
                                                                            "--overwrite"]):
        res = wizsim_process(*args)
        assert_one_line_error(res, "Read-only file system", code=1)
    assert everything(mnt) == before


def _without_root_file_powers():
    """In the child, before exec: drop the capabilities that let root ignore file permissions."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            os._exit(99)


def test_a_folder_without_write_permission_is_a_one_line_error(tmp_path, fresh):
    # tests run as root, who may write anywhere: the child drops that power
    run_as = {"preexec_fn": _without_root_file_powers} if os.geteuid() == 0 else {}
    locked = tmp_path / "p"
    locked.mkdir()
    shutil.copytree(fresh, locked / "d")
    for p in [locked, *locked.rglob("*")]:
        p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        probe = subprocess.run([sys.executable, "-c", f"open({str(locked / 'x')!r}, 'w')"], capture_output=True,
                               **run_as)
        if probe.returncode == 99 or probe.returncode == 0:
            pytest.skip("cannot make a folder unwritable for this user here (root without CAP_SETPCAP?)")
        before = everything(locked)
        for args in ([*RUN, "--out", locked / "new"], [*RUN, "--out", locked / "d"],
                     [*RUN[:-1], "4", "--out", locked / "d", "--overwrite"]):
            res = wizsim_process(*args, **run_as)
            assert_one_line_error(res, "Permission denied", code=1)
        assert everything(locked) == before
    finally:
        for p in [locked, *locked.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)


def test_an_unreachable_scheduler_leaves_no_trace(tmp_path):
    args = ["simulate", "--round", "3", "--rounds", "10", "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9"]
    res = invoke(*args, "--out", tmp_path / "new")
    assert_one_line_error(res, "cannot reach the Dask scheduler")
    assert not (tmp_path / "new").exists()
    (tmp_path / "mine").mkdir()
    assert_one_line_error(invoke(*args, "--out", tmp_path / "mine"), "cannot reach the Dask scheduler")
    assert list((tmp_path / "mine").iterdir()) == []
