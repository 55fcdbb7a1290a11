"""Players: anything with ``trump(obs)``, ``bid(obs)`` and ``card(obs)`` (each an ``Observation`` in,
a suit code, a bid or a card id out). ``player(name)`` gives wizsim's own policies as such objects; they
decide through the very kernels the round kernel runs (``policies.dispatch``), from the observation
alone.

A built-in player draws from its own random stream when asked directly. At a ``Round``'s or ``Game``'s
own ``play`` it draws from the round's play stream instead, in the order the round kernel does, so a
table of built-in players stepped through the public API plays exactly the rounds ``simulate_rounds``
and ``simulate_games`` play with the same seed.
"""

from __future__ import annotations

import importlib
import importlib.util
import queue
import secrets
import sys
import threading
from pathlib import Path

import numpy as np

from wizsim.bits import bit
from wizsim.config import ConfigError, PlayerError, check_seed
from wizsim.deal.kernels import PLAY_STREAM, stream_key
from wizsim.identity import file_identity, jitted_identity, module_identity, object_identity
from wizsim.policies.dispatch import choose_bid, choose_card, choose_trump
from wizsim.policies.observation import Obs
from wizsim.policies.registry import check_policy, make_slots
from wizsim.policies.rollout import trick_status
from wizsim.rules.kernels import forbidden_bid, legal_mask

DECISIONS = ("trump", "bid", "card")


def mask_of(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return np.uint64(m)


def kernel_view(obs) -> Obs:
    """The observation record the kernels' policies read (``policies.observation.Obs``), rebuilt from what
    ``obs`` (the open table's ``Observation``) shows: 0-based seats, masks, arrays."""
    p = obs.players
    bids = np.array([-1 if b is None else b for b in obs.bids], np.int8)
    seat_played = np.zeros(p, np.uint64)
    for s, c in obs.played:
        seat_played[s - 1] |= np.uint64(bit(c))
    trick = np.full(p, -1, np.int8)
    trick[:len(obs.trick)] = obs.trick
    voids = np.array([sum(1 << k for k in v) for v in obs.voids], np.int8)
    trump = -1 if obs.trump is None or obs.phase == "trump" else obs.trump
    led, _, win_pos = trick_status(trick, np.int64(len(obs.trick)), np.int64(trump))
    hand = mask_of(obs.hand)
    seat, r, hook = obs.seat - 1, obs.r, bool(obs.hook)
    forbidden = -1
    if obs.phase == "bid":
        forbidden = forbidden_bid(hook, seat, p, r, int(sum(b for b in obs.bids if b is not None)))
    legal = np.uint64(legal_mask(hand, led)) if obs.phase == "card" else np.uint64(0)
    return Obs(np.int64(seat), np.int64(p), np.int64(r), hook, hand, legal, np.int64(forbidden),
               np.int64(obs.turn_up), np.int64(trump), bids, np.array(obs.tricks, np.int8), seat_played,
               mask_of(c for _, c in obs.played), trick, np.int64(len(obs.trick)), np.int64(led), np.int64(win_pos),
               voids)


class _Seated:
    """What wizsim's player objects share: a random stream of their own (seeded, or fresh) and the three
    decisions answered by ``decide(obs, rng)``."""

    def _stream(self, seed: int | None) -> None:
        seed = secrets.randbits(63) if seed is None else check_seed(seed)
        self._rng = np.array([stream_key(np.uint64(seed), np.int64(0), PLAY_STREAM)], np.uint64)

    def trump(self, obs) -> int:
        return self.decide(obs, self._rng)

    def bid(self, obs) -> int:
        return self.decide(obs, self._rng)

    def card(self, obs) -> int:
        return self.decide(obs, self._rng)


class Player(_Seated):
    """One of wizsim's policies as a player object (``wizsim.player(name)``)."""

    def __init__(self, name: str, seed: int | None = None):
        self.name = check_policy(name)
        slots = make_slots([self.name])
        self._kind, self._params, self._table = slots.kinds[0], slots.params[0], slots.table
        # None: compiled without the search policy's code (``dispatch.kernel_ext``, which says which play-outs)
        self._search = (slots.ext or (None, None))[0]
        self._stream(seed)

    def __repr__(self) -> str:
        return f"wizsim.player({self.name!r})"

    def decide(self, obs, rng: np.ndarray) -> int:
        """The decision ``obs.phase`` asks for, drawing from the stream ``rng`` ((1,) uint64, advanced)."""
        v = kernel_view(obs)
        search = self._search
        if obs.phase == "trump":
            return int(choose_trump(self._kind, self._params, self._table, v, rng, search, None))
        if obs.phase == "bid":
            return int(choose_bid(self._kind, self._params, self._table, v, rng, search, None))
        if obs.phase == "card":
            return int(choose_card(self._kind, self._params, self._table, v, rng, search, None))
        raise ValueError(f"seat {obs.seat} has no decision to make: the phase is {obs.phase!r}")


class JitPlayer(_Seated):
    """A user's player written as Numba-jitted functions over the observation record (``wizsim.jit``):
    ``jit_functions`` = (trump, bid, card), each called as ``f(obs, rng)`` with ``obs`` a
    ``policies.observation.Obs`` and ``rng`` a (1,) uint64 random stream. Seated in ``simulate_rounds``,
    ``simulate_games`` or a tournament it runs inside the round kernel; on the open table it decides
    through the same functions, drawing from the round's play stream as a built-in player does, so both
    play the same rounds."""

    cost = 1.0  # in heuristic card plays, for run-time estimates (the advisor's budget)

    def __init__(self, name: str, trump, bid, card, seed: int | None = None):
        self.name = name
        self.jit_functions = (trump, bid, card)
        self._stream(seed)

    def __repr__(self) -> str:
        return f"wizsim.jit_player({self.name!r})"

    def decide(self, obs, rng: np.ndarray) -> int:
        """The decision ``obs.phase`` asks for, drawing from the stream ``rng`` ((1,) uint64, advanced)."""
        if obs.phase not in DECISIONS:
            raise ValueError(f"seat {obs.seat} has no decision to make: the phase is {obs.phase!r}")
        import warnings

        from numba.core.errors import NumbaExperimentalFeatureWarning

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
            return int(self.jit_functions[DECISIONS.index(obs.phase)](kernel_view(obs), rng))


def player(name: str, *, seed: int | None = None) -> Player:
    """wizsim's policy ``name`` (``"heuristic"``, ``"search:worlds=64"``, ...) as a player object with
    ``.trump(obs)``, ``.bid(obs)`` and ``.card(obs)``. ``seed`` fixes its own random stream."""
    return Player(name, seed)


def is_player(obj) -> bool:
    return not isinstance(obj, str) and all(callable(getattr(obj, d, None)) for d in DECISIONS)


def player_name(obj) -> str:
    """A player's canonical name: a built-in's policy name, else its ``name`` attribute, else
    ``module:Class``."""
    if isinstance(obj, (Player, JitPlayer)):
        return obj.name
    name = getattr(obj, "name", None)
    if isinstance(name, str) and name.strip():
        return name.strip()
    cls = type(obj)
    return f"{cls.__module__}:{cls.__qualname__}"


def register_player(item) -> str:
    """Seat a user's player (an object, or a ``FILE.py:NAME`` / ``package.module:NAME`` spec that loads one)
    for this process, with its identity (``wizsim.identity``); returns its canonical name (a spec names
    itself; an object its ``name`` attribute, else ``module:Class``). A later player under the same name
    takes the earlier one's place."""
    from wizsim.policies.registry import POLICIES, USER_IDENTITIES, USER_PLAYERS

    if isinstance(item, str):
        name = item.strip()
        if name not in USER_PLAYERS or _file_changed(name, USER_IDENTITIES.get(name)):
            USER_PLAYERS[name], USER_IDENTITIES[name] = load_player_identity(name)
        return name
    if isinstance(item, Player):
        return item.name
    if isinstance(item, JitPlayer):
        USER_PLAYERS[item.name] = item
        USER_IDENTITIES[item.name] = jitted_identity(item.name, item.jit_functions)
        return item.name
    if not is_player(item):
        raise ConfigError(f"a player needs methods trump(obs), bid(obs) and card(obs); {type(item).__name__} "
                          f"has not all three")
    name = player_name(item)
    if name.split(":")[0].strip().lower() in POLICIES:
        raise ConfigError(f"a player's name must not be a built-in policy's, got {name!r}")
    USER_PLAYERS[name] = item
    USER_IDENTITIES[name] = object_identity(name)
    return name


def _file_changed(spec: str, identity: dict | None) -> bool:
    """Whether the file of a ``FILE.py:NAME`` player seated earlier in this process now holds other bytes
    (edited, or another folder's file of the same name): it is then loaded again, so that what plays
    is what the run records."""
    where = spec.rpartition(":")[0]
    if not where.endswith(".py") or not isinstance(identity, dict) or identity.get("kind") != "file":
        return False
    try:
        return file_identity(spec, Path(where).read_bytes()) != identity
    except OSError:
        return False  # gone since: the loaded player plays on, as recorded


def seated(name: str, seed: int | None = None):
    """The player object behind a canonical seat name (``registry.seat_name``)."""
    from wizsim.policies.registry import USER_PLAYERS

    return USER_PLAYERS[name] if name in USER_PLAYERS else Player(name, seed)


def describe_failure(err: BaseException) -> str:
    """An exception in a few words: its type and, when it says one, its message."""
    text = str(err).strip().splitlines()[0] if str(err).strip() else ""
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


# FILE.py players' modules by resolved path: (module, the identity of the bytes it was compiled from)
_FILE_MODULES: dict[str, tuple[object, str]] = {}


def _exec_file(path: Path):
    """The module of a player's file, compiled from the very bytes whose digest identifies it (so the
    identity is the code that runs, even if the file changes while it loads); once per process."""
    name = f"wizsim_user_{abs(hash(str(path)))}"
    source = path.read_bytes()
    if name in sys.modules and _FILE_MODULES.get(str(path), (None, None))[1] == source:
        return _FILE_MODULES[str(path)]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        exec(compile(source, str(path), "exec"), module.__dict__)
    except BaseException:
        sys.modules.pop(name, None)  # a half-run module must not pass for a loaded one next time
        raise
    _FILE_MODULES[str(path)] = (module, source)
    return module, source


def load_player(spec: str):
    """A user's player from ``path/to/file.py:Name`` or ``package.module:Name``: ``Name`` is a class
    (called with no arguments) or an object with the three methods. ``PlayerError`` (a ``ConfigError``)
    naming the spec otherwise, a failure of the user's code (``SystemExit`` included) as its cause."""
    return load_player_identity(spec)[0]


def load_player_identity(spec: str):
    """``load_player(spec)`` and the player's identity (``wizsim.identity``)."""
    where, sep, attr = spec.rpartition(":")
    if not sep or not where or not attr.isidentifier():
        raise ConfigError(f"a player must be FILE.py:NAME or package.module:NAME, got {spec!r}")
    if where.endswith(".py"):
        path = Path(where).resolve()
        if not path.is_file():
            raise ConfigError(f"player {spec!r}: no file {where}")
    try:
        if where.endswith(".py"):
            module, source = _exec_file(path)
            identity = file_identity(spec, source)
        else:
            module = importlib.import_module(where)
            identity = module_identity(spec, module)
    except KeyboardInterrupt:  # a real Ctrl-C stops the command as anywhere else
        raise
    except BaseException as err:  # the user's module failed to import (SystemExit too): say which and why
        raise PlayerError(f"player {spec!r}: cannot load {where}: {describe_failure(err)}") from err
    obj = getattr(module, attr, None)
    if obj is None:
        raise ConfigError(f"player {spec!r}: {where} has no {attr}")
    if isinstance(obj, type):
        try:
            obj = obj()
        except KeyboardInterrupt:
            raise
        except BaseException as err:
            raise PlayerError(f"player {spec!r}: {attr}() failed: {describe_failure(err)}") from err
    if not is_player(obj):
        raise ConfigError(f"player {spec!r}: {attr} needs methods trump(obs), bid(obs) and card(obs)")
    return obj, identity


class DecisionTimeout(TimeoutError):
    """A user's decision ran past its time limit (``ask``); a TimeoutError the player raises is not one."""


class _DecisionThread:
    """A daemon thread that makes a user's decisions for one calling thread, so that the caller can stop
    waiting after a time limit.

    Why a thread and not an alarm: ``signal.alarm``/``setitimer`` work only in the main thread, and the
    command runs its work in a worker thread (``cli.run_interruptibly``, a Dask worker's threads); an
    alarm would also replace the command's own signal handling. A thread serves any caller. A decision
    past its limit is abandoned, not killed (Python cannot stop a thread): that thread stays blocked
    in the player's code, as a daemon that does not keep the process alive, and a new one serves the
    next decisions. The cost is a hand-over per decision (tens of microseconds), paid only with a limit.
    """

    def __init__(self):
        self._jobs = None

    def _start(self):
        jobs = queue.SimpleQueue()

        def serve():
            while True:
                fn, obs, box, done = jobs.get()
                try:
                    box["result"] = fn(obs)
                except BaseException as err:  # handed to the caller, which decides what it means
                    box["error"] = err
                finally:
                    done.set()

        threading.Thread(target=serve, name="wizsim-decision", daemon=True).start()
        self._jobs = jobs

    def run(self, fn, obs, timeout: float):
        """``fn(obs)``; ``DecisionTimeout`` after ``timeout`` seconds (the thread is then abandoned)."""
        if self._jobs is None:
            self._start()
        box, done = {}, threading.Event()
        self._jobs.put((fn, obs, box, done))
        if not done.wait(timeout):
            self._jobs = None  # the old thread is stuck in the player's code: leave it there
            raise DecisionTimeout(f"no answer within {timeout:g} s")
        if "error" in box:
            raise box["error"]
        return box["result"]


_DECIDERS = threading.local()


def check_timeout(decision_timeout):
    """``decision_timeout``: None (no limit) or seconds > 0, else a ``ConfigError`` naming it."""
    if decision_timeout is None:
        return None
    if isinstance(decision_timeout, bool) or not isinstance(decision_timeout, (int, float, np.integer, np.floating)) \
            or not 0 < float(decision_timeout) < float("inf"):
        raise ConfigError(f"decision_timeout must be a number of seconds above 0 (or None: no limit), got "
                          f"{decision_timeout!r:.40}")
    return float(decision_timeout)


def ask(who, phase: str, obs, timeout: float | None):
    """A user's player's decision ``phase`` on ``obs``, within ``timeout`` seconds (None: no limit).
    Any exception of the player's (``SystemExit`` included) comes out as it is; a real Ctrl-C
    (``KeyboardInterrupt``) too. The limit's breach is a ``DecisionTimeout``."""
    fn = getattr(who, phase)
    if timeout is None:
        return fn(obs)
    decider = getattr(_DECIDERS, "decider", None)
    if decider is None:
        decider = _DECIDERS.decider = _DecisionThread()
    return decider.run(fn, obs, timeout)


def display_name(who) -> str:
    """The name a user's player is known by: the name it was seated under (a spec as given), else its own."""
    from wizsim.policies.registry import USER_PLAYERS

    return next((name for name, obj in USER_PLAYERS.items() if obj is who), None) or player_name(who)


def as_player(item, seed: int | None = None):
    """A player object from a policy name, a ``FILE.py:NAME`` / ``module:NAME`` spec, or a player object."""
    if is_player(item):
        return item
    if isinstance(item, str):
        from wizsim.policies.registry import seat_name

        return seated(seat_name(item), seed)
    raise ConfigError(f"a player must be a policy name or an object with trump, bid and card methods, got "
                      f"{type(item).__name__}")


__all__ = ["DecisionTimeout", "JitPlayer", "Player", "as_player", "ask", "check_timeout", "describe_failure", "display_name", "is_player", "kernel_view",
           "load_player", "load_player_identity", "player", "player_name", "register_player", "seated"]
