"""Print-ready report pages: every page A4 portrait, numbered, bookmarked per section; names in Chinese.

- ``use_fonts`` registers Noto Sans CJK (shipped by the ``mplfonts`` package) as matplotlib's fallback
  after DejaVu Sans, so the games' Chinese names render instead of boxes.
- ``text_page`` and ``table_pages`` lay text out by design: cells are wrapped to their column's width
  and a table is split between pages at a row, never inside a cell.
- ``on_a4`` puts a figure of any size on an A4 page (its plot on the upper part, at its own height).
- ``write_pdf`` numbers the pages, sets the PDF title and adds one bookmark per section (pypdf).
"""

from __future__ import annotations

import math
import textwrap
import unicodedata
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.layout_engine import ConstrainedLayoutEngine  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

PAGE = (8.27, 11.69)  # A4 portrait, inches
LEFT, RIGHT, TOP, BOTTOM = 0.06, 0.94, 0.95, 0.05  # the text area, as fractions of the page
CJK_FAMILY = "Noto Sans CJK SC"  # covers the traditional characters of the games' names too
CJK_FILE = "NotoSansCJKsc-Regular.otf"
BODY_PT = 9.0
TABLE_PT = 7.0
CHAR_EM = 0.62  # a DejaVu Sans character's mean width, in ems (wide East Asian characters: 1 em)
LINE = 1.45  # line height in units of the font size
KEEP_TOGETHER = 12  # rows of a table that ``blocks_pages`` keeps on one page with its intro


def use_fonts() -> None:
    """DejaVu Sans first and the bundled Noto Sans CJK for every glyph it lacks (matplotlib's font fallback)."""
    import logging

    from matplotlib import font_manager

    # the bundled font has one weight: bold Chinese is drawn regular, which matplotlib would log at every bold text
    logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    if CJK_FAMILY not in {f.name for f in font_manager.fontManager.ttflist}:
        font_manager.fontManager.addfont(str(resources.files("mplfonts") / "fonts" / CJK_FILE))
    matplotlib.rcParams["font.family"] = ["DejaVu Sans", CJK_FAMILY]


def p_text(p: float) -> str:
    """A p-value as printed: ``< 1e-300`` below what a double holds, ``3e-12`` when small, else 2 digits."""
    if not p > 1e-300:
        return "< 1e-300"
    return f"{p:.0e}" if p < 1e-3 else f"{p:.2g}"


def pct(value: float, digits: int = 1) -> str:
    return f"{100 * value:.{digits}f} %"


def pct_interval(value: float, lo: float, hi: float, digits: int = 1) -> str:
    return f"{100 * value:.{digits}f} % [{100 * lo:.{digits}f}, {100 * hi:.{digits}f}]"


def _units(text: str) -> float:
    """Width of ``text`` in mean Latin characters (a wide East Asian character counts as 1 / CHAR_EM)."""
    return sum(1 / CHAR_EM if unicodedata.east_asian_width(c) in "WF" else 1.0 for c in text)


def wrap(text: str, width: float) -> list[str]:
    """``text`` in lines of at most ``width`` mean characters (words kept whole where they fit)."""
    lines: list[str] = []
    for paragraph in str(text).split("\n"):
        chars = max(4, int(width * len(paragraph) / max(_units(paragraph), 1)))
        lines += textwrap.wrap(paragraph, chars, break_long_words=True, break_on_hyphens=False) or [""]
    return lines


def _chars_across(fraction: float, size: float) -> float:
    """How many mean characters of ``size`` pt fit across ``fraction`` of the page's width."""
    return fraction * PAGE[0] * 72 / (size * CHAR_EM)


def _line_height(size: float) -> float:
    return size * LINE / (PAGE[1] * 72)


def blank(title: str) -> tuple[Figure, float]:
    """A new A4 page with its title; returns the page and the height (fraction) below the title. A page is
    a plain ``Figure``, not one of pyplot's: a report of more than 20 pages holds them all at once, and no
    page is left registered (open) when a caller drops it."""
    fig = Figure(figsize=PAGE)
    fig.set_label(title)  # the page's section name in the report (``section_of``)
    lines = wrap(title, _chars_across(RIGHT - LEFT, 15))
    for i, line in enumerate(lines):
        fig.text(LEFT, TOP - i * _line_height(15), line, fontsize=15, weight="bold", va="top")
    return fig, TOP - len(lines) * _line_height(15) - 0.012


def text_pages(title: str, lines: Sequence[str], size: float = BODY_PT, plot: float = 0.0) -> list[Figure]:
    """Paragraphs wrapped to the page; a bold line starts with ``# ``; more pages when they do not fit.
    ``plot``: the height (fraction) kept free at the foot of the first page for an axes (``plot_axes``)."""
    pages = []
    fig, y = blank(title)
    step = _line_height(size)
    for line in lines:
        bold = line.startswith("# ")
        text = line[2:] if bold else line
        parts = wrap(text, _chars_across(RIGHT - LEFT - 0.02, size)) if text else [""]
        if y - len(parts) * step < BOTTOM + 0.02 + (0 if pages else plot):
            pages.append(fig)
            fig, y = blank(title + " (continued)")
        for k, part in enumerate(parts):
            fig.text(LEFT + (0.02 if k else 0), y, part, fontsize=size, va="top", weight="bold" if bold else None)
            y -= step
        if bold:
            y -= step * 0.2
    pages.append(fig)
    return pages


def plot_axes(fig: Figure, plot: float):
    """The axes in the foot of a page that ``text_pages(..., plot=plot)`` kept free (room left for its legend)."""
    return fig.add_axes((LEFT + 0.06, BOTTOM + 0.07, RIGHT - LEFT - 0.08, plot - 0.1))


def draw_table(fig: Figure, top: float, header: Sequence[str], rows: Sequence[Sequence[str]],
               widths: Sequence[float], size: float = TABLE_PT, bottom: float = BOTTOM + 0.02) -> tuple[int, float]:
    """Draw as many whole rows as fit between ``top`` and ``bottom``; returns (rows drawn, y below the table).

    Columns share the text width in proportion to ``widths``; each cell's text is wrapped to its column
    (every cell's text carries the gid ``cell x0 x1`` of its column, for the fit test)."""
    total = sum(widths)
    edges = [LEFT]
    for w in widths:
        edges.append(edges[-1] + (RIGHT - LEFT) * w / total)
    pad = 0.004
    step = _line_height(size)

    def cells(row: Sequence[str]) -> list[list[str]]:
        return [wrap(str(c), _chars_across(edges[j + 1] - edges[j] - 2 * pad, size) * 0.97)
                for j, c in enumerate(row)]

    def draw(row_lines: list[list[str]], y: float, bold: bool, shade: bool) -> float:
        height = max(len(c) for c in row_lines) * step + 2 * pad
        if shade:
            fig.patches.append(Rectangle((LEFT, y - height), RIGHT - LEFT, height, color="#eeeeee",
                                                            transform=fig.transFigure, figure=fig, zorder=0))
        for j, lines in enumerate(row_lines):
            for k, line in enumerate(lines):
                t = fig.text(edges[j] + pad, y - pad - k * step, line, fontsize=size, va="top",
                             weight="bold" if bold else None)
                t.set_gid(f"cell {edges[j]:.5f} {edges[j + 1]:.5f}")
        fig.add_artist(Line2D([LEFT, RIGHT], [y - height, y - height], linewidth=0.3,
                                               color="grey", transform=fig.transFigure))
        return y - height

    y = draw(cells(header), top, True, True)
    drawn = 0
    for i, row in enumerate(rows):
        lines = cells(row)
        if y - max(len(c) for c in lines) * step - 2 * pad < bottom and drawn:
            break
        y = draw(lines, y, False, i % 2 == 1)
        drawn += 1
    return drawn, y


def table_pages(title: str, header: Sequence[str], rows: Sequence[Sequence[str]], widths: Sequence[float],
                intro: Sequence[str] = (), size: float = TABLE_PT) -> list[Figure]:
    """A table over as many A4 pages as it needs, split between rows; ``intro`` paragraphs above it."""
    pages = []
    start = 0
    while True:
        fig, y = blank(title + (" (continued)" if start else ""))
        if not start:
            for line in intro:
                for part in wrap(line, _chars_across(RIGHT - LEFT, BODY_PT)):
                    fig.text(LEFT, y, part, fontsize=BODY_PT, va="top")
                    y -= _line_height(BODY_PT)
            y -= 0.01 if intro else 0
        if not rows:
            fig.text(LEFT, y, "(none)", fontsize=BODY_PT, va="top")
            return [fig]
        drawn, _ = draw_table(fig, y, header, rows[start:], widths, size)
        pages.append(fig)
        start += drawn
        if start >= len(rows):
            return pages


def blocks_pages(title: str, blocks: Sequence[tuple[Sequence[str], Sequence[str], Sequence[Sequence[str]],
                                                  Sequence[float]]], size: float = TABLE_PT) -> list[Figure]:
    """Paragraphs and tables one after another on as few A4 pages as they need: each block is (intro
    paragraphs, header, rows, widths); a table is split between rows, and a new page starts only when the
    next paragraph or row does not fit (a table's header is drawn again on the new page)."""
    pages: list[Figure] = []
    fig, y = blank(title)

    def turn() -> None:
        nonlocal fig, y
        pages.append(fig)
        fig, y = blank(title + " (continued)")

    step = _line_height(BODY_PT)
    for k, (intro, header, rows, widths) in enumerate(blocks):
        lines = sum(len(wrap(line, _chars_across(RIGHT - LEFT, BODY_PT))) if line else 1 for line in intro)
        if k and rows and len(rows) <= KEEP_TOGETHER:  # a short table starts a page rather than split
            fits, _ = draw_table(Figure(figsize=PAGE), y - lines * step - 0.006, header, rows, widths, size)
            if fits < len(rows):
                turn()
        for line in intro:
            parts = wrap(line, _chars_across(RIGHT - LEFT, BODY_PT)) if line else [""]
            if y - len(parts) * step < BOTTOM + 0.02:
                turn()
            for part in parts:
                fig.text(LEFT, y, part, fontsize=BODY_PT, va="top")
                y -= step
        y -= 0.006
        start = 0
        while start < len(rows):
            if y - 6 * _line_height(size) < BOTTOM + 0.02:  # no room for the header and a row
                turn()
            drawn, y = draw_table(fig, y, header, rows[start:], widths, size)
            start += drawn
            if start < len(rows):
                turn()
        y -= 0.02
    pages.append(fig)
    return pages


def on_a4(fig: Figure, caption: Sequence[str] = ()) -> Figure:
    """The figure resized to an A4 page: its plots keep their own height on the upper part of the page
    (at most the text area), laid out again; ``caption`` paragraphs below them."""
    width, height = fig.get_size_inches()
    if (round(width, 2), round(height, 2)) == PAGE and not caption:
        return fig
    usable = (TOP - BOTTOM - 0.03) * PAGE[1]
    share = min(usable, max(height * min(1.0, PAGE[0] / width) * 1.15, 3.0)) / PAGE[1]
    top = TOP + 0.02
    fig.set_size_inches(*PAGE)
    _wrap_titles(fig)
    if isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
        fig.get_layout_engine().set(rect=(0.03, top - share, 0.94, share))
    else:
        fig.set_layout_engine(None)
        fig.tight_layout(rect=(0.03, top - share, 0.97, top))
    y = top - share - 0.02
    for line in caption:
        for part in wrap(line, _chars_across(RIGHT - LEFT, BODY_PT)):
            fig.text(LEFT, y, part, fontsize=BODY_PT, va="top")
            y -= _line_height(BODY_PT)
    return fig


def _wrap_titles(fig: Figure) -> None:
    """Axes titles and the figure's title wrapped to the width they have on the page (never cut at the edge)."""
    for ax in fig.axes:
        for title in (ax.title, ax._left_title, ax._right_title):
            text = title.get_text()
            if text:
                chars = _chars_across(ax.get_position().width * 1.1, title.get_fontsize())
                title.set_text("\n".join(wrap(text, chars)))
    if fig._suptitle is not None:
        text = fig._suptitle
        text.set_text("\n".join(wrap(text.get_text(), _chars_across(0.9, text.get_fontsize()))))


def section_of(fig: Figure, default: str) -> str:
    """A page's section name: the title of a page made here, else the first line of its plot's title."""
    if fig.get_label():
        return fig.get_label().removesuffix(" (continued)")
    title = (fig._suptitle.get_text() if fig._suptitle else "") or (fig.axes[0].get_title() if fig.axes else "")
    return title.split("\n")[0].split(" (")[0] or default


def write_pdf(path: Path, title: str, subject: str, pages: Sequence[tuple[str, Figure]]) -> Path:
    """The pages into one PDF: a footer with the title, the section and "page n of N" on each, the title
    metadata, and a bookmark at the first page of each section (opened with the bookmarks shown)."""
    from pypdf import PdfWriter

    path.parent.mkdir(parents=True, exist_ok=True)
    total = len(pages)
    with PdfPages(path) as pdf:
        info = pdf.infodict()
        info["Title"] = title
        info["Subject"] = subject
        for number, (section, fig) in enumerate(pages, 1):
            footer = wrap(f"{title} · {section}", _chars_across(0.7, 7))
            fig.text(LEFT, 0.02, footer[0] + (" …" if len(footer) > 1 else ""), fontsize=7, color="dimgrey",
                     va="bottom")
            fig.text(RIGHT, 0.02, f"page {number} of {total}", fontsize=7, color="dimgrey", va="bottom", ha="right")
            pdf.savefig(fig)
            plt.close(fig)  # the game's own plots are pyplot's; closing a page is a no-op
    writer = PdfWriter(clone_from=str(path))
    seen: set[str] = set()
    for number, (section, _) in enumerate(pages):
        if section not in seen:
            seen.add(section)
            writer.add_outline_item(title=section, page_number=number)
    writer.add_metadata({"/Title": title, "/Subject": subject})
    writer.page_mode = "/UseOutlines"
    with open(path, "wb") as handle:
        writer.write(handle)
    return path


def page_sizes_pt(path: Path) -> list[tuple[float, float]]:
    """Every page's size in points (A4: 595 x 842)."""
    from pypdf import PdfReader

    return [(math.floor(float(p.mediabox.width)), math.floor(float(p.mediabox.height)))
            for p in PdfReader(str(path)).pages]
