"""Plain-Python twins of ``dataset.kernels``, written from the schema's column descriptions."""

from __future__ import annotations

from wizsim.cards import N_RANKS, N_SUITED, is_jester, is_wizard


def _cards(mask: int) -> list[int]:
    return [c for c in range(64) if int(mask) >> c & 1]


def expand_round_rows(round_index, hands, trump, turn_up):
    """List of row dicts: one per (round, seat), seats 1-based, in round then seat order."""
    rows = []
    for i, hand_row in enumerate(hands):
        for s, hand in enumerate(hand_row):
            cards = _cards(hand)
            t = int(trump[i])
            rows.append({
                "round_index": int(round_index[i]),
                "seat": s + 1,
                "n_wizards": sum(is_wizard(c) for c in cards),
                "n_jesters": sum(is_jester(c) for c in cards),
                "n_trumps": 0 if t < 0 else sum(c < N_SUITED and c // N_RANKS == t for c in cards),
                "turn_up": int(turn_up[i]),
                "trump": t,
            })
    return rows


def expand_trick_rows(round_index, log_leader, log_winner):
    """List of row dicts: one per (round, trick), tricks and seats 1-based."""
    rows = []
    for i, leaders in enumerate(log_leader):
        for t, leader in enumerate(leaders):
            rows.append({"round_index": int(round_index[i]), "trick": t + 1, "leader": int(leader) + 1,
                         "winner": int(log_winner[i][t]) + 1})
    return rows
