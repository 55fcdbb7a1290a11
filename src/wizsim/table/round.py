"""A Wizard round anyone can step: the public round state of the open table (docs/guide/players.md, "The open table").

``Round`` deals as the round kernel deals (``deal.kernels.deal_round`` on the stream of (seed, index)),
keeps the state in the kernel's own arrays and moves it with the kernel's own bookkeeping
(``policies.rollout.play_card``/``close_trick``), so the rules are the engine's, not a second copy.
Seats are 1..players (seat 1 bids first and leads trick one, seat ``players`` deals); internally 0-based.
"""

from __future__ import annotations

import copy

import numpy as np

from wizsim.bits import bit
from wizsim.cards import FULL_DECK_MASK, N_CARDS, card_ids, format_card
from wizsim.config import ConfigError, PlayerError, check_count, check_flag, check_seed, n_game_rounds
from wizsim.deal.kernels import DEAL_STREAM, PLAY_STREAM, WORLD_STREAM, deal_round, stream_key
from wizsim.policies.records import RoundInfo, RoundState
from wizsim.policies.rollout import close_trick, play_card
from wizsim.rules.kernels import (
    DEALER_NAMES,
    LED_NONE,
    forbidden_bid,
    is_last_round,
    legal_mask,
    score_round,
    trump_of_turn_up,
)
from wizsim.table.observation import Observation, open_view
from wizsim.table.observation import card_list as _ids
from wizsim.table.players import (
    DecisionTimeout,
    JitPlayer,
    Player,
    as_player,
    ask,
    check_timeout,
    describe_failure,
    display_name,
    is_player,
)

TRUMP, BID, CARD, OVER = "trump", "bid", "card", "over"


def _check_action(action, what: str) -> int:
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"{what} must be a whole number, got {action!r}")
    return int(action)


class Round:
    """One round in progress. ``hands`` (one list of cards per seat, text or ids) and ``turn_up`` fix the
    deal; otherwise it is dealt from ``seed`` (None: a fresh seed) as round ``index`` of that run, the
    very deal ``simulate_rounds(players, r, 1, ..., seed=seed, first_index=index)`` plays.
    ``dealer_policy`` (a policy name or player) names the trump on a turned-up Wizard at once, so the
    round starts at the bidding; without it the round starts in the ``"trump"`` phase."""

    def __init__(self, players: int, r: int, *, seed: int | None = None, hands=None, turn_up=None, hook: bool = False,
                 dealer_policy=None, index: int = 0):
        players = check_count(players, "players", 3, 6)
        r = check_count(r, "r", 1, n_game_rounds(players))
        self.players, self.r, self.hook = players, r, check_flag(hook, "hook")
        if dealer_policy is not None:  # checked whether or not a Wizard turns up: a bad name is a bad name
            try:
                dealer_policy = as_player(dealer_policy)
            except (ValueError, TypeError) as err:
                raise ConfigError(f"dealer_policy: {err}") from None
        self.seed = check_seed(seed)
        self.index = check_count(index, "index", 0, 2**62)
        fixed = np.zeros(players, np.uint64)
        taken: list[int] = []
        if hands is not None:
            if isinstance(hands, (str, bytes)) or len(hands) != players:
                raise ConfigError(f"hands must be one list of cards per seat ({players}), got {hands!r:.60}")
            for s, h in enumerate(hands):
                ids = card_ids(h, f"hands[{s + 1}]", taken=taken)
                if len(ids) != r:
                    raise ConfigError(f"hands[{s + 1}] must hold {r} cards, got {len(ids)}")
                taken += [int(c) for c in ids]
                fixed[s] = np.uint64(sum(1 << int(c) for c in ids))
        pool = FULL_DECK_MASK
        if turn_up is not None and not (isinstance(turn_up, (int, np.integer)) and turn_up == -1):
            if is_last_round(players, r):
                raise ConfigError(f"turn_up: every card is dealt in round {r} of {players} players, none is turned up")
            (tu,) = card_ids([turn_up] if not isinstance(turn_up, str) else turn_up, "turn_up", taken=taken)
            pool = np.uint64(bit(int(tu)))
        elif turn_up is not None and not is_last_round(players, r):
            raise ConfigError("turn_up -1 (none) only in the last round, when every card is dealt")
        self._dealt = np.zeros(players, np.uint64)
        rng = np.array([stream_key(np.uint64(self.seed), np.int64(self.index), DEAL_STREAM)], np.uint64)
        self.turn_up = int(deal_round(rng, players, r, fixed, pool, self._dealt))
        self._rng = np.array([stream_key(np.uint64(self.seed), np.int64(self.index), PLAY_STREAM)], np.uint64)
        self._live = self._dealt.copy()
        self._bids = np.full(players, -1, np.int8)
        self._tricks = np.zeros(players, np.int8)
        self._seat_played = np.zeros(players, np.uint64)
        self._voids = np.zeros(players, np.int8)
        self._trick_cards = np.full(players, -1, np.int8)
        self._n, self._leader, self._led, self._best, self._win_pos = 0, 0, LED_NONE, -1, -1
        self._order: list[tuple[int, int]] = []
        self._winners: list[int] = []
        t = int(trump_of_turn_up(self.turn_up))
        self.trump: int | None = None if t == DEALER_NAMES else t
        self.phase = TRUMP if self.trump is None else BID
        if self.phase == TRUMP and dealer_policy is not None:
            self._step(dealer_policy)

    # -- what anyone may ask ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat (1..players) whose decision it is; None when the round is over."""
        if self.phase == TRUMP:
            return self.players
        if self.phase == BID:
            return int(np.count_nonzero(self._bids >= 0)) + 1
        if self.phase == CARD:
            return (self._leader + self._n) % self.players + 1
        return None

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        """Suit codes 0..3 (trump), bids 0..r without the hook's forbidden one, or card ids."""
        if self.phase == TRUMP:
            return [0, 1, 2, 3]
        if self.phase == BID:
            s = self.current_player - 1
            total = int(self._bids[self._bids >= 0].sum())
            forbidden = forbidden_bid(self.hook, s, self.players, self.r, total)
            return [b for b in range(self.r + 1) if b != forbidden]
        if self.phase == CARD:
            s = self.current_player - 1
            return _ids(int(legal_mask(self._live[s], self._led)))
        return []

    def _is_legal(self, a: int) -> bool:
        if self.phase == CARD:  # a mask test rather than the list: the hot path of a Python step loop
            return 0 <= a < N_CARDS and bool(int(legal_mask(self._live[self.current_player - 1], self._led)) >> a & 1)
        return a in self.legal_actions()

    def apply(self, action) -> None:
        """Take the current decision: a suit code, a bid or a card id. ``ValueError`` naming it when illegal."""
        if self.phase == OVER:
            raise ValueError("the round is over: no action is legal")
        seat = self.current_player
        what = {TRUMP: "the trump suit", BID: "a bid", CARD: "a card"}[self.phase]
        a = _check_action(action, f"{what} for seat {seat}")
        if not self._is_legal(a):
            legal = self.legal_actions()
            shown = (lambda x: format_card(x) if 0 <= x < N_CARDS else str(x)) if self.phase == CARD else str
            raise ValueError(f"{what} {shown(a)} is not legal for seat {seat} now: legal are "
                             f"{', '.join(shown(x) for x in legal)}")
        s = seat - 1
        if self.phase == TRUMP:
            self.trump = a
            self.phase = BID
        elif self.phase == BID:
            self._bids[s] = a
            if s == self.players - 1:
                self.phase = CARD
        else:
            state = RoundState(self._live, self._seat_played, self._voids, self._trick_cards, self._bids, self._tricks)
            self._led, self._best, self._win_pos = play_card(state, self.trump, s, a, self._n, self._led, self._best,
                                                             self._win_pos)
            self._order.append((seat, a))
            self._n += 1
            if self._n == self.players:
                self._leader = int(close_trick(self.players, self._leader, self._win_pos, self._tricks))
                self._winners.append(self._leader + 1)
                self._n, self._led, self._best, self._win_pos = 0, LED_NONE, -1, -1
                if len(self._order) == self.players * self.r:
                    self.phase = OVER

    def observation(self, seat: int) -> Observation:
        """What seat ``seat`` (1..players) may see now."""
        seat = check_count(seat, "seat", 1, self.players)
        info = RoundInfo(self.players, self.r, self.hook, self.turn_up, self.trump)
        state = RoundState(self._live, self._seat_played, self._voids, self._trick_cards, self._bids, self._tricks)
        return open_view(info, state, seat, self.phase, self._order, self._leader,
                         self.legal_actions() if self.current_player == seat else ())

    def information_state(self, seat: int) -> str:
        return self.observation(seat).information_state()

    def scores(self) -> tuple[int, ...]:
        """Each seat's score for the round (docs/rules.md); 0 for every seat until the round is over."""
        if self.phase != OVER:
            return (0,) * self.players
        return tuple(int(score_round(self._bids[s], self._tricks[s])) for s in range(self.players))

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        """The hands as dealt, by seat: the whole truth, for the table's owner (players see ``observation``)."""
        return tuple(tuple(_ids(int(h))) for h in self._dealt)

    @property
    def bids(self) -> tuple[int | None, ...]:
        return tuple(None if b < 0 else int(b) for b in self._bids)

    @property
    def tricks(self) -> tuple[int, ...]:
        return tuple(int(t) for t in self._tricks)

    @property
    def played(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._order)

    @property
    def trick_winners(self) -> tuple[int, ...]:
        """The seat that took each complete trick, in order."""
        return tuple(self._winners)

    def clone(self) -> Round:
        return copy.deepcopy(self)

    def resample(self, seat: int, rng=None) -> Round:
        """A copy of this round whose hidden cards are redealt at random, consistent with everything seat
        ``seat`` knows: its own hand, the turned-up card, the cards played and by whom, the voids shown
        and how many cards each seat holds (the world sampler of play advice, ``policies.worlds``).
        The bids are not read as evidence here: every such deal is equally likely. ``rng``: a NumPy
        Generator, an int seed or None."""
        from wizsim.policies.records import PlayState
        from wizsim.policies.worlds import FAILED, HARD_TRIES, draw_world

        seat = check_count(seat, "seat", 1, self.players)
        if not isinstance(rng, np.random.Generator):
            rng = np.random.default_rng(rng)
        state = PlayState(players=self.players, r=self.r, hook=self.hook, trump=-1 if self.trump is None else self.trump,
                          turn_up_pool=0 if self.turn_up < 0 else bit(self.turn_up), me=seat - 1,
                          hand=int(self._live[seat - 1]), bids=tuple(int(b) for b in self._bids),
                          seat_played=tuple(int(m) for m in self._seat_played), tricks=tuple(int(t) for t in self._tricks),
                          leader=self._leader, trick_cards=tuple(int(c) for c in self._trick_cards[:self._n]),
                          voids=tuple(int(v) for v in self._voids))
        a = state.kernel_args()
        stream = np.array([stream_key(np.uint64(int(rng.integers(0, 2**63))), np.int64(0), WORLD_STREAM)], np.uint64)
        world = np.zeros(self.players, np.uint64)
        tu = draw_world(stream, a["players"], a["me"], a["hand"], a["unseen"], a["needs"], a["voids"], a["pool"],
                        np.int64(HARD_TRIES), world)
        if tu == FAILED:  # the facts come from a real round, so a deal exists; the sampler gives up only by bad luck
            raise RuntimeError("the world sampler found no deal consistent with the round: please report it")
        out = self.clone()
        out._live = world.copy()
        out._dealt = world | self._seat_played
        out._rng = np.array([stream_key(np.uint64(int(rng.integers(0, 2**63))), np.int64(0), PLAY_STREAM)], np.uint64)
        return out

    # -- playing it out ------------------------------------------------------------------------------
    def _step(self, who, timeout: float | None = None) -> None:
        obs = self.observation(self.current_player)
        if isinstance(who, Player):  # the round's own stream: the draws the round kernel makes
            self.apply(who.decide(obs, self._rng))
            return
        # a user's player: whatever goes wrong in its code is one error naming it, the seat, the
        # decision and the round that replays it (a real Ctrl-C, KeyboardInterrupt, stops as ever)
        try:
            if isinstance(who, JitPlayer):
                action = who.decide(obs, self._rng)
            else:
                action = ask(who, self.phase, obs, timeout)
        except KeyboardInterrupt:
            raise
        except DecisionTimeout as err:
            raise self._player_error(who, f"took more than {timeout:g} s (the decision time limit)") from err
        except BaseException as err:
            raise self._player_error(who, f"raised {describe_failure(err)}") from err
        try:
            self.apply(action)
        except ValueError as err:
            raise self._player_error(who, f"answered: {err}") from err

    def _player_error(self, who, what: str) -> PlayerError:
        seat = self.current_player
        return PlayerError(f"player {display_name(who)!r} at seat {seat}, deciding its {self.phase}, {what} "
                           f"(to replay: seed {self.seed}, round index {self.index}: "
                           f"wizsim.Round({self.players}, {self.r}, seed={self.seed}, index={self.index}))")

    def play(self, players, *, decision_timeout: float | None = None) -> tuple[int, ...]:
        """Play the round to its end with one player per seat (policy names or player objects, seat 1
        first); returns the scores. Built-in players draw from the round's play stream, so a table of
        them plays exactly the round ``simulate_rounds`` plays for the same seed and index.

        A user's player that raises (``SystemExit`` included), answers an illegal action or, with
        ``decision_timeout`` (seconds), takes longer than that over one decision stops the round with
        a ``PlayerError`` naming it, its seat, the decision and the round; the original is its cause."""
        seated = seat_players(players, self.players)
        timeout = check_timeout(decision_timeout)
        while self.phase != OVER:
            self._step(seated[self.current_player - 1], timeout)
        return self.scores()

    def __repr__(self) -> str:
        turn = "none" if self.turn_up < 0 else format_card(self.turn_up)
        return (f"Round(players={self.players}, r={self.r}, turn_up={turn}, phase={self.phase!r}, "
                f"bids={list(self.bids)}, tricks={list(self.tricks)})")


def seat_players(players, n: int) -> list:
    if isinstance(players, str) or is_player(players):
        players = [players] * n
    players = list(players)
    if len(players) != n:
        raise ConfigError(f"give {n} players, one per seat, got {len(players)}")
    return [as_player(p) for p in players]

