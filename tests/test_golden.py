"""Seeded rounds still play out exactly as the reviewed transcripts in tests/golden/ say, in the
kernels and in the plain-Python twin. Only scripts/regen_golden.py rewrites those files; when a
change is meant to alter simulated results, rerun it and review the diff."""

import json
from pathlib import Path

import pytest

from wizsim import simulate_rounds
from wizsim.sim.reference import simulate_rounds_reference
from wizsim.sim.transcript import batch_transcript, record_transcript

GOLDEN = sorted((Path(__file__).parent / "golden").glob("round_*.json"))
HINT = "simulated results changed: if intended, run scripts/regen_golden.py and review the diff"


def test_golden_transcripts_exist():
    assert len(GOLDEN) >= 6


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_kernel_reproduces_golden_transcript(path):
    want = json.loads(path.read_text())
    batch = simulate_rounds(want["players"], want["round"], 1, seed=want["seed"], hook=want["hook"],
                            first_index=want["round_index"], trick_log=True)
    assert batch_transcript(batch, 0, want["hook"]) == want, HINT


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_reference_reproduces_golden_transcript(path):
    want = json.loads(path.read_text())
    [record] = simulate_rounds_reference(want["players"], want["round"], 1, want["seed"], want["hook"],
                                         want["round_index"])
    assert record_transcript(record, want["hook"], want["seed"], want["round_index"]) == want, HINT
