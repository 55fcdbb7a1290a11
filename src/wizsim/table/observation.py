"""What one seat may see of a round in progress: the observation record every player reads.

docs/rules.md decides what is public: the turned-up card, the trump, every bid, every card played and by
whom (seat 1 leads trick one, each trick's winner the next), the tricks taken, and so the voids a
seat showed by not following suit. A seat's own hand is its alone. An ``Observation`` holds exactly
that and nothing else; the built-in players (``table.players``) decide from it alone, so a player
that reads it cannot cheat, and the opponents' model reads the same record (``played`` in order is
what inference from play replays).

Seats are numbered 1..players here as everywhere in the public API (seat ``players`` deals).
"""

from __future__ import annotations

from dataclasses import dataclass

from wizsim.cards import format_card, format_cards, format_trump


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
