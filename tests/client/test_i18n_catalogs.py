"""The catalogs: every marked message is in the template, every language's catalog
is complete (nothing untranslated or fuzzy, same placeholders), and the compiled .mo files
that ship in the package say exactly what their .po files say."""

import fnmatch
import gettext
import importlib.util
import pathlib
import tomllib

import pytest
from babel.messages.pofile import read_po

from client.i18n import LANGUAGES
from client.i18n.catalog import catalog_path
from client.i18n.language import PLURAL_FORMS

ROOT = pathlib.Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def load_tool():
    spec = importlib.util.spec_from_file_location("i18n_tool", ROOT / "scripts" / "i18n.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


TOOL = load_tool()


def po(lang):
    with open(TOOL.po_path(lang), "rb") as fp:
        return read_po(fp, locale=lang)


def test_the_template_holds_every_marked_message_of_the_source():
    """A message marked with _(), N_(), L_(), ngettext() … in client/, belfort/ or net/ that is not
    in client/locale/belfort.pot means: run `python scripts/i18n.py all`, then translate."""
    extracted = TOOL._ids(TOOL.extract())
    assert extracted, "no marked messages found at all"
    assert extracted == TOOL._ids(TOOL.read(TOOL.POT))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_catalog_is_complete(lang):
    """Nothing missing, untranslated or fuzzy; placeholders kept; the right Plural-Forms;
    the compiled .mo up to date (the same checks as `python scripts/i18n.py check`). A
    language still with its translators (AWAITING_TRANSLATION) may have untranslated
    entries, nothing else."""
    assert TOOL.blocking(lang, TOOL.problems(lang)) == []


def test_a_mo_is_stale_for_what_it_says_not_for_the_babel_that_wrote_it(monkeypatch):
    """The check reads a compiled catalog's messages and headers: compiled by another Babel
    release (only its Generated-By line differs) it is current; one message changed or
    missing, it is stale."""
    cat = po("fr")
    data = TOOL.mo_bytes(cat)
    assert TOOL.mo_current("fr", data)
    real = TOOL.Catalog.mime_headers
    monkeypatch.setattr(TOOL.Catalog, "mime_headers", property(
        lambda c: [(k, "Babel 0.0.1-other\n" if k == "Generated-By" else v)
                   for k, v in real.fget(c)], real.fset))
    other_babel = TOOL.mo_bytes(cat)
    assert other_babel != data and b"Babel 0.0.1-other" in other_babel
    assert TOOL.mo_meaning(other_babel) == TOOL.mo_meaning(data)
    monkeypatch.undo()
    entry = next(m for m in cat if m.id and isinstance(m.id, str) and m.string)
    entry.string = entry.string + " (changed)"
    assert not TOOL.mo_current("fr", TOOL.mo_bytes(cat))
    cat.delete(entry.id, context=entry.context)
    assert not TOOL.mo_current("fr", TOOL.mo_bytes(cat))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_shipped_mo_says_what_its_po_says(lang):
    """Load the .mo the way the program does (package resources) and compare every
    message, plural forms included, with the .po read by Babel."""
    with catalog_path(lang).open("rb") as fp:
        mo = gettext.GNUTranslations(fp)
    catalog = po(lang)
    expected, untranslated = {}, set()
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        ctx = f"{m.context}\x04" if m.context else ""
        strings = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        if not all(strings):
            # untranslated: gettext gives the English (Babel compiles plurals as English)
            untranslated.add(ctx + (m.id[0] if isinstance(m.id, (list, tuple)) else m.id))
            continue
        if isinstance(m.id, (list, tuple)):
            for i, s in enumerate(m.string):
                expected[(ctx + m.id[0], i)] = s
        else:
            expected[ctx + m.id] = m.string
    got = {k: v for k, v in mo._catalog.items() if k != "" and
           (k[0] if isinstance(k, tuple) else k) not in untranslated}
    assert got == expected
    assert mo.info()["plural-forms"] == PLURAL_FORMS[lang]
    assert mo.info()["language"] == lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_are_checked(lang, tmp_path, monkeypatch):
    """The check catches a translation that drops or invents a placeholder."""
    catalog = po(lang)
    for m in catalog:
        if m.id == "unknown word {word!r}":
            m.string = "oops {mot}"
    path = tmp_path / "belfort.po"
    TOOL.write(path, catalog)
    monkeypatch.setattr(TOOL, "po_path", lambda _lang: path)
    assert any("placeholders ['mot'] should be ['word']" in p for p in TOOL.problems(lang))


def test_the_check_finds_untranslated_and_fuzzy_entries(tmp_path, monkeypatch):
    catalog = po("fr")
    for m in catalog:
        if m.id == "unknown word {word!r}":
            m.string = ""
        if isinstance(m.id, tuple):
            m.flags.add("fuzzy")
    path = tmp_path / "belfort.po"
    TOOL.write(path, catalog)
    monkeypatch.setattr(TOOL, "po_path", lambda _lang: path)
    found = TOOL.problems("fr")
    assert any("is untranslated" in p for p in found)
    assert any("is fuzzy" in p for p in found)


def test_the_compiled_catalogs_are_package_data():
    """pip install ships the .mo files: pyproject's package-data covers every one of them."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = conf["tool"]["setuptools"]["package-data"]["client"]
    for lang in TRANSLATED:
        rel = TOOL.mo_path(lang).relative_to(ROOT / "client").as_posix()
        assert any(fnmatch.fnmatch(rel, p) for p in patterns), rel
    assert "babel" in " ".join(conf["project"]["optional-dependencies"]["test"])
    assert not any("babel" in d.lower() for d in conf["project"]["dependencies"])
