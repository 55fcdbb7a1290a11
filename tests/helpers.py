"""Helpers several test modules share (before, each declared its own copy): the command in this process,
a dataset's data files, an open table part-way through a round, the cards and suits of a mask, JSON read
strictly. Fixtures shared the same way (``client``, ``server``, ``browser``) are in ``conftest.py``;
helpers that drive things outside the test process are in ``outside.py``, the browser in ``harness.py``."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from wizsim.cards import N_CARDS
from wizsim.cli import main


def invoke(*args):
    """``wizsim ARGS`` run in this process by click's runner (paths and numbers given as they are)."""
    return CliRunner().invoke(main, [str(a) for a in args])


def files_of(root: Path) -> dict[str, bytes]:
    """Every data file under ``root`` (relative path -> bytes); the run file and temporaries excluded."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


def midway(seed: int = 3, r: int = 10, cards: int = 9, players: int = 4):
    """``wizsim.Round`` stepped by the heuristic until ``cards`` cards are played (or the round is over)."""
    from wizsim import Round, player

    rd = Round(players, r, seed=seed)
    p = player("heuristic", seed=0)
    while rd.phase != "over" and (rd.phase != "card" or len(rd.played) < cards):
        rd._step(p)
    return rd


def cards_of(mask) -> set[int]:
    """The card ids set in a uint64 mask."""
    return {c for c in range(N_CARDS) if int(mask) >> c & 1}


def suits_of(voids) -> set[int]:
    """The suits (0..3) set in a voids bit field."""
    return {k for k in range(4) if int(voids) >> k & 1}


def strict_json(text: str):
    """``json.loads`` that refuses NaN and Infinity (what the CLI and the server must never print)."""
    def no_constant(name):
        raise ValueError(f"not JSON: {name}")

    return json.loads(text, parse_constant=no_constant)
