"""Text measured in terminal cells, not characters.

Korean syllables (and other East Asian wide characters, most emoji) take two cells; combining
accents and zero-width characters take none. Layouts must measure, pad and cut with these
functions, never with len() or str.ljust — `len("타워") == 2` but it fills 4 cells.

    cell_width("타워 3")          -> 6
    pad("타워", 6)                -> "타워  "         (6 cells)
    truncate("Bibliothèque", 6)  -> "Bibli…"
    fit("게이트하우스", 7)          -> "게이트… "       (exactly 7 cells: a wide char never
                                                   straddles the edge)
"""

from __future__ import annotations

from collections.abc import Sequence

from prompt_toolkit.utils import get_cwidth

ELLIPSIS = "…"


def cell_width(text: str) -> int:
    """Terminal cells `text` occupies (control characters count 0)."""
    return sum(get_cwidth(ch) for ch in text) if not text.isascii() else \
        sum(1 for ch in text if ch.isprintable())


def _clusters(text: str) -> list[tuple[str, int]]:
    """(cluster, width) pairs: each visible character with the zero-width ones after it."""
    out: list[tuple[str, int]] = []
    for ch in text:
        w = get_cwidth(ch)
        if w == 0 and out:
            prev, pw = out[-1]
            out[-1] = (prev + ch, pw)
        else:
            out.append((ch, w))
    return out


def truncate(text: str, width: int, ellipsis: str = ELLIPSIS) -> str:
    """`text` cut to at most `width` cells; when cut, it ends with `ellipsis` (if that fits)."""
    if width <= 0:
        return ""
    if cell_width(text) <= width:
        return text
    room = width - cell_width(ellipsis)
    if room < 0:
        ellipsis, room = "", width
    out, used = [], 0
    for cluster, w in _clusters(text):
        if used + w > room:
            break
        out.append(cluster)
        used += w
    return "".join(out) + ellipsis


def pad(text: str, width: int, align: str = "<", fill: str = " ") -> str:
    """`text` padded with `fill` to `width` cells ('<' left, '>' right, '^' centre). Never
    cuts: text wider than `width` is returned unchanged (use fit() to cut too)."""
    gap = width - cell_width(text)
    if gap <= 0:
        return text
    if align == ">":
        return fill * gap + text
    if align == "^":
        left = gap // 2
        return fill * left + text + fill * (gap - left)
    return text + fill * gap


def fit(text: str, width: int, align: str = "<", ellipsis: str = ELLIPSIS) -> str:
    """`text` cut and padded to exactly `width` cells."""
    return pad(truncate(text, width, ellipsis), width, align)


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most `width` cells, broken at spaces; a word wider than a line is split
    (Korean words are, where needed, split between syllables). Keeps explicit newlines.
    Only a single wide character in a 1-cell width can exceed `width`."""
    if width <= 0:
        raise ValueError("wrap width must be positive")
    lines = []
    for paragraph in text.split("\n"):
        line, used = None, 0            # None: nothing on the current line yet
        emitted = False                 # this paragraph already produced a line
        for word in paragraph.split(" "):
            w = cell_width(word)
            if line is not None and used + 1 + w <= width:
                line, used = f"{line} {word}", used + 1 + w
                continue
            if line is not None:
                lines.append(line)
                emitted = True
            line, used = None, 0
            while w > width:
                head = truncate(word, width, ellipsis="") or _clusters(word)[0][0]
                lines.append(head)
                emitted = True
                word = word[len(head):]
                w = cell_width(word)
            if word or not emitted:
                line, used = word, w
        if line is not None:
            lines.append(line)
    return lines


def fragments_width(fragments: Sequence[tuple[str, str]]) -> int:
    """Cells taken by prompt_toolkit style fragments [(style, text), …]."""
    return sum(cell_width(f[1]) for f in fragments)


def fit_fragments(fragments: Sequence[tuple[str, str]], width: int,
                  ellipsis: str = ELLIPSIS) -> list[tuple[str, str]]:
    """Style fragments cut (with `ellipsis` in the last kept fragment's style) and padded
    with unstyled spaces to exactly `width` cells."""
    out, used = [], 0
    total = fragments_width(fragments)
    if total <= width:
        out = list(fragments)
        if total < width:
            out.append(("", " " * (width - total)))
        return out
    room = max(width - cell_width(ellipsis), 0)
    style = ""
    for frag in fragments:
        style, text = frag[0], frag[1]
        w = cell_width(text)
        if used + w <= room:
            out.append(frag)
            used += w
            continue
        part = truncate(text, room - used, ellipsis="")
        if part:
            out.append((style, part))
            used += cell_width(part)
        break
    tail = ellipsis if used + cell_width(ellipsis) <= width else ""
    if tail:
        out.append((style, tail))
        used += cell_width(tail)
    if used < width:
        out.append(("", " " * (width - used)))
    return out
