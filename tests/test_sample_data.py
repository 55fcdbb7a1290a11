"""The tracked sample (data/sample) is what scripts/make_sample_data.py writes, and running the script
again over a current sample leaves the folder byte-identical, its run file included."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample"


def load_script():
    spec = importlib.util.spec_from_file_location("make_sample_data", ROOT / "scripts" / "make_sample_data.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def snapshot(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_the_tracked_sample_is_current():
    assert load_script().is_current(SAMPLE)


def test_rerunning_the_script_over_a_current_sample_changes_nothing(tmp_path):
    script = load_script()
    out = tmp_path / "sample"
    shutil.copytree(SAMPLE, out)
    before = snapshot(out)
    script.main(out)
    assert snapshot(out) == before
    # a changed run file or data file is not current: the script rewrites it to the same data
    manifest = json.loads((out / "_wizsim_run.json").read_text())
    manifest["digests"].popitem()
    (out / "_wizsim_run.json").write_text(json.dumps(manifest))
    assert not script.is_current(out)
    script.main(out)
    assert script.is_current(out)
    data = {k: v[0] for k, v in snapshot(out).items() if k.endswith(".parquet")}
    assert data == {k: v[0] for k, v in before.items() if k.endswith(".parquet")}
