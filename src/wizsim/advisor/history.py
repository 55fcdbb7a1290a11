"""A seat's ``wizsim.Observation`` made from what it saw at a table that is not wizsim's own.

``observe(hand, trump, seat, players=4, *, bids=None, played=(), hook=False, trump_card=None)`` takes what
``advise_play`` takes, in the same forms (the CLI's text or ids): the cards the seat holds now, the trump,
its seat (1..players: seat 1 sits left of the dealer, bids first and leads trick one; seat ``players``
deals), the bids heard so far (seat 1 first), the cards played this round in order of play
(``"AS,W,J,QS/8S,..."``) and the turned-up card (``trump_card``; none in the last round). From these it
derives what wizsim's own ``Round.observation`` holds: the phase, the round size, who played each card,
the tricks taken, the voids shown, the leader, the current trick and the legal actions.

The phase follows from the bids: fewer than ``players`` of them (exactly ``seat - 1``: the seat is about
to bid) is the bidding; all of them is the play, and then it must be this seat's turn to play. A
turned-up Wizard with no trump named yet, at the dealer before any bid, is the dealer's choice of trump.

Checks are the advisor's own: the play is replayed by ``advisor.played`` (the parser and replay
``advise_play`` runs), the bidding checked by ``advisor.question``, so an impossible history raises
``AdviceError`` (a ``ValueError``) with the message ``advise_play`` (or ``advise``) gives for it.
"""

from __future__ import annotations

import numpy as np

from wizsim.advisor.played import advice_phase, make_play_question
from wizsim.advisor.question import AdviceError, AdviceTypeError, make_question, parse_bids
from wizsim.cards import FIRST_JESTER, FIRST_WIZARD, N_CARDS, cards_to_mask, format_trump
from wizsim.config import check_flag
from wizsim.policies.records import RoundInfo, RoundState, state_arrays
from wizsim.rules.kernels import forbidden_bid
from wizsim.rules.replay import order_of_play
from wizsim.table.observation import Observation, open_view


def _is_wizard(card) -> bool:
    return card is not None and FIRST_WIZARD <= card < FIRST_JESTER


def _turn_up(trump_card, q_card, seen) -> int:
    """The turned-up card's id: the one given when it is an id not seen (the advisor numbers a turned-up
    Wizard or Jester afresh; an id given keeps its number, as the hand's and the played cards' do)."""
    if q_card is None:
        return -1
    if isinstance(trump_card, (int, np.integer)) and not isinstance(trump_card, bool) and \
            FIRST_WIZARD <= int(trump_card) < N_CARDS and int(trump_card) not in seen and \
            (int(trump_card) < FIRST_JESTER) == (q_card < FIRST_JESTER):
        return int(trump_card)
    return q_card


def _no_trump_named(trump) -> bool:
    return trump is None or (isinstance(trump, str) and not trump.strip())


def _need_turn_up(trump: int) -> AdviceError:
    return AdviceError(f"give the turned-up card (trump_card, like '7H', 'W' or 'J'): the seat saw it and the "
                       f"observation holds it (trump {format_trump(trump)} alone does not say which card it was)")


def _any_played(played) -> bool:
    if played is None:
        return False
    if isinstance(played, str):
        return bool(played.replace("/", "").replace(",", "").strip())
    return any(_any_played(x) if isinstance(x, (list, tuple)) else True for x in played)


def observe(hand, trump, seat, players=4, *, bids=None, played=(), hook=False, trump_card=None) -> Observation:
    """The ``wizsim.Observation`` of seat ``seat`` at its decision, from what it saw (module docstring)."""
    heard = parse_bids(bids) or ()
    if advice_phase(heard, seat, players) == "play":
        return _card_phase(hand, trump, seat, players, heard, played, hook, trump_card)
    if _any_played(played):
        raise AdviceError(f"cards were played but only {len(heard)} bids were given: play starts once all "
                          f"{players} players have bid (give every bid, seat 1 first)")
    try:
        q = make_question(hand, trump, seat, players, bids=heard, hook=hook, trump_card=trump_card)
        phase = "bid"
    except AdviceError as err:
        # the one question the bid advisor does not ask: a turned-up Wizard, the dealer yet to name trump
        if not _no_trump_named(trump) or heard:
            raise
        try:
            q = make_question(hand, "S", seat, players, trump_card=trump_card)
        except AdviceError:
            raise err from None
        if not (_is_wizard(q.trump_card) and q.seat == q.players):
            raise
        phase = "trump"
    if q.trump_card is None and not q.last_round:
        raise _need_turn_up(q.trump)
    p, r = q.players, q.r
    if phase == "trump":
        trump_code, legal = None, (0, 1, 2, 3)
    else:
        forbidden = int(forbidden_bid(q.hook, q.seat - 1, p, r, sum(heard)))
        trump_code, legal = q.trump, tuple(b for b in range(r + 1) if b != forbidden)
    state = _state(p, q.seat, q.hand, heard)
    info = RoundInfo(p, r, check_flag(hook, "hook", error=AdviceTypeError), _turn_up(trump_card, q.trump_card, q.hand),
                     trump_code)
    return open_view(info, state, q.seat, phase, (), 0, legal)


def _state(players: int, seat: int, hand, bids) -> RoundState:
    """The kernels' ``RoundState`` of a seat holding ``hand`` after ``bids`` (seat 1 first), nothing played."""
    hands = [0] * players
    hands[seat - 1] = cards_to_mask(hand)
    state = state_arrays(players, hands)
    state.bids[:len(bids)] = bids
    return state


def _card_phase(hand, trump, seat, players, heard, played, hook, trump_card) -> Observation:
    q = make_play_question(hand, trump, seat, players, bids=heard, played=played, hook=hook, trump_card=trump_card)
    p = q.players
    if q.trump_card is None and not q.last_round:
        raise _need_turn_up(q.trump)
    state = _state(p, q.seat, q.hand, q.bids)
    state.seat_played[:], state.voids[:], state.tricks[:] = q.seat_played, q.voids, q.tricks
    state.trick_cards[:q.n_in_trick] = q.trick_cards
    played = tuple((t.seat + 1, t.card) for t in order_of_play(q.played, p, q.trump))
    info = RoundInfo(p, q.r, q.hook, _turn_up(trump_card, q.trump_card, q.hand + q.played), q.trump)
    return open_view(info, state, q.seat, "card", played, q.leader, (int(c) for c in q.legal_cards))


__all__ = ["observe"]
