"""``njit`` for the engines: numba's, with one compile of a function per argument type, not per constant.

When a compiled function calls another with a constant (``_note(S, log, L_DEAL, p)``), numba types
the constant as a literal (``Literal[int](2)``) and compiles the callee once for that very constant;
while it infers a loop's types it also compiles callees for the literal first value of a variable
(``n_ev = 0``) before the variable's real type is known. Each of those compiles runs the whole
pipeline, LLVM included, over the callee and everything it calls: it was a third of Ocracoke's cold
compile. Here a call from compiled code asks first for the plain type (``int64``); the literal is
kept only for the rare function that cannot be typed without it (e.g. an index into a tuple). The
machine code does not change in what it computes: the hot callees are inlined by LLVM, which folds
the constants the same way.

Used by the three engines (and sim.core's rng and bits).
"""

from __future__ import annotations

from types import FunctionType, ModuleType

from numba.core import errors, types
from numba.core.registry import CPUDispatcher


class Dispatcher(CPUDispatcher):
    """A CPU dispatcher that, called from compiled code, compiles for plain argument types first."""

    def get_call_template(self, args, kws):
        plain = tuple(types.unliteral(a) for a in args)
        plain_kws = {k: types.unliteral(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return super().get_call_template(plain, plain_kws)
            except errors.TypingError:
                pass  # typing needs the constant itself
        return super().get_call_template(args, kws)


def njit(func=None, *, cache: bool = False, **options):
    """``numba.njit`` (same options, used the same ways: ``@njit``, ``@njit(...)``) with this module's
    ``Dispatcher``, and without the C-callable wrapper numba builds for every function by default
    (``no_cfunc_wrapper``): nothing here is called through a C function pointer, so that wrapper was
    only compile time (about 1 s of The Wonderful Island's cold compile)."""

    def decorate(py_func):
        dispatcher = Dispatcher(py_func=py_func, locals={},
                                targetoptions={"nopython": True, "boundscheck": None, "no_cfunc_wrapper": True,
                                               **options})
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return decorate if func is None else decorate(func)


def recompiled(module, names: tuple[str, ...], options: dict, family: str, **bound) -> ModuleType:
    """The functions ``names`` of ``module`` compiled again, each on its own with ``options``: the same
    code, calling each other's new versions and, in place of the module's functions of the names in
    ``bound``, those. So one order of play serves another caller (a search's rollouts, a game whose
    seats search) without a copy: only what differs is bound. ``family`` names the new versions (their
    numba cache files, next to the module's own: distinct per family, each cached as usual). Returned as
    a module, whose functions compiled code calls as ``FAMILY.name(...)``."""
    scope = {**vars(module), **bound}
    made = {}
    for name in names:
        py = getattr(module, name).py_func
        again = FunctionType(py.__code__, scope, name, py.__defaults__)
        again.__qualname__ = f"{family}.{name}"
        again.__module__ = py.__module__
        again.__doc__ = py.__doc__
        scope[name] = made[name] = njit(**options)(again)
    family_module = ModuleType(f"{module.__name__}.{family}")
    vars(family_module).update(made)
    return family_module
