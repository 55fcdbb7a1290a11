"""Python entry points for simulation: check arguments, size the outputs, call the batch kernels.

``simulate_rounds`` plays independent rounds of one size; ``simulate_games`` plays whole games.
Both return plain numpy arrays in dataclasses; summaries and Parquet writing build on them.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from dataclasses import dataclass, field

import numba
import numpy as np

from wizsim.cards import FULL_DECK_MASK, shorten
from wizsim.config import (
    MAX_ROUND_INDEX,
    ConfigError,
    PlayerError,
    RulesConfig,
    check_count,
    check_flag,
    check_seed,
    n_game_rounds,
)
from wizsim.policies import PolicySlots, make_slots, seat_policies
from wizsim.policies.records import Fixed, Log, Seats
from wizsim.policies.registry import looks_like_player_spec, needs_open_table, seat_name
from wizsim.sim.kernels import BLOCK, GAME_BLOCK, GamesOut, RoundsOut, simulate_games_kernel, simulate_rounds_kernel
from wizsim.sim.round import BID_FREE, TRUMP_BY_RULES, round_scratch
from wizsim.table.players import check_timeout, is_player


@contextlib.contextmanager
def numba_threads(threads: int | None):
    """Run the enclosed kernels on ``threads`` threads (None: all), restoring the previous count."""
    if threads is None:
        yield
        return
    threads = check_count(threads, "threads", 1, numba.config.NUMBA_NUM_THREADS)
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)


CHUNKS_PER_THREAD = 4  # spans a thread takes in turn: on a shared machine a thread held up leaves its later spans to the others


def run_batch(kernel, n: int, block: int, ext, rows) -> None:
    """``rows(kernel, a, b)`` plays rows a..b-1 of a batch of ``n`` with the serial batch ``kernel``
    (``sim.kernels``): contiguous spans of at least ``block`` rows, about ``CHUNKS_PER_THREAD`` per Numba
    thread (``numba_threads``), taken in turn by that many threads (this one and the shared pool's: the
    kernels release the GIL), so that a thread slowed by other work on its core leaves its share to the
    others, as a ``prange`` loop's scheduler does (a fixed span a thread was 45% slower for play advice's
    world weights with the other core busy). Every row depends only on (seed, its index), so the result is
    the same for any split. With more than one span, an empty span first compiles the kernel (or loads it
    from the cache), before any thread would wait for it; one span is one call (advice makes many small ones)."""
    threads = numba.get_num_threads()
    size = max(block, -(-n // (threads * CHUNKS_PER_THREAD)))
    spans = [(a, min(a + size, n)) for a in range(0, n, size)] or [(0, 0)]
    user = ext is not None and ext[1] is not None
    with user_functions_quiet() if user else contextlib.nullcontext():
        try:
            rows(kernel, *(spans[0] if len(spans) == 1 else (0, 0)))
        except numba.core.errors.TypingError as err:
            if not user or ("Only accept returning of array" not in str(err) and "NRT" not in str(err)):
                raise
            raise ConfigError("a jitted player's functions run inside the round kernel without Numba's reference "
                              "counting, so they may not create arrays; decorate those that must with "
                              "@numba.njit(_nrt=True) (slower: see wizsim.jit)") from None
        if len(spans) == 1:
            return
        todo = iter(spans)
        lock = threading.Lock()
        stopped = []  # a span failed, or Ctrl-C: the other threads take no further span

        def drain():
            while not stopped:
                with lock:
                    span = next(todo, None)
                if span is None:
                    return
                try:
                    rows(kernel, *span)
                except BaseException:
                    stopped.append(True)
                    raise

        others = [_span_pool().submit(drain) for _ in range(min(threads, len(spans)) - 1)]
        try:
            drain()
        finally:
            for done in others:
                done.result()


_POOL = None
_POOL_LOCK = threading.Lock()


def _span_pool():
    """The threads ``run_batch`` hands spans to, made once rather than for every call (advice makes many small
    batches, a few a question, and each new pool starts its threads again). Its tasks are single kernel calls that submit nothing, so
    callers on many threads (the server) share it without waiting on each other's tasks. A forked child
    (multiprocessing, a process pool) has none of its parent's threads: it makes its own."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None or _POOL[0] != os.getpid():
            from concurrent.futures import ThreadPoolExecutor

            _POOL = (os.getpid(), ThreadPoolExecutor(max(1, numba.config.NUMBA_NUM_THREADS - 1),
                                                     thread_name_prefix="wizsim-span"))
        return _POOL[1]


@contextlib.contextmanager
def user_functions_quiet():
    """Numba warns that functions passed as arguments (a user's jitted player) are an experimental
    feature each time it types them; wizsim passes them as it documents, so the warning tells the
    user nothing."""
    import warnings

    from numba.core.errors import NumbaExperimentalFeatureWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
        yield


@contextlib.contextmanager
def jitted_player_errors(slots: PolicySlots, where: str):
    """An exception a user's jitted player raises inside the round kernel (or an action it returns that
    the kernel refuses) as a ``PlayerError`` naming the player and the rounds; the kernel cannot say
    which seat and round, so the message says how to find them: the same rounds on the open table
    (``Round.play``) name both."""
    try:
        yield
    except (KeyboardInterrupt, ConfigError, numba.core.errors.NumbaError):
        raise
    except Exception as err:
        if slots.user is None:
            raise
        from wizsim.policies.dispatch import USER
        from wizsim.table.players import describe_failure

        name = next((nm for nm, kind in zip(slots.names, slots.kinds, strict=True) if kind == USER), "?")
        raise PlayerError(f"jitted player {name!r} raised {describe_failure(err)} in one of {where} (the same "
                          f"rounds played with wizsim.Round(...).play name the seat, the decision and the round "
                          f"index)") from err


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not POSIX: let the allocation tell
        return 0


def check_fits(n: int, bytes_each: int, name: str) -> None:
    """Refuse a batch whose result arrays cannot fit in this machine's memory, naming the count
    (rather than a MemoryError, or numpy's "array is too big", from deep inside)."""
    need = n * bytes_each
    total = _physical_memory()
    if need > (total or 2**62):
        raise ConfigError(f"{name}={n:,} needs {need / 1e9:,.0f} GB of result arrays, more than this machine's "
                          f"{total / 1e9:,.0f} GB: simulate it in batches, or as a dataset (wizsim simulate --out)")


def memory_named(name: str):
    """A MemoryError allocating the results (the batch fits the machine, not what is free now)
    becomes a ``ConfigError`` naming the count."""

    def wrap(fn):
        @functools.wraps(fn)
        def checked(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except MemoryError:
                raise ConfigError(f"{name}: not enough free memory for the result arrays; simulate fewer at a "
                                  f"time") from None

        return checked

    return wrap


def one_thread_if(small: bool):
    """One thread for a batch that fits in one block (``run_batch``'s smallest span): nothing to share
    out, and waking other threads can cost more than the work (a time slice on a busy machine)."""
    return numba_threads(1) if small else contextlib.nullcontext()


def _trick_logs(rows: int, tricks: int, players: int):
    """Zeroed trick-log arrays for ``rows`` rounds (or games) of ``tricks`` tricks: the cards in order of
    play (rows, tricks * players) and each trick's leader and winner (rows, tricks), int8."""
    return (np.zeros((rows, tricks * players), np.int8), np.zeros((rows, tricks), np.int8),
            np.zeros((rows, tricks), np.int8))


@dataclass
class RoundBatch:
    """Rounds of one size, in seat order (index 0 = seat 1, the last column is the dealer)."""

    players: int
    r: int
    seed: int
    first_index: int
    policies: list[str]
    hands: np.ndarray  # (n, players) uint64
    turn_up: np.ndarray  # (n,) int8
    trump: np.ndarray  # (n,) int8
    bids: np.ndarray  # (n, players) int8
    tricks: np.ndarray  # (n, players) int8
    scores: np.ndarray  # (n, players) int16
    accepted: np.ndarray  # (n,) bool
    log_cards: np.ndarray | None = None  # (n, r * players) int8, cards in order of play
    log_leader: np.ndarray | None = None  # (n, r) int8, 0-based seat that led each trick
    log_winner: np.ndarray | None = None  # (n, r) int8, 0-based seat that won each trick

    @property
    def n(self) -> int:
        return self.hands.shape[0]

    @property
    def round_index(self) -> np.ndarray:
        return np.arange(self.first_index, self.first_index + self.n, dtype=np.int64)


@memory_named("n_rounds")
def simulate_rounds(players: int, r: int, n_rounds: int, policies="random", *, hook: bool = False,
                    seed: int | None = 0, first_index: int = 0, trick_log: bool = False,
                    threads: int | None = None, slots: PolicySlots | None = None,
                    fixed_hands=None, turn_up_pool=None, fixed_trump: int = TRUMP_BY_RULES,
                    bid_mode=None, fixed_bids=None, decision_timeout: float | None = None) -> RoundBatch:
    """Play rounds ``first_index .. first_index + n_rounds - 1`` of the run ``seed``.

    ``policies`` is a name for every seat or one per seat. The keyword arguments after ``slots``
    fix parts of the round in advance (see ``sim.round``); by default nothing is fixed.
    A user's Python player that fails, or takes longer than ``decision_timeout`` seconds over one
    decision, stops the batch with a ``PlayerError`` naming it (``Round.play``).
    """
    cfg = RulesConfig(players=players, hook=hook)
    players = cfg.players  # a NumPy integer as a Python int
    r = cfg.check_round(r)
    seed = check_seed(seed)
    n_rounds = check_count(n_rounds, "n_rounds", 0, MAX_ROUND_INDEX)
    first_index = check_count(first_index, "first_index", 0, MAX_ROUND_INDEX + 1 - n_rounds)
    trick_log = check_flag(trick_log, "trick_log")
    check_fits(n_rounds, players * 12 + 3 + (r * (players + 2) if trick_log else 0), "n_rounds")
    names = seat_policies(policies, players)
    decision_timeout = check_timeout(decision_timeout)
    if needs_open_table(names):
        return _with_python_players(RoundBatch, players, r, n_rounds, names, cfg.hook, seed, first_index, trick_log,
                                    (slots, fixed_hands, turn_up_pool, fixed_trump != TRUMP_BY_RULES, bid_mode,
                                     fixed_bids), decision_timeout)
    slots = slots or make_slots(names)
    seat_slot = np.array([slots.slot_of(n) for n in names], dtype=np.int8)
    fixed_hands = np.zeros(players, np.uint64) if fixed_hands is None else np.asarray(fixed_hands, np.uint64)
    turn_up_pool = FULL_DECK_MASK if turn_up_pool is None else np.uint64(turn_up_pool)
    bid_mode = np.full(players, BID_FREE, np.int8) if bid_mode is None else np.asarray(bid_mode, np.int8)
    fixed_bids = np.zeros(players, np.int8) if fixed_bids is None else np.asarray(fixed_bids, np.int8)
    n = int(n_rounds)
    p = players
    hands = np.zeros((n, p), np.uint64)
    turn_up = np.zeros(n, np.int8)
    trump = np.zeros(n, np.int8)
    bids = np.zeros((n, p), np.int8)
    tricks = np.zeros((n, p), np.int8)
    scores = np.zeros((n, p), np.int16)
    accepted = np.zeros(n, np.bool_)
    log_cards, log_leader, log_winner = _trick_logs(n if trick_log else 1, r, p)

    seats = Seats(seat_slot, slots.kinds, slots.params, slots.table)
    fixed = Fixed(fixed_hands, turn_up_pool, np.int64(fixed_trump), bid_mode, fixed_bids)

    def rows(kern, a, b):
        li = slice(a, b) if trick_log else slice(0, 1)
        kern(np.uint64(seed), np.int64(first_index + a), (p, r, bool(cfg.hook)), seats, fixed,
             RoundsOut(hands[a:b], turn_up[a:b], trump[a:b], bids[a:b], tricks[a:b], scores[a:b], accepted[a:b]),
             Log(bool(trick_log), log_cards[li], log_leader[li], log_winner[li]), round_scratch.py_func(p), slots.ext)

    with numba_threads(threads), one_thread_if(n <= BLOCK), jitted_player_errors(slots, f"rounds {first_index}.."
                                                                                f"{first_index + n - 1} of seed {seed}"):
        run_batch(simulate_rounds_kernel, n, BLOCK, slots.ext, rows)
    batch = RoundBatch(p, r, seed, first_index, names, hands, turn_up, trump, bids, tricks, scores, accepted)
    if trick_log:
        batch.log_cards, batch.log_leader, batch.log_winner = log_cards, log_leader, log_winner
    return batch


def _check_game_ids(game_ids, n_games: int, games_max: int) -> np.ndarray:
    """``game_ids`` as a 1-D int64 array of ``n_games`` ids in 0..games_max-1, else an error naming it."""
    if isinstance(game_ids, (str, bytes, dict, set)) or not hasattr(game_ids, "__len__"):
        raise ConfigError(f"game_ids must be a list of game ids (whole numbers), got {shorten(repr(game_ids), 40)}")
    try:
        ids = np.asarray(game_ids)
    except (ValueError, TypeError, OverflowError):
        ids = np.asarray([[]], dtype=object)
    if ids.ndim != 1 or (ids.size and ids.dtype.kind not in "iu"):
        raise ConfigError(f"game_ids must be a 1-D list of whole numbers, got {shorten(repr(game_ids), 40)}")
    if ids.size != n_games:
        raise ConfigError(f"game_ids holds {ids.size:,} ids but n_games is {n_games:,}: give one id per game")
    if ids.size and (ids.min() < 0 or ids.max() >= games_max):
        bad = ids.min() if ids.min() < 0 else ids.max()
        raise ConfigError(f"game_ids must be 0..{games_max - 1:,}, got {int(bad)}")
    return ids.astype(np.int64)


@dataclass
class GameBatch:
    """Whole games. Per-round arrays are (n_games, R, players) in seat order; see ``seat_player``."""

    players: int
    seed: int
    game_ids: np.ndarray  # (n,) int64
    player_policies: list[list[str]]  # per game, the policy name of each player 0..players-1
    first_dealer: np.ndarray  # (n,) int8
    hands: np.ndarray
    turn_up: np.ndarray  # (n, R) int8
    trump: np.ndarray  # (n, R) int8
    bids: np.ndarray
    tricks: np.ndarray
    scores: np.ndarray
    log_cards: np.ndarray | None = None
    log_leader: np.ndarray | None = None
    log_winner: np.ndarray | None = None
    _seat_player: np.ndarray | None = field(default=None, repr=False)

    @property
    def n(self) -> int:
        return self.game_ids.shape[0]

    @property
    def rounds_per_game(self) -> int:
        return n_game_rounds(self.players)

    @property
    def seat_player(self) -> np.ndarray:
        """(n, R, players) int8: which player (identity) sat in each seat of each round."""
        if self._seat_player is None:
            k = np.arange(self.rounds_per_game)[None, :, None]
            s = np.arange(self.players)[None, None, :]
            d = self.first_dealer.astype(np.int64)[:, None, None]
            self._seat_player = ((d + k + 1 + s) % self.players).astype(np.int8)
        return self._seat_player

    def by_player(self, arr: np.ndarray) -> np.ndarray:
        """Reorder a (n, R, players) seat-order array into player order."""
        out = np.empty_like(arr)
        np.put_along_axis(out, self.seat_player.astype(np.int64), arr, axis=2)
        return out

    @property
    def totals(self) -> np.ndarray:
        """(n, R, players) running totals by player after each round."""
        return np.cumsum(self.by_player(self.scores).astype(np.int32), axis=1)

    @property
    def final(self) -> np.ndarray:
        """(n, players) final totals by player."""
        return self.totals[:, -1, :]

    @property
    def winners(self) -> np.ndarray:
        """(n, players) bool: the players with the highest final total (ties shared)."""
        final = self.final
        return final == final.max(axis=1, keepdims=True)


@memory_named("n_games")
def simulate_games(players: int, n_games: int, policies="random", *, hook: bool = False, seed: int | None = 0,
                   first_game: int = 0, trick_log: bool = False, threads: int | None = None,
                   game_ids=None, player_policies=None, decision_timeout: float | None = None) -> GameBatch:
    """Play whole games; ``policies`` names each player's policy (one name for all, or one per player).

    ``game_ids`` (default ``first_game .. first_game + n_games - 1``) picks each game's random
    streams; ``player_policies`` (n, players) names policies game by game (tournaments rotate them
    over the same game ids so that every policy meets the same deals in every seat).
    ``decision_timeout``: as for ``simulate_rounds``.
    """
    cfg = RulesConfig(players=players, hook=hook)
    players = cfg.players  # a NumPy integer as a Python int
    seed = check_seed(seed)
    trick_log = check_flag(trick_log, "trick_log")
    decision_timeout = check_timeout(decision_timeout)
    R = cfg.rounds_per_game
    games_max = (MAX_ROUND_INDEX + 1) // R  # round index game_id * R + k stays an int64
    n_games = check_count(n_games, "n_games", 0, games_max)
    if game_ids is None:
        first_game = check_count(first_game, "first_game", 0, games_max - n_games)
        game_ids = np.arange(first_game, first_game + n_games, dtype=np.int64)
    else:
        game_ids = _check_game_ids(game_ids, n_games, games_max)
    game_ids = np.ascontiguousarray(game_ids, dtype=np.int64)  # any other layout would compile anew
    n = game_ids.shape[0]
    check_fits(n, R * (players * 12 + 2) + (R * (R + 1) // 2 * (players + 2) if trick_log else 0), "n_games")
    if player_policies is None:
        per_player = seat_policies(policies, players)
        player_policies = [per_player] * n
    elif isinstance(player_policies, (str, bytes, dict, set)) or not hasattr(player_policies, "__len__") or \
            len(player_policies) != n:
        raise ConfigError(f"player_policies must be one row of {players} policy names per game ({n:,} rows), got "
                          f"{shorten(repr(player_policies), 40)}")
    # Name lookups once per distinct row (one, or a tournament's few rotations), not per game: per
    # game they cost more than playing the game.
    distinct: dict[tuple, int] = {}
    try:
        row_of = np.array([distinct.setdefault(tuple(row), len(distinct)) for row in player_policies],
                          dtype=np.int64)
    except TypeError:  # a row that is not a sequence of names
        raise ConfigError(f"player_policies: each row must be {players} policy names, got "
                          f"{shorten(repr(player_policies), 40)}") from None
    for row in distinct:
        if len(row) != players or not all(isinstance(nm, str) or is_player(nm) for nm in row):
            raise ConfigError(f"player_policies: each row must be {players} policy names, got {shorten(repr(row), 40)}")
    # users' players (objects or FILE.py:NAME specs) by their canonical names, once per distinct row
    named = [[nm if isinstance(nm, str) and not looks_like_player_spec(nm) else seat_name(nm) for nm in row]
             for row in distinct]
    all_names = [name for row in named for name in row] or ["random"]
    if needs_open_table(all_names):
        return _with_python_players(GameBatch, players, None, n, [named[j] for j in row_of], cfg.hook, seed,
                                    game_ids, trick_log, (), decision_timeout)
    slots = make_slots(all_names)
    rows = np.array([[slots.slot_of(nm) for nm in row] for row in named],
                    dtype=np.int8).reshape(len(distinct), players)
    player_slot = np.ascontiguousarray(rows[row_of]) if n else np.zeros((0, players), np.int8)
    p = players
    T = R * (R + 1) // 2
    first_dealer = np.zeros(n, np.int8)
    hands = np.zeros((n, R, p), np.uint64)
    turn_up = np.zeros((n, R), np.int8)
    trump = np.zeros((n, R), np.int8)
    bids = np.zeros((n, R, p), np.int8)
    tricks = np.zeros((n, R, p), np.int8)
    scores = np.zeros((n, R, p), np.int16)
    log_cards, log_leader, log_winner = _trick_logs(n if trick_log else 1, T, p)
    nothing_fixed = Fixed(np.zeros(p, np.uint64), FULL_DECK_MASK, np.int64(TRUMP_BY_RULES), np.full(p, BID_FREE, np.int8),
                          np.zeros(p, np.int8))  # only read

    def rows(kern, a, b):
        li = slice(a, b) if trick_log else slice(0, 1)
        # this span's own scratch: the seats' slots, the game's stream and the round's (round_scratch)
        seats = Seats(np.empty(p, np.int8), slots.kinds, slots.params, slots.table)
        scratch = (np.empty(1, np.uint64), round_scratch.py_func(p))
        kern(np.uint64(seed), game_ids[a:b], bool(cfg.hook), player_slot[a:b], seats, nothing_fixed, scratch,
             GamesOut(first_dealer[a:b], hands[a:b], turn_up[a:b], trump[a:b], bids[a:b], tricks[a:b], scores[a:b]),
             Log(bool(trick_log), log_cards[li], log_leader[li], log_winner[li]), slots.ext)

    where = f"games {game_ids.min()}..{game_ids.max()} of seed {seed}" if n else ""
    with numba_threads(threads), one_thread_if(n <= GAME_BLOCK), jitted_player_errors(slots, where):
        run_batch(simulate_games_kernel, n, GAME_BLOCK, slots.ext, rows)
    batch = GameBatch(p, seed, game_ids, [list(r) for r in player_policies], first_dealer, hands, turn_up, trump,
                      bids, tricks, scores)
    if trick_log:
        batch.log_cards, batch.log_leader, batch.log_winner = log_cards, log_leader, log_winner
    return batch


def _with_python_players(kind, players, r, n, names, hook, seed, first, trick_log, fixed, decision_timeout):
    """A batch with users' Python players seated: the open table's loop fills the kernels' arrays."""
    from wizsim.table.batch import python_games, python_rounds

    if any(x is not None and x is not False for x in fixed):
        raise ConfigError("fixing hands, trump or bids in advance is for wizsim's own policies, not Python players")
    p = players
    if kind is RoundBatch:
        batch = RoundBatch(p, r, seed, first, names, np.zeros((n, p), np.uint64), np.zeros(n, np.int8),
                           np.zeros(n, np.int8), np.zeros((n, p), np.int8), np.zeros((n, p), np.int8),
                           np.zeros((n, p), np.int16), np.zeros(n, np.bool_))
        if trick_log:
            batch.log_cards, batch.log_leader, batch.log_winner = _trick_logs(n, r, p)
        python_rounds(batch, hook, trick_log, decision_timeout)
        return batch
    R = n_game_rounds(p)
    T = R * (R + 1) // 2
    batch = GameBatch(p, seed, first, names, np.zeros(n, np.int8), np.zeros((n, R, p), np.uint64),
                      np.zeros((n, R), np.int8), np.zeros((n, R), np.int8), np.zeros((n, R, p), np.int8),
                      np.zeros((n, R, p), np.int8), np.zeros((n, R, p), np.int16))
    if trick_log:
        batch.log_cards, batch.log_leader, batch.log_winner = _trick_logs(n, T, p)
    python_games(batch, hook, trick_log, decision_timeout)
    return batch
