"""The policy registry: every policy by name (and, from ``policies.players``, the users' Python players seated in this process), what its kernel needs, and the names' grammar.

A policy name may carry parameters after colons (docs/guide/tournaments.md, "Policies"): ``NAME[:VALUE|:KEY=VALUE]...``.
Bare values fill the entry's parameters in declared order, ``key=value`` sets one by name, e.g.
``heuristic:0.25`` or ``heuristic:bid_shift=0.25``. The *canonical* name is the lower-case name
followed by ``:key=value`` for every parameter that differs from its default, in declared order
(``heuristic`` at its defaults is just ``heuristic``). The canonical name is what runs record
(summaries, dataset metadata and the ``policy`` column, tournament tables), and two spellings of one
configuration share a kernel slot.

Adding a policy: its kernel module (``policies/<name>.py`` with its twin in ``policies/reference.py``),
a kind constant and a branch per decision in ``dispatch``, and one ``PolicyEntry`` in ``POLICIES``:
its kind, its ``Param``s (name, default, valid range; each one column of the slot's params row), whether
its bids and trump choice ignore the hand (``hand_blind``: the advisor then does not condition on
them), whether its card play draws nothing at random (``deterministic_play``: play advice may then
enumerate deals exactly), and the name of the shared ``table`` it reads (``TABLES``), if any.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim.cards import shorten
from wizsim.config import ConfigError
from wizsim.policies.dispatch import HEURISTIC, KINDS, NET, RANDOM, SEARCH, USER, kernel_ext
from wizsim.policies.players import (  # the users' players seated in this process (re-exported: read here)
    USER_IDENTITIES,
    USER_PLAYER_COST,
    USER_PLAYERS,
    is_player,
    is_user_player,
    jit_functions,
    needs_open_table,  # noqa: F401 - read here by the driver
    register_player,
)

N_PARAMS = 8  # columns of a slot's params row
NET_COST = 60.0  # one card play of ``net`` in heuristic card plays (benchmarks/net.py measures it)
DEFAULT_POLICY = "heuristic"  # simulate's and the datasets' policy when none is named (random measures nothing)


def _either(choices) -> str:
    """``a or b``, ``a, b or c``."""
    return choices[0] if len(choices) == 1 else ", ".join(choices[:-1]) + " or " + choices[-1]


@dataclass(frozen=True)
class Param:
    """A policy parameter: its name, default and valid range, and its column in the params row."""

    name: str
    default: float
    low: float
    high: float
    column: int
    integer: bool = False
    # above this value the policy's card play draws at random (``PolicySpec.deterministic_play``); None: never
    random_above: float | None = None
    # a parameter that names one of these words (stored as its index): ``search:rollout=net``
    choices: tuple[str, ...] | None = None
    # per choice: the shared table it needs (None: the entry's) and its cost factor (``PolicySpec.cost_at``)
    choice_tables: tuple[str | None, ...] | None = None
    choice_costs: tuple[float, ...] | None = None

    def text(self, value: float) -> str:
        """``value`` as the name spells it."""
        return self.choices[int(value)] if self.choices is not None else _fmt(value)

    def parse(self, text: str, policy: str) -> float:
        if self.choices is not None:
            if text not in self.choices:
                raise ConfigError(f"policy {policy!r}: {self.name} must be {_either(self.choices)}, got {text!r}")
            return float(self.choices.index(text))
        try:
            value = int(text) if self.integer else float(text)
        except ValueError:
            kind = "a whole number" if self.integer else "a number"
            raise ConfigError(f"policy {policy!r}: {self.name} must be {kind}, got {text!r}") from None
        if not self.low <= value <= self.high:
            raise ConfigError(f"policy {policy!r}: {self.name} must be {_fmt(self.low)}..{_fmt(self.high)}, "
                              f"got {text}")
        return float(value)


@dataclass(frozen=True)
class PolicyEntry:
    name: str
    kind: int  # the dispatch kind (policies.dispatch)
    params: tuple[Param, ...] = ()
    hand_blind: bool = False  # bids and trump choice do not depend on the hand
    # its card play draws nothing from the play stream: one play-out per deal is the exact answer
    deterministic_play: bool = False
    table: str | None = None  # the shared data the kernel reads (a key of TABLES)
    summary: str = ""
    # What one card play of this policy costs in heuristic card plays (benchmarks: the heuristic plays
    # about 12 million cards a second on one thread, random 50 million, search at 32 worlds makes 500-850
    # decisions a second alone and 150-200 inside the advisor's play-outs, where close calls double the worlds), times the value of the parameter ``cost_per`` when named: the advisor's work
    # budget counts in it.
    cost: float = 1.0
    cost_per: str | None = None
    # A search decision plays out every candidate over the rest of the round, so its cost grows with the
    # round size up to ``cost_full_r`` cards, as (r / cost_full_r) ** 1.6, and has a part
    # (``cost_fixed``) that does not grow with the worlds. Measured, all four seats search, one thread
    # (heuristic card plays a search card play costs, worlds 8 / 32): r = 3 10k / 41k, r = 6 - / 157k,
    # r = 10 - / 281k, r = 15 74k / 293k.
    cost_fixed: float = 0.0
    cost_full_r: int | None = None


def _heuristic_values() -> np.ndarray:
    from wizsim.policies.heuristic_values import VALUES

    return np.array(VALUES, dtype=np.float64)


def _net_table() -> np.ndarray:
    from wizsim.policies.net_weights import net_table

    return net_table()


def _net_search_table() -> np.ndarray:
    from wizsim.policies.net_weights import net_table

    return net_table("search")


# Shared data by name, loaded only when a table of policies needs it; TABLE_HOLDS: a table that begins
# with another (the net's weights follow the heuristic's values), so that their policies share a run.
# NET_TABLES: the tables that hold a set of net's weights, by its name (``net.WEIGHT_SETS``).
TABLES = {"heuristic_values": _heuristic_values, "net": _net_table, "net_search": _net_search_table}
TABLE_HOLDS = {"net": "heuristic_values", "net_search": "heuristic_values"}
NET_TABLES = {"net": "play", "net_search": "search"}


def _entries():
    from wizsim.policies.heuristic import DEFAULT_BID_SHIFT, DEFAULT_PLAY_NOISE, P_BID_SHIFT, P_PLAY_NOISE
    from wizsim.policies.net import P_TEMPERATURE, P_WEIGHTS, WEIGHT_SETS
    from wizsim.policies.search import (
        DEFAULT_BID_TRUST,
        DEFAULT_DOUBLINGS,
        DEFAULT_PLAY_TRUST,
        DEFAULT_WORLDS,
        MAX_WORLDS,
        P_BID_TRUST,
        P_DOUBLINGS,
        P_PLAY_TRUST,
        P_ROLLOUT,
        P_WORLDS,
        ROLLOUT_COSTS,
        ROLLOUTS,
    )

    return (
        PolicyEntry("random", RANDOM, hand_blind=True, cost=0.25,
                    summary="uniform bids (off the hook's number) and uniform legal cards"),
        PolicyEntry("heuristic", HEURISTIC, table="heuristic_values", deterministic_play=True,
                    params=(Param("bid_shift", DEFAULT_BID_SHIFT, -1.0, 1.0, P_BID_SHIFT),
                            Param("play_noise", DEFAULT_PLAY_NOISE, 0.0, 1.0, P_PLAY_NOISE, random_above=0.0)),
                    summary="bids its hand's value from a fitted card-value table, plays to make the bid"),
        PolicyEntry("search", SEARCH, table="heuristic_values", cost=3900.0, cost_per="worlds", cost_fixed=43000.0,
                    cost_full_r=9,
                    params=(Param("worlds", DEFAULT_WORLDS, 1, MAX_WORLDS, P_WORLDS, integer=True),
                            Param("doublings", DEFAULT_DOUBLINGS, 0, 4, P_DOUBLINGS, integer=True),
                            Param("bid_shift", DEFAULT_BID_SHIFT, -1.0, 1.0, P_BID_SHIFT),
                            Param("bid_trust", DEFAULT_BID_TRUST, 0.0, 1.0, P_BID_TRUST),
                            Param("play_trust", DEFAULT_PLAY_TRUST, 0.0, 1.0, P_PLAY_TRUST),
                            Param("rollout", 0, 0, len(ROLLOUTS) - 1, P_ROLLOUT, choices=ROLLOUTS,
                                  choice_tables=(None, "net", "net"), choice_costs=ROLLOUT_COSTS)),
                    summary="samples worlds consistent with what it has seen and picks the bid, card or trump "
                            "whose play-outs (by the heuristic, or by net) score best"),
        PolicyEntry("net", NET, table="net", deterministic_play=True, cost=NET_COST,
                    params=(Param("play_noise", DEFAULT_PLAY_NOISE, 0.0, 1.0, P_PLAY_NOISE, random_above=0.0),
                            Param("temperature", 0.0, 0.0, 10.0, P_TEMPERATURE, random_above=0.0),
                            Param("weights", 0, 0, len(WEIGHT_SETS) - 1, P_WEIGHTS, choices=WEIGHT_SETS,
                                  choice_tables=(None, "net_search"))),
                    summary="small neural networks that value each action as the search policy's play-outs do "
                            "(docs/net.md)"),
    )


POLICIES: dict[str, PolicyEntry] = {e.name: e for e in _entries()}

def seat_identity(name: str) -> dict:
    """What the player seated as canonical ``name`` is (``wizsim.identity``): a built-in by its name and
    wizsim's version (and, where it plays net's weights, their sha256: ``net_weights``, so that weights
    changed under one version, ``WIZSIM_NET_WEIGHTS``, are another player), a user's player as recorded
    when it was seated."""
    from wizsim.identity import builtin_identity, object_identity

    if is_user_player(name):
        return dict(USER_IDENTITIES.get(name) or object_identity(name))
    canon = check_policy(name)
    ident = builtin_identity(canon)
    which = NET_TABLES.get(parse_policy(canon).table)
    if which is not None:
        from wizsim.policies.net_weights import weights_digest

        ident["net_weights"] = weights_digest(which)
    return ident


def looks_like_player_spec(text: str) -> bool:
    """``FILE.py:NAME`` or ``package.module:NAME`` (never a built-in name with parameters)."""
    base, sep, attr = text.strip().partition(":")
    return bool(sep) and base.lower() not in POLICIES and (base.endswith(".py") or "." in base or "/" in base)


def seat_name(item) -> str:
    """The canonical name of one seat's policy: a built-in policy name, or a user's player (an object
    with ``trump``, ``bid`` and ``card``, or a spec that loads one), registered for this process."""
    if isinstance(item, str) and (item in USER_PLAYERS or looks_like_player_spec(item)):
        item = item.strip()
    elif isinstance(item, str):
        return check_policy(item)
    return register_player(item, POLICIES)


@dataclass(frozen=True)
class PolicySpec:
    """A parsed policy name: its entry and one value per declared parameter."""

    entry: PolicyEntry
    values: tuple[float, ...]

    @property
    def name(self) -> str:
        """The canonical name (see the module docstring)."""
        extra = [f"{p.name}={p.text(v)}" for p, v in zip(self.entry.params, self.values, strict=True)
                 if v != p.default]
        return ":".join([self.entry.name, *extra])

    @property
    def cost(self) -> float:
        """One card play's cost in heuristic card plays (see ``PolicyEntry.cost``), in a long round."""
        return self.cost_at(None)

    def cost_at(self, r: int | None) -> float:
        """One card play's cost in heuristic card plays in a round of ``r`` cards (None: a long round)."""
        cost = self.entry.cost
        if self.entry.cost_per is not None:
            cost *= self.values[[p.name for p in self.entry.params].index(self.entry.cost_per)]
        cost += self.entry.cost_fixed
        for p, v in zip(self.entry.params, self.values, strict=True):
            if p.choice_costs is not None:
                cost *= p.choice_costs[int(v)]
        full = self.entry.cost_full_r
        if full is not None and r is not None and r < full:
            cost *= (r / full) ** 1.6
        return cost

    @property
    def deterministic_play(self) -> bool:
        """Whether this configuration's card play draws nothing at random (the entry's flag, unless a
        parameter such as the heuristic's ``play_noise`` makes it draw)."""
        return self.entry.deterministic_play and not any(
            p.random_above is not None and v > p.random_above for p, v in zip(self.entry.params, self.values,
                                                                              strict=True))

    @property
    def table(self) -> str | None:
        """The shared table this configuration reads (``TABLES``): the entry's, unless a chosen value needs
        another (``search:rollout=net`` plays out with the net's weights)."""
        for p, v in zip(self.entry.params, self.values, strict=True):
            if p.choice_tables is not None and p.choice_tables[int(v)] is not None:
                return p.choice_tables[int(v)]
        return self.entry.table

    def params_row(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, dtype=np.float64)
        for p, v in zip(self.entry.params, self.values, strict=True):
            row[p.column] = v
        return row


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def policy_names() -> list[str]:
    return sorted(POLICIES)


def parse_policy(name) -> PolicySpec:
    """Parse ``NAME[:VALUE|:KEY=VALUE]...``; ``ConfigError`` naming the problem otherwise."""
    if not isinstance(name, str):
        raise ConfigError(f"a policy must be a name, got {name!r}")
    base, *parts = name.strip().lower().split(":")
    base = base.strip()
    entry = POLICIES.get(base)
    if entry is None:
        raise ConfigError(f"unknown policy {name.strip()!r}: choose from {', '.join(policy_names())}")
    values = [p.default for p in entry.params]
    by_name = {p.name: i for i, p in enumerate(entry.params)}
    for pos, part in enumerate(parts):
        key, eq, text = part.partition("=")
        if eq:
            i = by_name.get(key.strip())
            if i is None:
                known = ", ".join(by_name) or "none"
                raise ConfigError(f"policy {name!r}: unknown parameter {key.strip()!r} (parameters: {known})")
        else:
            i, text = pos, key
            if i >= len(entry.params):
                raise ConfigError(f"policy {name!r}: {entry.name} takes {len(entry.params)} parameter(s)")
        values[i] = entry.params[i].parse(text.strip(), name)
    return PolicySpec(entry, tuple(values))


def check_policy(name) -> str:
    """The canonical form of one policy name."""
    return parse_policy(name).name


def policy_entry(name) -> PolicyEntry:
    return parse_policy(name).entry


def deterministic_play(name) -> bool:
    """Whether policy ``name``'s card play draws nothing at random (play advice may then enumerate)."""
    return parse_policy(name).deterministic_play


def policy_cost(name, r: int | None = None) -> float:
    """One card play of policy ``name`` in a round of ``r`` cards (None: a long one), in heuristic card
    plays."""
    if is_user_player(name):
        return float(getattr(USER_PLAYERS[name], "cost", USER_PLAYER_COST))
    return parse_policy(name).cost_at(r)


def seat_policies(policies, players: int) -> list[str]:
    """One canonical policy name per seat (or player) from a name, a comma list or a sequence; a list
    shorter than the table repeats to fill it (``heuristic,random`` at 4 players: H,R,H,R)."""
    if isinstance(policies, str):
        policies = policies.split(",")
    elif not isinstance(policies, (list, tuple)) and all(callable(getattr(policies, d, None))
                                                         for d in ("trump", "bid", "card")):
        policies = [policies]  # one player object for every seat
    elif not isinstance(policies, (list, tuple)):
        raise ConfigError(f"policies must be a name, a comma list or a list of names, got "
                          f"{shorten(repr(policies), 40)}")
    for p in policies:
        if not isinstance(p, str) and not is_player(p):
            raise ConfigError(f"policies: each entry must be a policy name or a player with trump, bid and card, "
                              f"got {shorten(repr(p), 40)}")
    names = [seat_name(p) for p in policies]
    if not names or players % len(names):
        raise ConfigError(f"give {players} policies (one per seat) or a list whose length divides {players} "
                          f"(it repeats to fill the table), got {len(names)}")
    return names * (players // len(names))


@dataclass(frozen=True)
class PolicySlots:
    """What the kernels need to run a list of named policies: one slot per distinct canonical name."""

    names: tuple[str, ...]
    kinds: np.ndarray  # (n_slots,) int8
    params: np.ndarray  # (n_slots, N_PARAMS) float64
    table: np.ndarray  # (n,) float64, data shared by every slot (e.g. a policy's value table)
    user: tuple | None = None  # the one jitted player's (trump, bid, card) functions, if one is seated

    def slot_of(self, name: str) -> int:
        return self.names.index(name if name in self.names else check_policy(name))

    @property
    def ext(self):
        """The kernels' ``ext`` argument for these slots (``dispatch.kernel_ext``)."""
        return kernel_ext(self.kinds, self.user, self.params)


def make_slots(names) -> PolicySlots:
    """Slots for the distinct names in ``names`` (order of first appearance)."""
    specs: dict[str, PolicySpec] = {}
    user = None
    for name in names:
        functions = jit_functions(name)
        if functions is not None:
            if user is not None and name not in specs:
                raise ConfigError("the kernels seat one jitted player a run: the others play through the open table")
            user = functions
            specs.setdefault(name, PolicySpec(_USER_ENTRY, ()))
            continue
        if is_user_player(name):
            raise ConfigError(f"{name!r} is a Python player: it plays through the open table, not in the kernels")
        spec = parse_policy(name)
        if spec.entry.kind not in KINDS:  # a kind dispatch has no branch for would play as random
            raise ConfigError(f"policy {spec.entry.name!r} has kind {spec.entry.kind}, which the kernels do not "
                              f"know: add its branch to policies.dispatch")
        specs.setdefault(spec.name, spec)
    kinds = np.array([s.entry.kind for s in specs.values()], dtype=np.int8)
    params = np.stack([s.params_row() for s in specs.values()]) if specs else np.zeros((0, N_PARAMS))
    needed = {s.table for s in specs.values() if s.table is not None}
    needed = sorted(needed - {TABLE_HOLDS[t] for t in needed if t in TABLE_HOLDS})
    if len(needed) > 1:
        raise ConfigError(f"these policies need different tables ({', '.join(needed)}): one table per run")
    table = TABLES[needed[0]]() if needed else np.zeros(1, dtype=np.float64)
    return PolicySlots(tuple(specs), kinds, params, table, user)


_USER_ENTRY = PolicyEntry("jitted", USER, cost=1.0, summary="a user's jitted player (wizsim.jit_player)")
