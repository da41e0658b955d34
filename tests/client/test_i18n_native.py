"""Each language as its players read it: every screen, panel, help topic and log sentence
rendered in French, German, Italian and Korean has no English word of the program's own
vocabulary, no text cut to fit its column, and (Korean) no particle that does not match the
final sound of the word before it.

The English vocabulary is every word of the English catalog (the .pot) that the language's
own catalog never uses; what remains allowed is listed in LOANWORDS with the reason."""

import functools
import pathlib
import re

import belfort
import pytest
from belfort import apply

from client import panels, render, rules_text
from client.controller import prompt_text, turn_hint
from client.i18n import _, cell_width, korean, using
from client.i18n import width as width_module
from client.words import Describer, Namer
from client_helpers import finished_game, random_states

babel = pytest.importorskip("babel")
from babel.messages.pofile import read_po  # noqa: E402

LOCALE = pathlib.Path(__file__).resolve().parents[2] / "client" / "locale"
LANGS = ("fr", "de", "it", "ko")
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]
# Words allowed in every language: the engine's default seat names, the example that shows
# English commands are accepted too ("… and place elf desk are the same command"), the
# program's name, its command line (belfort play --resume, belfort rejoin, --ruleset
# standard), the keys
# (Tab, Esc, Ctrl-C …), LAN, and the tableau command (a board gamers' word everywhere).
LOANWORDS = {"player", "place", "elf", "desk", "standard", "belfort", "ten-space-taxes",
             "play", "resume", "ruleset", "tab", "esc", "enter", "pgup", "pgdn", "ctrl-c",
             "ctrl-e", "ctrl-f", "ctrl-z", "lan", "tableau", "rejoin"}
# Words each language spells as English does, used in the English sense (French "action",
# German "Bank", Italian "bonus"): the language's own words, not English left behind.
SAME_SPELLING = {
    "fr": {"accents", "action", "actions", "audit", "bandits", "bonus", "camp", "gnome",
           "interactive", "mine", "pub", "points", "piles", "score", "second", "section",
           "table", "taxes", "total", "types"},
    "de": {"bank", "bonus", "gold", "hand", "lobby", "name", "phase", "ring", "rest", "symbol",
           "symbols", "mkt"},
    "it": {"bonus", "pool", "pub", "video"},
    "ko": set(),
}


NAMES_LOWER = {n.lower() for n in NAMES}
SEAT_NAME = re.compile(r"\b(Player \d|" + "|".join(NAMES) + r")\b")


def _words(text):
    """The words of `text`, whole (accented letters included: "unité" is not "unit")."""
    return {w.lower() for w in re.findall(r"[^\W\d_](?:[\w'’-]*[^\W\d_])?", text)}


def _strings(cat, translated):
    for m in cat:
        if not m.id:
            continue
        values = (m.string if isinstance(m.string, (tuple, list)) else (m.string,)) \
            if translated else (m.id if isinstance(m.id, (tuple, list)) else (m.id,))
        for s in values:
            if s:
                yield re.sub(r"\{[^}]*\}|%\([^)]*\)\w", " ", s)


@functools.cache
def english_vocabulary(lang):
    with open(LOCALE / "belfort.pot", "rb") as fp:
        english = set().union(*(_words(s) for s in _strings(read_po(fp), False)))
    with open(LOCALE / lang / "LC_MESSAGES" / "belfort.po", "rb") as fp:
        catalog = read_po(fp, locale=lang)
    # the language's own words: those one of its translations uses where the English does
    # not (a word only ever copied over from the English is what this test looks for)
    own = set(NAMES_LOWER)
    for m in catalog:
        if m.id:
            source = set().union(*map(_words, _strings([m], False)))
            own |= set().union(*map(_words, _strings([m], True))) - source
    return {w for w in english - own - LOANWORDS - SAME_SPELLING[lang] if len(w) >= 3}


@functools.cache
def states():
    return (list(random_states(players=4, seed=5, every=9, limit=40))[::2] +
            list(random_states(players=2, seed=2, every=13, limit=15))[::2] +
            list(random_states(players=5, seed=7, every=11, limit=30))[::2])


def everything(lang):
    """Every text a player of `lang` reads: (where, text)."""
    out = []
    rs = belfort.standard_ruleset()
    with using(lang):
        for game, seat in states():
            view = belfort.seat_view(game, seat)
            nm = Namer(NAMES[:game.n], seat)
            legal = belfort.legal_commands(game, seat)
            hint = turn_hint(view, legal)
            for width, height in ((80, 24), (160, 50)):
                ctx = render.Context(nm, game.rs, turn_hint=hint)
                out.append((f"screen {width}", render.as_text(
                    render.screen(view, ctx, width, height))))
            out.append(("prompt", prompt_text(view, legal, nm)))
            out.append(("score", render.as_text(panels.score_lines(view, nm, game.rs))))
            out.append(("tableau", render.as_text(panels.tableau_lines(view, nm, game.rs))))
        game = finished_game(players=4, seed=3)
        view = belfort.seat_view(game, 0)
        nm = Namer(NAMES[:4], 0)
        ctx = render.Context(nm, game.rs)
        out.append(("final", render.as_text(render.final_lines(view, ctx, (True, "ok")))))
        for topic in sorted(rules_text.topics(rs)):
            title, text = rules_text.lookup(rs, topic)
            out.append((f"help {topic}", f"{title}\n{text}"))
        for seed in (3, 4):
            game = belfort.new_game(NAMES[:4], {"guilds": "advanced"}, seed=seed)
            bot = belfort.RandomBot(seed)
            describer = Describer(Namer(NAMES[:4], 0), game.rs, list(game.guilds))
            while not game.is_over():
                seat = game.waiting_for()[0]
                events = apply(game, bot.choose(game, seat), seat)
                out += [("log", s) for s in
                        describer.sentences(events, belfort.seat_view(game, 0))]
        out.append(("quit", _("Leave the game? k: keep it for later · a: abandon it · "
                             "other key: stay")))
        out.append(("quit", _("Leave the game? (y/n)")))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_word_is_left(lang):
    vocabulary = english_vocabulary(lang)
    found = sorted({(w, where) for where, text in everything(lang)
                    for w in _words(text) if w in vocabulary})
    assert not found, found[:20]


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_is_cut_to_fit(lang, monkeypatch):
    """Every shown name and sentence fits its column: no word is cut by the layout (the
    seats' own names, which the players chose, may be)."""
    cuts = []
    truncate = width_module.truncate

    def watched(text, width, ellipsis=width_module.ELLIPSIS):
        out = truncate(text, width, ellipsis)
        lost = text[len(out.rstrip(ellipsis)):] if out != text else ""
        if re.search(r"\w", lost) and not SEAT_NAME.search(text):
            cuts.append((text.strip(), width))
        return out

    def fit(text, width, align="<", ellipsis=width_module.ELLIPSIS):
        return width_module.pad(watched(text, width, ellipsis), width, align)

    for module in (render, panels):
        monkeypatch.setattr(module, "truncate", watched)
        monkeypatch.setattr(module, "fit", fit)
    everything(lang)
    assert not cuts, sorted(set(cuts))[:20]


def test_the_leave_questions_fit_the_prompt_line():
    for lang in LANGS:
        with using(lang):
            for text in (_("Leave the game? k: keep it for later · a: abandon it · other "
                           "key: stay"), _("Leave the game? (y/n)")):
                assert cell_width(text) + 2 <= 80, (lang, text)


DOUBLE = re.compile(r"(이\(가\)|가\(이\)|을\(를\)|를\(을\)|은\(는\)|는\(은\)|와\(과\)|과\(와\)|"
                    r"\(으\)로)")


def test_korean_particles_match_the_words_before_them():
    bad, left = [], []
    for where, text in everything("ko"):
        bad += [(where, b) for b in korean.mismatched(text)]
        left += [(where, m.group(0), text[max(0, m.start() - 10):m.end()])
                 for m in DOUBLE.finditer(text)]
    assert not bad, bad[:10]
    # a double form stays only where nothing readable comes before it
    assert all(korean.final_sound(ctx[:-len(form)]) is None for _w, form, ctx in left), \
        left[:10]
