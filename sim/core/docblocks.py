"""Generated blocks in the Markdown docs: tables a script writes from committed result files, so that a doc
cannot quote figures typed by hand or gone stale.

A block of kind ``KIND`` named ``NAME`` stands between two marker comments, the begin marker on a line of its
own::

    <!-- KIND NAME -->
    ...its body, written by a renderer from a result file...
    <!-- /KIND -->

``find`` reads the blocks of one kind, ``sync`` rewrites every block of a kind in a doc from its renderer, and
``check`` (what the tests call) says whether a doc has exactly the
blocks expected and each one matches its renderer. A marker without its partner, a block begun inside another
of its kind, two blocks of one name, or a block that is asked for and missing raise ``BlockError``, which names
the file, the block and the line.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from sim.core.errors import UserError

Render = Callable[[str], str]  # a block's name -> its body (ending with a newline)


class BlockError(UserError):
    """A doc whose markers do not pair up, or that lacks (or has a stale) block: names the file and the block."""


@dataclass(frozen=True)
class Block:
    """One generated block: its name and body, and where the body stands in the doc's text (``text[start:end]``)."""

    name: str
    body: str
    start: int
    end: int


def _markers(kind: str) -> re.Pattern[str]:
    """Both markers of ``kind``: ``<!-- KIND NAME -->`` (name set) and ``<!-- /KIND -->`` (slash set)."""
    return re.compile(rf"<!-- (?P<slash>/)?{re.escape(kind)}(?: (?P<name>\S+))? -->")


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _blocks(text: str, kind: str, source: str) -> list[Block]:
    """The blocks of ``kind`` in ``text`` (the doc ``source``), in order; raises BlockError on unpaired markers."""
    found: list[Block] = []
    open_: tuple[str, int, int] | None = None  # the block begun and not yet ended: name, line, start of its body
    for m in _markers(kind).finditer(text):
        line = _line(text, m.start())
        if m["slash"] is None:
            if m["name"] is None:
                raise BlockError(f"{source}:{line}: <!-- {kind} --> names no block; expected <!-- {kind} NAME -->")
            if open_ is not None:
                raise BlockError(f"{source}:{line}: block {kind} {m['name']} begins inside block {kind} {open_[0]} "
                                 f"(line {open_[1]}), which has no end marker <!-- /{kind} --> before it")
            if text[m.end():m.end() + 1] != "\n":
                raise BlockError(f"{source}:{line}: block {kind} {m['name']}: expected its begin marker on a line "
                                 "of its own")
            if any(b.name == m["name"] for b in found):
                raise BlockError(f"{source}:{line}: block {kind} {m['name']} stands twice in the doc")
            open_ = (m["name"], line, m.end() + 1)
        elif m["name"] is not None:
            raise BlockError(f"{source}:{line}: end marker <!-- /{kind} {m['name']} -->; expected <!-- /{kind} -->")
        elif open_ is None:
            raise BlockError(f"{source}:{line}: end marker <!-- /{kind} --> ends no block (no begin marker "
                             f"<!-- {kind} NAME --> before it)")
        else:
            found.append(Block(open_[0], text[open_[2]:m.start()], open_[2], m.start()))
            open_ = None
    if open_ is not None:
        raise BlockError(f"{source}:{open_[1]}: block {kind} {open_[0]} has no end marker <!-- /{kind} -->")
    return found


def find(text: str, kind: str, source: str = "<doc>") -> dict[str, str]:
    """The bodies of the blocks of ``kind`` in ``text``, by name, in the order of the doc (``source`` names the
    doc in errors)."""
    return {b.name: b.body for b in _blocks(text, kind, source)}


def sync(doc: Path, kind: str, render: Render) -> list[str]:
    """Rewrite the body of every block of ``kind`` in ``doc`` as ``render(name)``; returns the names of the blocks
    that changed, in the order of the doc (the file is written only if one did)."""
    text = doc.read_text(encoding="utf-8")
    changed, new = [], text
    for block in reversed(_blocks(text, kind, str(doc))):  # from the end, so the earlier offsets stay valid
        body = render(block.name)
        if body != block.body:
            changed.insert(0, block.name)
            new = new[:block.start] + body + new[block.end:]
    if changed:
        doc.write_text(new, encoding="utf-8")
    return changed


def check(doc: Path, kind: str, render: Render, names: Iterable[str], fix: str = "its sync script") -> None:
    """BlockError unless the blocks of ``kind`` in ``doc`` are exactly ``names`` (one per result file) and each
    body is ``render(name)``; ``fix`` says what rewrites them."""
    found = find(doc.read_text(encoding="utf-8"), kind, str(doc))
    expected = list(names)
    missing = [name for name in expected if name not in found]
    extra = [name for name in found if name not in expected]
    stale = [name for name in expected if name in found and found[name] != render(name)]
    problems = ([f"no block {kind} {name}" for name in missing] + [f"block {kind} {name} has no result" for name in extra]
                + [f"block {kind} {name} is stale" for name in stale])
    if problems:
        raise BlockError(f"{doc}: {'; '.join(problems)} (run {fix})")


def main(doc: Path, sync_doc: Callable[[], list[str]]) -> None:
    """A doc's table script: run ``sync_doc`` and say which blocks it rewrote; a broken marker is one line on
    stderr and exit code 2."""
    try:
        changed = sync_doc()
    except BlockError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    print(f"{doc}: " + (f"rewrote the tables of {', '.join(changed)}" if changed else "tables already match"))
