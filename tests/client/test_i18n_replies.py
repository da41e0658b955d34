"""The replies to what a person types, in their language: every command word of French,
German, Italian and Korean typed bare, with wrong or unknown arguments, out of its phase, and
the help and LAN words, at several moments of a game, are answered without an English word
of the program's vocabulary and without the engine's own English sentence."""

import functools
import re

import belfort
import pytest
from belfort import new_game

from client.controller import Controller
from client.i18n import localize_line, localize_token, using
from client.i18n.vocabulary import KEYWORDS, TOPICS, VERBS
from client_helpers import StateDriver, random_states
from babel.messages.pofile import read_po
from test_i18n_native import (LANGS, LOANWORDS, LOCALE, NAMES_LOWER, _strings, _words,
                              english_vocabulary)

# wrong arguments a player may type after any command word
ARGS = ("", "zzz", "#999", "#17", "#17:zzz", "zzz@3", "99", "0 0 0", "forest=9", "forest=x",
        "2:zzz", "gate9", "discount=zz", "1 2 3 4 5 6 7 8")
# lines that reach each refusal of the engine's command reader
ENGINE_LINES = ("keep #17 drop #3", "keep #17 drop #3:zzz", "place elf desk x",
                "spread elf forest=1 forest=2", "spread dwarf forest=1", "spread elf wood=1",
                "activate desk", "activate thieves from", "activate thieves from x",
                "activate bandits each 1:gold", "activate thieves each x", "activate gate0",
                "activate gate0 gate9", "activate gate0 gate1 tower@1",
                "activate tower@1 discount=zz", "activate tower@1", "np-mark zz", "hire #3 zz",
                "buy-card zz", "show x:y", "discard #3", "wall guild", "build #17 thieves",
                "exchange metal", "sell gold", "guild zzz", "crest 9999", "build #17 tower@9")
# words of the game, in the player's language, put in the wrong places
GAME_WORDS = (("elf", "arg"), ("dwarf", "arg"), ("wood", "arg"), ("gold", "arg"),
              ("tower", "card"), ("forest", "area"), ("thieves", "arg"), ("keep", "card"))


# Words spelled as the English ones, in their own language's sense, that the replies use
# (test_i18n_native allows each language's own such words; these appear only in replies).
# ASCII (the character set commands are written in) is the same word everywhere.
REPLY_SAME_SPELLING = {"fr": {"activation", "arguments", "mode", "ascii"}, "de": {"ascii"},
                       "it": {"computer", "ascii"}, "ko": {"ascii"}}


# Latin words a Korean reply may show: the keys, the network and the character set (and the
# example players' names, allowed as in test_i18n_native)
KOREAN_LATIN = {"esc", "lan", "ascii"}


@functools.cache
def english_words():
    """Every word of the English catalog of three letters or more."""
    with open(LOCALE / "belfort.pot", "rb") as fp:
        return {w for s in _strings(read_po(fp), False) for w in _words(s) if len(w) >= 3}


def states():
    """(where, game, seat): the setup, the placement, the actions, a 2-player game."""
    out = [("setup", new_game(4, {"guilds": "advanced"}, seed=3), 0)]
    seen = set()
    for game, seat in (random_states(players=4, seed=7, every=5, limit=40) +
                       random_states(players=2, seed=8, every=9, limit=20)):
        where = f"{game.phase} {game.n}p"
        if where not in seen:
            seen.add(where)
            out.append((where, game, seat))
    return out


def lines(lang):
    """Wrong and half-right lines typed in `lang`."""
    verbs = [forms[0] for forms in VERBS[lang].values()]
    words = [localize_token(w, lang, ctx) for w, ctx in GAME_WORDS]
    keywords = [forms[0] for forms in KEYWORDS[lang].values()]
    out = [f"{v} {a}".strip() for v in verbs for a in ARGS]
    out += [f"{v} {w}" for v in verbs for w in words + keywords]
    out += [f"{v} {w} {x}" for v in verbs for w in words[:3] for x in words[3:]]
    out += [f"{v} {w} 2" for v in verbs for w in words]
    help_word = VERBS[lang]["help"][0]
    out += [f"{help_word} zzz", f"{help_word} #999", f"{help_word} {words[0]} zzz"]
    out += [f"{help_word} {t[0]}" for t in TOPICS[lang].values()]
    # each way the command reader refuses a line, written in the player's words
    out += [localize_line(e, lang) for e in ENGINE_LINES]
    # the LAN commands in a game on this computer (handoff and waiting are typed in English
    # in every language, as their help shows them)
    out += [f"{w} {a}".strip() for w in ("handoff", "waiting", VERBS[lang]["say"][0],
                                         VERBS[lang]["again"][0], VERBS[lang]["evening"][0])
            for a in ("", "2", "zzz")]
    out += ["zzz", "#17", "42", "?", "bild #17", "plase elf"]
    return out


def _latin(text):
    return {w.lower() for w in re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)*", text)}


def english_in(reply_text, typed, vocabulary, lang):
    """The English words of `reply_text` that the person did not type."""
    words = _words(reply_text)
    if lang == "ko":
        # a Korean particle is written onto the word before it ('build'를): the Latin words
        words |= _latin(reply_text)
    return (words & vocabulary) - _words(typed) - _latin(typed)


def engine_sentence(typed, lang, game, seat):
    """The engine's English reason for `typed`, if it refuses the line as it reads it."""
    from client.i18n import canonical_line
    line = canonical_line(typed, lang)
    try:
        belfort.apply(game.copy(), belfort.parse_command(line), seat)
    except belfort.CommandSyntaxError as exc:
        return str(exc.reason)
    except belfort.IllegalCommandError as exc:
        return str(exc.reason)
    except (ValueError, IndexError, KeyError, TypeError, OverflowError):
        return None
    return None


@pytest.mark.parametrize("lang", LANGS)
def test_every_wrong_line_is_answered_in_the_players_language(lang):
    vocabulary = english_vocabulary(lang) - REPLY_SAME_SPELLING[lang]
    if lang == "ko":
        # Korean is written in Hangul: any English word of the program is English left over,
        # even one the Korean catalog also shows somewhere (a command in an example)
        vocabulary |= english_words() - LOANWORDS - KOREAN_LATIN - NAMES_LOWER
    found = {}
    tried = 0
    for where, game, seat in states():
        for typed in lines(lang):
            driver = StateDriver(game.copy(), seat, apply_commands=False)
            with using(lang):
                reply = Controller(driver).handle(typed)
            texts = [reply.text or "", str(reply.title or "")] + \
                [ln for ln in reply.lines if isinstance(ln, str)]
            said = "\n".join(texts)
            tried += 1
            english = english_in(said, typed, vocabulary, lang)
            raw = engine_sentence(typed, lang, game, seat)
            if raw and len(raw) > 12 and raw in said:
                english.add(f"<engine: {raw}>")
            # "did you mean 'abend'?" to someone who typed abend is no answer
            first = typed.split()[0] if typed.split() else ""
            if first and f"'{first}'?" in said:
                english.add(f"<suggests what was typed: {first}>")
            for w in english:
                found.setdefault(w, (where, typed, said[:160]))
    assert tried > 1000
    assert not found, "\n".join(f"{w}: {v}" for w, v in sorted(found.items()))


@pytest.mark.parametrize("lang", LANGS)
def test_the_plain_program_answers_in_the_players_language(lang, tmp_path, monkeypatch):
    """The same lines typed into --plain through a pipe (a local game at its start)."""
    import io

    from client.driver import LocalDriver, seat_names
    from client.plain import PlainUI
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    typed = lines(lang)[::7] + [f"{VERBS[lang]['board'][0]}"]
    out = io.StringIO()
    with using(lang):
        driver = LocalDriver(seat_names("Ana", 3), seed="4", bot_level="random", pace=0)
        PlainUI(driver, inp=io.StringIO("\n".join(typed) + "\n"), out=out).run()
    vocabulary = english_vocabulary(lang) - REPLY_SAME_SPELLING[lang]
    found = sorted(english_in(out.getvalue(), "\n".join(typed), vocabulary, lang))
    assert not found, found


# Every refusal of the command reader, whatever the moment of the game (as the English
# engine reads the line: the client first turns the player's words into these)
READER_LINES = ENGINE_LINES + (
    "keep zzz", "place", "place zzz", "place elf", "spread elf 2", "spread elf forest=x",
    "spread elf quarry=2", "crest", "crest x", "build", "build #17", "build #17 zzz", "wall",
    "guild", "buy", "buy gold", "hire", "bank x", "buy-card", "discard", "activate",
    "activate #5 tower@1 discount=zz", "activate #5 gate0 gate9", "activate #5 gate0 gate1 tower@1",
    "activate #5 gate0 gate1 tower@1 keep@1", "zzz", "", "plače", "np-mark zz")


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_of_the_command_reader_is_said_in_the_players_language(lang):
    from client.reasons import translate_reason
    vocabulary = english_vocabulary(lang) - REPLY_SAME_SPELLING[lang]
    found, reached = {}, 0
    for line in READER_LINES:
        try:
            belfort.parse_command(line)
        except belfort.CommandSyntaxError as exc:
            with using(lang):
                said = translate_reason(exc.reason)
            reached += 1
            assert said != str(exc.reason), (line, said)
            for w in english_in(said, localize_line(line, lang), vocabulary, lang):
                found.setdefault(w, (line, said))
    assert reached >= 40
    assert not found, found
