"""Policies by name (``registry``) and the kernel interface they share (``dispatch``)."""

from __future__ import annotations

from wizsim.policies.registry import (
    DEFAULT_POLICY,
    N_PARAMS,
    POLICIES,
    Param,
    PolicyEntry,
    PolicySlots,
    PolicySpec,
    check_policy,
    make_slots,
    parse_policy,
    policy_cost,
    policy_entry,
    policy_names,
    seat_policies,
)

__all__ = ["DEFAULT_POLICY", "N_PARAMS", "POLICIES", "Param", "PolicyEntry", "PolicySlots", "PolicySpec",
           "check_policy", "make_slots", "parse_policy", "policy_cost", "policy_entry", "policy_names", "seat_policies"]
