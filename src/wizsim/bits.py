"""Bit tricks on uint64 card masks, compiled to single machine instructions where there is one.

Numba mixes uint64 and int64 into float64, so every helper takes and returns exactly the types it
names: masks are uint64, counts and card ids are int64.
"""

from __future__ import annotations

import os

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from wizsim._numba import kernel

ONE = np.uint64(1)
ZERO = np.uint64(0)


def _bit_count(name, emit):
    """An intrinsic for one of LLVM's bit-counting instructions: ``emit(builder, value)`` on its argument
    (any integer) as a uint64; the count is an int64."""

    def typer(typingctx, x):
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            return emit(builder, context.cast(builder, args[0], signature.args[0], types.uint64))

        return types.int64(x), codegen

    typer.__name__ = typer.__qualname__ = name
    return intrinsic(typer)


_NOT_POISON = ir.Constant(ir.IntType(1), 0)  # a zero argument gives 64, not an undefined value
_ctpop = _bit_count("_ctpop", lambda builder, v: builder.ctpop(v))
_cttz = _bit_count("_cttz", lambda builder, v: builder.cttz(v, _NOT_POISON))
_ctlz = _bit_count("_ctlz", lambda builder, v: builder.ctlz(v, _NOT_POISON))


@intrinsic
def mul_wide(typingctx, a, b):
    """(high, low) 64-bit words of the 128-bit product of two uint64."""
    sig = types.UniTuple(types.uint64, 2)(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        i64 = ir.IntType(64)
        prod = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        hi = builder.trunc(builder.lshr(prod, ir.Constant(i128, 64)), i64)
        lo = builder.trunc(prod, i64)
        return context.make_tuple(builder, signature.return_type, (hi, lo))

    return sig, codegen


@intrinsic
def _pdep(typingctx, src, mask):
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


def _host_has_bmi2() -> bool:
    try:
        import llvmlite.binding as llvm

        return "+bmi2" in llvm.get_host_cpu_features().flatten().split(",")
    except Exception:  # noqa: BLE001 - any failure means: do not use the instruction
        return False


HAS_BMI2 = _host_has_bmi2() and os.environ.get("WIZSIM_NO_PDEP", "0") != "1"


@kernel
def popcount(mask):
    """Number of set bits of a uint64 mask (int64)."""
    return _ctpop(mask)


@kernel
def lowest_bit(mask):
    """Index of the lowest set bit (int64); 64 for an empty mask."""
    return _cttz(mask)


@kernel
def highest_bit(mask):
    """Index of the highest set bit of a non-empty uint64 mask (int64)."""
    return 63 - _ctlz(mask)


@kernel
def bit(card):
    """The uint64 mask holding only ``card``."""
    return ONE << np.uint64(card)


_HALF_MASKS = np.array([(1 << w) - 1 for w in (32, 16, 8, 4, 2, 1)], dtype=np.uint64)
_HALF_WIDTHS = np.array([32, 16, 8, 4, 2, 1], dtype=np.int64)


@kernel
def _select_bit_pdep(mask, k):
    return _cttz(_pdep(ONE << np.uint64(k), mask))


@kernel
def _select_bit_search(mask, k):
    """Index of the k-th (0-based, from the lowest) set bit of ``mask``; k < popcount(mask).

    A binary search on popcounts of halves: six fixed steps and no data-dependent branch, because
    k is random in the simulation and a loop of k steps mispredicts its exit every time.
    """
    m = mask
    pos = 0
    for j in range(6):
        low = _ctpop(m & _HALF_MASKS[j])
        up = k >= low
        width = _HALF_WIDTHS[j] * up
        m >>= np.uint64(width)
        k -= low * up
        pos += width
    return pos


@kernel
def _select_bit_mask_pdep(mask, k):
    return _pdep(ONE << np.uint64(k), mask)


@kernel
def _select_bit_mask_search(mask, k):
    return ONE << np.uint64(_select_bit_search(mask, k))


# One instruction where the processor has it (BMI2's pdep deposits bit k onto the k-th set bit of
# the mask); the branch-free search elsewhere. Numba's cache is keyed by CPU, so a cached build
# never runs on a machine without the instruction.
select_bit = _select_bit_pdep if HAS_BMI2 else _select_bit_search
# The same choice as a one-bit mask (``bit(select_bit(mask, k))``), for the deal, which wants masks.
select_bit_mask = _select_bit_mask_pdep if HAS_BMI2 else _select_bit_mask_search
