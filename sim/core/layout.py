"""A packed rule vector's layout, declared once per game, and the game's switchable rules.

The compiled engines read rule values from an int64 vector by column number, and numba needs the
column numbers as module-level int constants. So that the packer and the engine cannot disagree, a
game declares the vector once, in its ``rules.py``, as a :class:`Layout`: an ordered list of
columns, each a constant's name and how to read its value from the rules::

    PARAMS = Layout(
        ("PLAYERS", "players"),                 # a field (or property) of the rules model
        ("N_SHIP", "ship_cards"),
        ("D_EACH", "hand_match_per_card"),      # a bool packs as 0/1
        ("N_DIALS", lambda r: r.n_dials),       # or any function of the rules
        ("LOG0", None),                         # or None: a column the packer fills itself
    )

``PARAMS.pack(rules)`` writes the vector in that order, and the engine takes its constants from
the same declaration by name (a name the layout lacks raises at import)::

    PLAYERS, N_SHIP, D_EACH, N_DIALS = PARAMS.index("PLAYERS", "N_SHIP", "D_EACH", "N_DIALS")

Adding a rule value is then one line in the layout (plus the engine code that reads it).

:func:`switchable_rules` lists a rules model's on/off rules (bool fields, int fields bounded to 0..1,
and two-text ``Literal`` fields); each game's tests run the engine-vs-reference check with every one of them switched, so a
switchable rule added to the model is checked without writing a test for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

import numpy as np
from annotated_types import Ge, Le
from pydantic import BaseModel

Reader = str | Callable[[Any], int] | None


class Layout:
    """The ordered columns of one packed int64 rule vector: (constant name, reader) pairs."""

    def __init__(self, *columns: tuple[str, Reader], first: int = 0) -> None:
        names = [name for name, _ in columns]
        duplicated = sorted({n for n in names if names.count(n) > 1})
        if duplicated:
            raise ValueError(f"layout columns declared twice: {', '.join(duplicated)}")
        self.first = first
        self.columns = tuple(columns)
        self._index = {name: first + i for i, name in enumerate(names)}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._index)

    @property
    def end(self) -> int:
        """One past the last column (the vector's size when ``first`` is 0)."""
        return self.first + len(self.columns)

    def index(self, *names: str) -> tuple[int, ...]:
        """The column numbers of ``names`` (for the engine's constants); an unknown name raises."""
        missing = [n for n in names if n not in self._index]
        if missing:
            raise KeyError(f"not in the layout: {', '.join(missing)} (declared: {', '.join(self._index)})")
        return tuple(self._index[n] for n in names)

    def value(self, rules: BaseModel, name: str) -> int:
        """The value the packer writes in column ``name`` (None-reader columns: 0)."""
        reader = dict(self.columns)[name]
        if reader is None:
            return 0
        value = getattr(rules, reader) if isinstance(reader, str) else reader(rules)
        return int(value)

    def pack(self, rules: BaseModel, out: np.ndarray | None = None) -> np.ndarray:
        """Write every rule column into ``out`` (from column ``first``; a new vector of ``end``
        zeros if None) and return it. Columns read by None are left as they are."""
        if out is None:
            out = np.zeros(self.end, dtype=np.int64)
        for i, (name, reader) in enumerate(self.columns):
            if reader is not None:
                out[self.first + i] = self.value(rules, name)
        return out


def switchable_rules(model: type[BaseModel]) -> list[str]:
    """The model's on/off rules, in declaration order: bool fields, int fields bounded to 0..1, and
    fields that take one of two texts (``Literal["secret", "announced"]``)."""
    names = []
    for name, field in model.model_fields.items():
        bounds = {type(m): m for m in field.metadata}
        lo, hi = bounds.get(Ge), bounds.get(Le)
        two_texts = get_origin(field.annotation) is Literal and len(get_args(field.annotation)) == 2
        if field.annotation is bool or two_texts or (field.annotation is int and lo is not None
                                                     and hi is not None and lo.ge == 0 and hi.le == 1):
            names.append(name)
    return names


def switched(rules: BaseModel, name: str) -> BaseModel:
    """``rules`` with the switchable rule ``name`` turned the other way (validated again)."""
    value = getattr(rules, name)
    annotation = type(rules).model_fields[name].annotation
    if isinstance(value, bool):
        flipped = not value
    elif get_origin(annotation) is Literal:
        flipped = next(v for v in get_args(annotation) if v != value)
    else:
        flipped = 1 - value
    return type(rules).model_validate({**rules.model_dump(), name: flipped})
