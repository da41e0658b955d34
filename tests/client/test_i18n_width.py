"""Layouts measure text in terminal cells (Korean takes two cells per syllable,
combining accents none), so padded columns line up in every language."""

import pytest

from client.i18n import cell_width, fit, fit_fragments, fragments_width, pad, truncate, wrap
from client.i18n import glossary

DECOMPOSED = "Bibliothe\u0300que"          # è as e + combining grave accent


def test_cell_width():
    assert cell_width("") == 0
    assert cell_width("Tower") == 5
    assert cell_width("타워") == 4
    assert cell_width("게이트하우스 3") == 14
    assert cell_width("Gärten") == 6
    assert cell_width(DECOMPOSED) == 12
    assert cell_width("a\x1b\tb") == 2            # control characters take no cell
    assert cell_width("…·▶") == 3


@pytest.mark.parametrize("text,width,expected", [
    ("Tower", 8, "Tower   "),
    ("타워", 6, "타워  "),
    ("타워", 4, "타워"),
    ("타워", 2, "타워"),          # pad never cuts
])
def test_pad_left(text, width, expected):
    assert pad(text, width) == expected


def test_pad_right_and_centre():
    assert pad("타", 5, ">") == "   타"
    assert pad("타", 5, "^") == " 타  "
    assert pad("ab", 5, "^", fill="·") == "·ab··"


@pytest.mark.parametrize("text,width,expected", [
    ("Bibliothèque", 6, "Bibli…"),
    ("Bibliothèque", 12, "Bibliothèque"),
    ("게이트하우스", 7, "게이트…"),     # 6 cells + … = 7
    ("게이트하우스", 6, "게이…"),       # a wide char never straddles the edge: 5 cells
    ("게이트하우스", 1, "…"),
    ("게이트하우스", 0, ""),
    (DECOMPOSED, 10, "Bibliothe\u0300…"),   # the accent stays with its letter
])
def test_truncate(text, width, expected):
    out = truncate(text, width)
    assert out == expected
    assert cell_width(out) <= width


def test_truncate_without_ellipsis():
    assert truncate("게이트하우스", 5, ellipsis="") == "게이"
    assert truncate("Tower", 3, ellipsis="") == "Tow"


@pytest.mark.parametrize("width", range(1, 16))
def test_fit_is_always_exactly_the_width(width):
    for text in ("Tower", "게이트하우스", "Corps de garde", "Gärten", DECOMPOSED, "", "타a타"):
        for align in "<>^":
            assert cell_width(fit(text, width, align)) == width


def test_wrap_by_cells():
    text = "게이트하우스 2 에 재산 마커를 놓았습니다"
    lines = wrap(text, 12)
    assert all(cell_width(line) <= 12 for line in lines)
    assert " ".join(lines) == text
    assert wrap("a\n\nb c", 3) == ["a", "", "b c"]
    assert wrap("Bibliothekars-Gilde", 8) == ["Biblioth", "ekars-Gi", "lde"]
    assert wrap("게이트하우스", 5) == ["게이", "트하", "우스"]
    assert wrap("타", 1) == ["타"]                 # cannot be split further
    with pytest.raises(ValueError):
        wrap("x", 0)


def test_style_fragments():
    frags = [("class:p0", "A "), ("class:free", "게이트하우스"), ("", " 3")]
    assert fragments_width(frags) == 16
    out = fit_fragments(frags, 9)
    assert out == [("class:p0", "A "), ("class:free", "게이트"), ("class:free", "…")]
    out = fit_fragments(frags, 10)          # a wide char does not fit: one space instead
    assert out == [("class:p0", "A "), ("class:free", "게이트"), ("class:free", "…"),
                   ("", " ")]
    assert fit_fragments(frags, 20)[-1] == ("", "    ")
    for width in range(0, 18):
        assert fragments_width(fit_fragments(frags, width)) == width


def test_every_short_form_fits_three_cells_and_lines_up():
    """The compact layout's abbreviations, padded in a column, line up in every language."""
    for term in glossary.TERMS:
        for lang, name in term.names.items():
            if name.short:
                assert cell_width(pad(name.short, 4)) == 4, (term.key, lang)
