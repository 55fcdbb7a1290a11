"""What one seat may see of a round in progress: the observation record every player reads.

docs/rules.md decides what is public: the turned-up card, the trump, every bid, every card played and by
whom (seat 1 leads trick one, each trick's winner the next), the tricks taken, and so the voids a
seat showed by not following suit. A seat's own hand is its alone. An ``Observation`` holds exactly
that and nothing else; the built-in players (``table.players``) decide from it alone, so a player
that reads it cannot cheat, and the opponents' model reads the same record (``played`` in order is
what inference from play replays).

Seats are numbered 1..players here as everywhere in the public API (seat ``players`` deals).

The kernels' policies read the same facts as ``policies.observation.Obs`` (0-based seats, masks,
arrays). The two meet here and nowhere else: ``kernel_view`` makes the kernels' ``Obs`` of an
``Observation`` (a player object deciding through the kernels), and ``open_view`` the ``Observation``
of the kernels' records of a round (``policies.records``: the open table's ``Round``, a seat's view
made from another table's history).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim.cards import cards_to_mask, format_card, format_cards, format_trump
from wizsim.policies.observation import Obs
from wizsim.policies.records import RoundInfo, RoundState
from wizsim.policies.rollout import trick_status
from wizsim.rules.kernels import forbidden_bid, legal_mask


@dataclass(frozen=True)
class Observation:
    """One seat's view of a round. Cards are ids (``wizsim.cards``), suits and trump codes 0..3 (-1 = no
    trump).

    seat, players, r, hook: who looks, the table and the round size, the hook variant.
    phase: ``"trump"`` (the dealer names a suit on a turned-up Wizard), ``"bid"``, ``"card"`` or ``"over"``.
    hand: the seat's cards now (ascending ids).
    turn_up: the turned-up card, -1 when none (the last round).
    trump: the trump suit 0..3 or -1 for none; ``None`` while the dealer has yet to name it.
    bids: per seat, the bid or ``None`` while it has not bid.
    played: every card played this round as ``(seat, card)``, in order of play.
    tricks: per seat, tricks taken so far.
    voids: per seat, the suits it has shown it holds none of (it played off the led suit).
    leader: the seat that leads the current trick; trick: the current trick's cards, in order.
    legal: the legal actions when it is this seat's decision, else empty.
    player, game_round, totals: in a ``Game``, the player's number (1..players, fixed for the game), the
    round's number (its size) and the game's running totals before this round, by seat of this round.
    """

    seat: int
    players: int
    r: int
    hook: bool
    phase: str
    hand: tuple[int, ...]
    turn_up: int
    trump: int | None
    bids: tuple[int | None, ...]
    played: tuple[tuple[int, int], ...]
    tricks: tuple[int, ...]
    voids: tuple[frozenset[int], ...]
    leader: int
    trick: tuple[int, ...]
    legal: tuple[int, ...]
    player: int | None = None
    game_round: int | None = None
    totals: tuple[int, ...] | None = None

    @property
    def dealer(self) -> int:
        return self.players

    @property
    def to_act(self) -> bool:
        """Whether this seat has a decision now."""
        return bool(self.legal)

    def information_state(self) -> str:
        """The observation as one line of text (card names as the CLI writes them): equal texts, equal
        information."""
        bids = ",".join("?" if b is None else str(b) for b in self.bids)
        trump = "?" if self.trump is None else format_trump(self.trump)
        turn_up = "none" if self.turn_up < 0 else format_card(self.turn_up)
        tricks = []
        for t in range(0, len(self.played), self.players):
            tricks.append(" ".join(f"{s}:{format_card(c)}" for s, c in self.played[t:t + self.players]))
        voids = ",".join("".join("SHDC"[k] for k in sorted(v)) or "-" for v in self.voids)
        return (f"players {self.players} round {self.r} seat {self.seat} hook {'on' if self.hook else 'off'} | "
                f"phase {self.phase} | hand {format_cards(self.hand) or '-'} | turn-up {turn_up} trump {trump} | "
                f"bids {bids} | tricks {','.join(map(str, self.tricks))} | voids {voids} | "
                f"play {' / '.join(tricks) or '-'}")


def card_list(mask: int) -> list[int]:
    """Ascending card ids of a Python int mask, lowest bit first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def open_view(info: RoundInfo, state: RoundState, seat: int, phase: str, played, leader: int,
              legal=()) -> Observation:
    """The ``Observation`` of seat ``seat`` (1..players) from the kernels' records of a round: ``info``
    (its trump ``None`` while the dealer has yet to name it), ``state`` (``live[seat - 1]``: the seat's
    hand; the bids -1 for seats yet to bid), the order of play ``played`` ((seat, card) pairs, seats
    1-based), the 0-based ``leader`` of the current trick and the ``legal`` actions (empty: it is not
    this seat's decision)."""
    s, p = seat - 1, info.players
    return Observation(
        seat=seat, players=p, r=info.r, hook=info.hook, phase=phase, hand=tuple(card_list(int(state.live[s]))),
        turn_up=info.turn_up, trump=info.trump, bids=tuple(None if b < 0 else int(b) for b in state.bids),
        played=tuple(played), tricks=tuple(int(t) for t in state.tricks),
        voids=tuple(frozenset(k for k in range(4) if v >> k & 1) for v in state.voids), leader=leader + 1,
        trick=tuple(int(c) for c in state.trick_cards[:len(played) % p]), legal=tuple(legal))


def kernel_view(obs: Observation) -> Obs:
    """The observation record the kernels' policies read (``policies.observation.Obs``), rebuilt from what
    ``obs`` (the open table's ``Observation``) shows: 0-based seats, masks, arrays."""
    p = obs.players
    bids = np.array([-1 if b is None else b for b in obs.bids], np.int8)
    seat_played = np.zeros(p, np.uint64)
    for s, c in obs.played:
        seat_played[s - 1] |= np.uint64(1 << c)
    trick = np.full(p, -1, np.int8)
    trick[:len(obs.trick)] = obs.trick
    voids = np.array([sum(1 << k for k in v) for v in obs.voids], np.int8)
    trump = -1 if obs.trump is None or obs.phase == "trump" else obs.trump
    led, _, win_pos = trick_status(trick, np.int64(len(obs.trick)), np.int64(trump))
    hand = np.uint64(cards_to_mask(obs.hand))
    seat, r, hook = obs.seat - 1, obs.r, bool(obs.hook)
    forbidden = -1
    if obs.phase == "bid":
        forbidden = forbidden_bid(hook, seat, p, r, int(sum(b for b in obs.bids if b is not None)))
    legal = np.uint64(legal_mask(hand, led)) if obs.phase == "card" else np.uint64(0)
    return Obs(np.int64(seat), np.int64(p), np.int64(r), hook, hand, legal, np.int64(forbidden),
               np.int64(obs.turn_up), np.int64(trump), bids, np.array(obs.tricks, np.int8), seat_played,
               np.uint64(cards_to_mask(c for _, c in obs.played)), trick, np.int64(len(obs.trick)), np.int64(led),
               np.int64(win_pos), voids)


__all__ = ["Observation", "card_list", "kernel_view", "open_view"]
