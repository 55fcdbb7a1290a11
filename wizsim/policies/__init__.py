"""Policies by name, and their translation into the kernel's slot arrays (see ``dispatch``)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from wizsim.policies.dispatch import HEURISTIC, RANDOM

N_PARAMS = 8

POLICY_KINDS = {"random": RANDOM, "heuristic": HEURISTIC}


@dataclass(frozen=True)
class PolicySlots:
    """What the kernels need to run a list of named policies: one slot per distinct name."""

    names: tuple[str, ...]
    kinds: np.ndarray  # (n_slots,) int8
    params: np.ndarray  # (n_slots, N_PARAMS) float64
    table: np.ndarray  # (n,) float64, data shared by every slot (e.g. a policy's value table)

    def slot_of(self, name: str) -> int:
        return self.names.index(name)


def policy_names() -> list[str]:
    return sorted(POLICY_KINDS)


def check_policy(name: str) -> str:
    key = name.strip().lower()
    if key not in POLICY_KINDS:
        raise ValueError(f"unknown policy {name!r}: choose from {', '.join(policy_names())}")
    return key


def make_slots(names) -> PolicySlots:
    """Slots for the distinct names in ``names`` (order of first appearance)."""
    unique: list[str] = []
    for name in names:
        key = check_policy(name)
        if key not in unique:
            unique.append(key)
    kinds = np.array([POLICY_KINDS[n] for n in unique], dtype=np.int8)
    params = np.zeros((len(unique), N_PARAMS), dtype=np.float64)
    table = np.zeros(1, dtype=np.float64)
    if "heuristic" in unique:
        from wizsim.policies.heuristic import DEFAULT_BID_SHIFT, P_BID_SHIFT
        from wizsim.policies.heuristic_values import VALUES

        table = np.array(VALUES, dtype=np.float64)  # the heuristic's value table
        params[unique.index("heuristic"), P_BID_SHIFT] = DEFAULT_BID_SHIFT
    return PolicySlots(tuple(unique), kinds, params, table)
