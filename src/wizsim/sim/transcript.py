"""A simulated round as a plain, human-readable record (JSON-ready dict with canonical card text).

Used for the golden transcripts in ``tests/golden/`` (written by ``scripts/regen_golden.py``) and for
anyone who wants to read a round. Seats are numbered 1..players as in docs/rules.md (seat 1 bids first
and leads trick one, seat ``players`` deals); hands are listed in ascending card id.
"""

from __future__ import annotations

import json

from wizsim.cards import format_cards, format_trump, mask_to_cards


def _hand_text(mask: int) -> str:
    return format_cards(mask_to_cards(mask))


def transcript(players, r, hook, seed, index, hands, turn_up, trump, bids, tricks, scores,
               log_cards, log_leader, log_winner) -> dict:
    """The record of one played round; every argument is that round's value (seats 0-based in the
    arrays given, 1-based in the record)."""
    turn_up = int(turn_up)
    return {
        "players": int(players),
        "round": int(r),
        "hook": bool(hook),
        "seed": int(seed),
        "round_index": int(index),
        "hands": [_hand_text(h) for h in hands],
        "turn_up": format_cards([turn_up]) if turn_up >= 0 else None,
        "trump": format_trump(int(trump)),
        "bids": [int(b) for b in bids],
        "tricks": [
            {
                "leader": int(log_leader[t]) + 1,
                "cards": format_cards(log_cards[t * players:(t + 1) * players]),
                "winner": int(log_winner[t]) + 1,
            }
            for t in range(r)
        ],
        "tricks_taken": [int(t) for t in tricks],
        "scores": [int(s) for s in scores],
    }


def batch_transcript(batch, i: int, hook: bool) -> dict:
    """Round ``i`` of a ``RoundBatch`` simulated with ``trick_log=True``."""
    if batch.log_cards is None:
        raise ValueError("the batch has no play log: simulate with trick_log=True")
    return transcript(batch.players, batch.r, hook, batch.seed, batch.first_index + i, batch.hands[i],
                      batch.turn_up[i], batch.trump[i], batch.bids[i], batch.tricks[i], batch.scores[i],
                      batch.log_cards[i], batch.log_leader[i], batch.log_winner[i])


def record_transcript(record, hook: bool, seed: int, index: int) -> dict:
    """A ``sim.reference.RoundRecord`` of round ``index`` of the run ``seed``."""
    return transcript(record.players, record.r, hook, seed, index, record.hands, record.turn_up, record.trump,
                      record.bids, record.tricks, record.scores, record.log_cards, record.log_leader,
                      record.log_winner)


def dumps(record: dict) -> str:
    """JSON text with one key per line and one trick per line: compact, and a diff names what changed."""
    lines = []
    for key, value in record.items():
        if key == "tricks":
            inner = ",\n".join(f"  {json.dumps(t)}" for t in value)
            lines.append(f' "{key}": [\n{inner}\n ]')
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"
