"""Bit masks as sets, for the compiled engines: how many members, and the lowest one.

Both are single processor instructions where the processor has them (popcnt, tzcnt).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import trailing_zeros

from sim.core.jit import njit


@intrinsic
def popcount(typingctx, x):
    """The number of bits set in an integer mask, of the mask's type: LLVM's ctpop."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(cache=True, _nrt=False, forceinline=True)
def lowest_bit(x):
    """The index of the lowest set bit of a non-zero mask (its count of trailing zero bits), as int64."""
    return np.int64(trailing_zeros(x))
