"""Every screen, panel, log sentence, refusal and help topic goes through
the translation functions (rendered in the pseudo-locale, no English is left outside its
⟦ ⟧ marks), and the layouts fit at 80×24 and 160×50 in every language, Korean included
(measured in terminal cells)."""

import functools
import pathlib
import re
from string import Formatter

import belfort
import pytest
from belfort import apply

from client import panels, render, rules_text
from client.controller import Controller, prompt_text, turn_hint
from client.i18n import LANGUAGES, PSEUDO, cell_width, using, vocabulary
from client.i18n.harness import find_untranslated
from client.words import Describer, Namer
from client_helpers import StateDriver, finished_game, random_states

SIZES = [(80, 24), (160, 50)]
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]
# Text that is not a message: seat names, the seat letters of the tables (A3, B1(1M)),
# the worker letters (e elf, d dwarf, E/D masters, [g] a gnome), board symbols in the
# engine's spelling where the player types them, command words in logged steps.
ALLOW = set(NAMES) | {"BELFORT", "Player"}      # "Player N": the engine's default names
# The pseudo-locale has no command vocabulary: the words a player types (verbs, cards,
# guilds, areas, topics …) are shown in English there, as in an English session.
TYPED = {w for ctx in vocabulary.CONTEXTS for canon, _forms in vocabulary.entries("en", ctx)
         for w in re.split(r"[-\s]", canon) + canon.split() if w}
TOKEN = re.compile(r"^(?:[A-Z]\d.*|[A-Za-z]{1,2}\d*|[a-z]+@\d[ab]?|gate\d@\d|#\d+.*)$")


def allowed_words(text):
    """Words of `text` outside ⟦ ⟧ that are board notation rather than language."""
    return {w for w in re.findall(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]", text)
            if TOKEN.match(w)}


@functools.cache
def states():
    out = [(g, s) for g, s in random_states(players=4, seed=5, every=9, limit=40)]
    out += [(g, s) for g, s in random_states(players=2, seed=2, every=13, limit=15)]
    return out


def sentences_of_a_game(players, seed):
    """Every log sentence of a whole random game, as seat 0 reads them."""
    game = belfort.new_game(players, {"guilds": "advanced"}, seed=seed)
    bot = belfort.RandomBot(seed)
    nm = Namer(game.names, 0)
    describer = Describer(nm, game.rs, list(game.guilds))
    out = []
    while not game.is_over():
        seat = game.waiting_for()[0]
        events = apply(game, bot.choose(game, seat), seat)
        out += describer.sentences(events, belfort.seat_view(game, 0))
    return tuple(out)


def screen_text(game, seat, width, height, log=()):
    view = belfort.seat_view(game, seat)
    nm = Namer(game.names, seat)
    legal = belfort.legal_commands(game, seat)
    ctx = render.Context(nm, game.rs, log=list(log), turn_hint=turn_hint(view, legal))
    lines = render.screen(view, ctx, width, height)
    return lines, prompt_text(view, legal, nm)


def untranslated(text_fn, extra=()):
    """Findings of English left in what text_fn() shows, in the pseudo-locale; board
    notation (A3, tower@3, #17) is allowed."""
    with using(PSEUDO):
        text = text_fn()
    allow = ALLOW | TYPED | set(extra) | allowed_words(_strip_marked(text))
    return find_untranslated(text_fn, allow=allow)


def _strip_marked(text):
    return re.sub(r"⟦[^⟧]*⟧", " ", text)


@pytest.mark.parametrize("width,height", SIZES)
def test_every_screen_is_translated(width, height):
    for game, seat in states():
        def draw():
            lines, prompt = screen_text(game, seat, width, height)
            return render.as_text(lines) + "\n" + prompt
        assert untranslated(draw) == [], (game.phase, game.step)


def test_every_log_sentence_is_translated():
    for players, seed in ((4, 3), (2, 4), (5, 6)):
        def say():
            return "\n".join(sentences_of_a_game(players, seed))
        found = untranslated(say)
        assert found == [], "\n".join(map(str, found[:10]))


def test_the_final_scoreboard_and_panels_are_translated():
    game = finished_game(players=4, seed=3)
    view = belfort.seat_view(game, 0)
    nm = Namer(game.names, 0)

    def final():
        ctx = render.Context(nm, game.rs)
        return render.as_text(render.final_lines(view, ctx, (True, "ok"), width=80))

    def score():
        return render.as_text(panels.score_lines(view, nm, game.rs, width=160) +
                              panels.score_lines(view, nm, game.rs, width=80, just=3))

    def tableau():
        return render.as_text(panels.tableau_lines(view, nm, game.rs, width=80))
    for fn in (final, score, tableau):
        found = untranslated(fn)
        assert found == [], (fn.__name__, found[:5])


def test_every_help_topic_is_translated():
    rs = belfort.standard_ruleset()
    for topic in sorted(rules_text.topics(rs)):
        def show():
            title, text = rules_text.lookup(rs, topic)
            return title + "\n" + text
        found = untranslated(show)
        assert found == [], (topic, found[:5])


def test_refusals_and_client_replies_are_translated():
    for game, seat in states()[:25]:
        driver = StateDriver(game.copy(), seat)
        ctl = Controller(driver)
        for typed in ("?", "score", "tableau", "tableau nobody", "undo", "help nothing",
                      "frobnicate", "place", "build #99 tower@9", "keep #1", "crest 9",
                      "activate miners", "pass", "buy wood"):
            def reply():
                r = ctl.handle(typed)
                return "\n".join([r.text, str(r.title)] + [
                    ln.text() if isinstance(ln, render.Line) else ln for ln in r.lines])
            found = untranslated(reply, extra=typed.split())
            assert found == [], (typed, game.phase, found[:5])


@pytest.mark.parametrize("lang", list(LANGUAGES) + [PSEUDO])
@pytest.mark.parametrize("width,height", SIZES)
def test_layouts_fit_in_every_language(lang, width, height):
    """Each frame is exactly `height` lines of exactly `width` terminal cells."""
    with using(lang):
        log = sentences_of_a_game(4, 3)[:60]
        for game, seat in states()[::6]:
            view = belfort.seat_view(game, seat)
            nm = Namer(game.names, seat)
            # the log in the language of the test (sentences are made when described)
            ctx = render.Context(nm, game.rs, log=[("", s) for s in log])
            lines = render.screen(view, ctx, width, height)
            assert len(lines) == height
            for ln in lines:
                assert ln.width() == width == cell_width(ln.text()), (lang, ln.text())


def test_a_french_session_shows_no_english_message():
    """Catalog mode: the screens, panels, help topics and log of a French session contain
    none of the catalog's English texts (a message missing from the French catalog, or
    shown without going through it). Seat names and board notation are not messages."""
    rs = belfort.standard_ruleset()
    game = finished_game(players=4, seed=3)
    view = belfort.seat_view(game, 0)
    nm = Namer(game.names, 0)

    def everything():
        parts = []
        for g, s in states()[::5]:
            lines, prompt = screen_text(g, s, 80, 24)
            parts += [render.as_text(lines), prompt]
        ctx = render.Context(nm, game.rs)
        parts.append(render.as_text(render.final_lines(view, ctx, (True, "ok"))))
        parts.append(render.as_text(panels.score_lines(view, nm, game.rs)))
        parts.append(render.as_text(panels.tableau_lines(view, nm, game.rs)))
        parts += sentences_of_a_game(4, 3)
        for topic in sorted(rules_text.topics(rs)):
            title, text = rules_text.lookup(rs, topic)
            parts += [title, text]
        return "\n".join(parts)
    # English words the French glossary shares ("Pub", "Bandits", "gnome") are skipped
    # by the harness; the command words typed in English stay allowed
    found = find_untranslated(everything, lang="fr", allow=ALLOW | {"drop", "none"})
    assert found == [], "\n".join(map(str, found[:10]))


# --- the networked session's alerts and stop verdicts (net.session.msgs.Msg) -----------------

def net_templates():
    """Every message net/ marks for the catalog (read from the template the catalog tools
    extract), so a message added to net later is covered without listing it here."""
    from babel.messages.pofile import read_po
    from client.i18n.catalog import DOMAIN
    pot = pathlib.Path(render.__file__).parent / "locale" / f"{DOMAIN}.pot"
    with open(pot, "rb") as fp:
        catalog = read_po(fp)
    return sorted(m.id for m in catalog if isinstance(m.id, str) and m.id
                  and any(path.startswith("net/") for path, _line in m.locations))


def sample_msg(template):
    """`template` filled the way net fills it: seats named by `Names`, nested messages,
    game nouns as `Word`s, numbers; values that are not language are names and codes."""
    from belfort.reasons import Word
    from net.session.effects import Names
    from net.session.msgs import N_, Msg
    names = Names(NAMES)
    samples = {
        "who": names.seat(1), "seats": names.seats([1, 2]), "target": "Cy", "host": "Di",
        "name": "Bo", "seated": "Ana", "players": "Ana, Bo",
        "what": Msg(N_("its shuffle of deck epoch {epoch}"), epoch=1),
        "by": Msg(N_(" (sent by seat {seat})"), seat=2),
        "why": Msg(N_("simultaneous decisions go by commit-reveal")),
        "problem": Msg(N_("its master secret does not match its commitment")),
        "text": Msg(N_("{who} withheld {what} for more than {limit} s while still connected"),
                    who=names.seat(2), what=Msg(N_("its reveal of its seed share")), limit=15),
        "hashes": Msg(N_("{seats} has {hash}"), seats=names.seats([0]), hash="a1b2c3"),
        "faults": Msg(N_("seat {seat}: {fault}"), seat=2, fault="audit/rekey-mismatch"),
        "phase": Word("phase", "placement"), "real": Word("card", "tower"),
        "claimed": Word("card", "keep"), "type": Word("card", "inn"),
    }
    fields = {f for _lit, f, _spec, _conv in Formatter().parse(template) if f}
    return Msg(template, **{f: samples.get(f, 7) for f in sorted(fields)})


# sample values that are codes or names, not English (see sample_msg)
NET_SAMPLES = ALLOW | {"audit", "rekey", "mismatch", "a1b2c3"}


def alert_text_of(msg, width=80):
    from net.alerts import Alert
    ctx = render.Context(Namer(NAMES, 0), belfort.standard_ruleset(),
                         alerts=[Alert("cheat", msg, 1)])
    return render.alert_lines(ctx, width)


def test_every_net_alert_and_stop_reason_is_translated():
    """Cheat, desync, error and audit alerts, stop verdicts, lobby lines: each net message,
    filled as net fills it, shows no English in the pseudo-locale (its nested messages
    and game nouns too) and comes out in each language with every placeholder filled."""
    from client.i18n import _
    from client.i18n.catalog import translations
    from client.netmessages import net_text
    templates = net_templates()
    assert len(templates) > 150          # the alerts of core, dispute, forks, desync, …
    for template in templates:
        msg = sample_msg(template)
        found = untranslated(lambda: render.as_text(alert_text_of(msg)), extra=NET_SAMPLES)
        assert found == [], (template, found[:3])
        for lang in LANGUAGES:
            if lang == "en":
                continue
            assert template in translations(lang)._catalog, (lang, template)
            with using(lang):
                shown, same = net_text(msg), _(template) == template
            # filled (a broken translation falls back to the English text)
            assert "{" not in shown and (shown != str(msg) or same), \
                (lang, template, shown)


def test_net_alerts_fit_the_compact_layout_in_every_language():
    """Korean text is measured in terminal cells: every alert wraps into lines of at most
    80 cells, and none takes more than a few lines of the 24-line window."""
    for lang in LANGUAGES:
        with using(lang):
            for template in net_templates():
                lines = alert_text_of(sample_msg(template))
                assert all(ln.width() == 80 == cell_width(ln.text()) for ln in lines)
                assert len(lines) <= 6, (lang, template, render.as_text(lines))
