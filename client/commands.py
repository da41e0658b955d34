"""Command entry: turning what the person typed into one of the engine's legal commands,
and completion hints drawn from `legal_commands` + `command_text`.

The engine's canonical text always works. Shorthands accepted on top of it (each resolves
to exactly one legal command, or is refused with the engine's reason):
    keep #0 #1 #2            the kept cards in any order ('keep 0 1 2' too); the 'drop …'
                             part is added
    spread 2 1 0             counts for the areas of the worker kind being spread
    spread forest=2 mine=1   areas left out get 0; the kind is the one being spread
    discard #3 / show #3     the card's type is added
    any unique beginning     'build #17' when the card has one legal symbol, 'hire #20', …
    a number N               the N-th command of the last '?' listing
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import permutations
from typing import TYPE_CHECKING, Any

import belfort
from belfort.commands import named
from belfort.data import AREAS, CARD_TYPES, GUILDS, KINDS, SITE_ID, SPREAD_AREAS

from .i18n import L_, N_, _, active_language, localize_line, localize_token, ngettext
from .words import GUILD_TITLE, TITLE, card_types_in, cost_text, count_of, site_words

if TYPE_CHECKING:
    from belfort.commands import Command
    from belfort.ruleset import Ruleset

CLIENT_WORDS = {
    "help": L_("rules and commands: help TOPIC (a card, a guild, a phase, a command)"),
    "?": L_("list what you can do now"),
    "score": L_("the scores so far, and what a scoring now would give"),
    "tableau": L_("everyone's built cards: tableau [PLAYER]"),
    "log": L_("the whole game log"),
    "undo": L_("take back your last action (Ctrl-Z)"),
    "quit": L_("leave the game"),
}

VERB_META = {
    "keep": L_("choose the cards you keep, discard the others"),
    "np-dwarf": L_("put your non-player's dwarf on a guild"),
    "place": L_("put a worker on a plank"),
    "pass": L_("stop placing; spread the rest"),
    "spread": L_("send workers to the resource areas"),
    "crest": L_("take a crest at the King's camp"),
    "build": L_("build a card from your hand"),
    "wall": L_("build a wall"),
    "guild": L_("build a guild"),
    "activate": L_("use a worker you placed"),
    "buy": L_("buy 1 at the trading post"),
    "sell": L_("sell 1 at the trading post"),
    "exchange": L_("Merchants: wood/stone → metal"),
    "hire": L_("hire a gnome"),
    "bank": L_("take gold from a Bank"),
    "smith": L_("buy metal at a Blacksmith"),
    "buy-card": L_("buy a card (ends your turn)"),
    "end": L_("end your turn"),
    "discard": L_("discard a card"),
    "show": L_("show a card to the Spies"),
    "take": L_("take a shown card"),
    "np-take": L_("your non-player takes a card"),
    "np-mark": L_("your non-player marks a symbol"),
    "np-skip": L_("nothing for the non-player"),
}


def texts_of(legal: Iterable[Command]) -> dict[str, Command]:
    """{canonical text: command} for a list of legal commands."""
    return {belfort.command_text(c): c for c in legal}


def aliases(legal: Iterable[Command]) -> dict[str, Command]:
    """Extra texts that mean one legal command (keep in any order, without 'drop …')."""
    out: dict[str, Command] = {}
    for c in legal:
        if c[0] == "keep":
            for perm in permutations(named(c).kept):
                out["keep " + " ".join(f"#{x}" for x in perm)] = c
                out["keep " + " ".join(str(x) for x in perm)] = c    # the '#' left out
    return out


class Resolution(Exception):
    """Input that needs a message rather than a command (e.g. ambiguous shorthand)."""


ASCII_DIGITS = frozenset("0123456789")


def ascii_int(word: str) -> int | None:
    """The number written in the ASCII digits 0–9, else None. '３', '❾' and '²' pass
    str.isdigit() but are not numbers here (int() would read some and choke on others)."""
    if word and len(word) <= 9 and all(ch in ASCII_DIGITS for ch in word):
        return int(word)
    return None


def foreign_digit(text: str) -> str | None:
    """The first character that looks like a digit but is not one of 0–9, or None."""
    for ch in text:
        if (ch.isdigit() or ch.isnumeric()) and ch not in ASCII_DIGITS:
            return ch
    return None


def check_digits(text: str) -> None:
    """Raise Resolution when `text` writes a number with anything but 0–9."""
    ch = foreign_digit(text)
    if ch is not None:
        raise Resolution(_("'{char}' is not one of the digits 0–9: write numbers with 0–9 "
                           "only").format(char=ch))


def _words(text: str) -> list[str]:
    return text.strip().lower().split()


def resolve(text: str, legal: Sequence[Command],
            numbered: Sequence[Command] | None = None) -> Command | None:
    """The legal command meant by `text`, or None when no shorthand applies (then the
    caller lets the engine parse and judge the text itself, for its precise message)."""
    words = _words(text)
    if not words:
        return None
    check_digits(text)
    canon = texts_of(legal)
    words = _master_when_only_master_left(words, canon)
    norm = " ".join(words)
    if norm in canon:
        return canon[norm]
    extra = aliases(legal)
    if norm in extra:
        return extra[norm]
    if len(words) == 1 and (i := ascii_int(words[0])) is not None and numbered:
        if 1 <= i <= len(numbered):
            return numbered[i - 1]
        raise Resolution(_("there is no choice {i} in the list (1–{n})").format(
            i=i, n=len(numbered)))
    verb = words[0]
    if verb == "spread":
        cmd = _spread_shorthand(words[1:], legal)
        if cmd is not None:
            return cmd
    if verb in ("discard", "show") and len(words) >= 2 and any(c[0] == verb for c in legal):
        mine = {f"#{named(c).card}": c for c in legal if c[0] == verb}
        cards = [(w if w.startswith("#") else "#" + w).split(":")[0] for w in words[1:]]
        if len(cards) == 1 and cards[0] in mine:
            return mine[cards[0]]       # the legal tuple itself, as the engine listed it
        # the card that is not in the hand is the real problem: said before "one at a time"
        wrong = next((c for c in cards if c not in mine and c[1:].isdigit()), None)
        if wrong is not None:
            raise Resolution(_("{card} is not in your hand: {verb} one of your cards "
                               "({cards})").format(card=wrong, verb=local(verb, "verb"),
                                                   cards=", ".join(mine)))
        if len(cards) > 1:
            raise Resolution(_("{verb} takes one card at a time: type {verb} {card} "
                               "first").format(verb=local(verb, "verb"), card=cards[0]))
    # a unique beginning of one legal command
    matches = [c for t, c in canon.items() if t.split()[:len(words)] == words]
    if len(matches) == 1 and len(words) >= 2:
        return matches[0]
    return None


def _master_when_only_master_left(words: list[str], canon: Mapping[str, Command]) -> list[str]:
    """'place dwarf …' means the master dwarf when no plain dwarf is left to place (the
    engine's text needs 'master-dwarf'); the same for elves."""
    if len(words) < 2 or words[0] != "place" or words[1] not in ("elf", "dwarf"):
        return words
    starts = {tuple(t.split()[:2]) for t in canon}
    master = "master-" + words[1]
    if ("place", words[1]) not in starts and ("place", master) in starts:
        return ["place", master] + words[2:]
    return words


MISSING = {"card": N_("a card"), "symbol": N_("a board symbol"),
           "worker": N_("a worker (elf or dwarf)"), "guild": N_("a guild"),
           "resource": N_("a resource"), "area": N_("the areas and counts"),
           "discount": N_("a discount"), "plank": N_("where: desk, camp, a guild or a card"),
           "seat": N_("a player's seat number"), "number": N_("a number"),
           "word": N_("one more word")}


def local(text: str, context: str | None = None) -> str:
    """Canonical English command text (or one word of it) as the active language writes it."""
    lang = active_language()
    if context is None:
        return localize_line(text, lang)
    return localize_token(text, lang, context)


def _kind_of_word(word: str) -> str:
    if word.startswith("#") or word == "top":
        return "card"
    if word in SITE_ID or word.startswith("gate") or word == "none":
        return "symbol"
    if word in KINDS:
        return "worker"
    if word.startswith("discount="):
        return "discount"
    if "=" in word:
        return "area"
    if word in ("wood", "stone", "metal", "gold") or ":" in word:
        return "resource"
    if word in GUILDS:
        return "guild"
    if word in ("desk", "camp"):
        return "plank"
    if ascii_int(word) is not None:
        return "number"
    return "word"


def incomplete(text: str, legal: Sequence[Command]) -> str | None:
    """When `text` is the beginning of legal commands but not one itself: a sentence saying
    what is missing, with an example; else None."""
    words = _master_when_only_master_left(_words(text), texts_of(legal))
    if not words:
        return None
    canon = texts_of(legal)
    if " ".join(words) in canon:
        return None
    rest = [t for t in canon if t.split()[:len(words)] == words and len(t.split()) > len(words)]
    if not rest:
        return None
    kinds = {_kind_of_word(t.split()[len(words)]) for t in rest}
    # (the key is chosen outside _(): a literal inside it would be extracted as a message)
    kind = kinds.pop() if len(kinds) == 1 else "word"
    what = _(MISSING[kind])
    example = local(rest[0])
    if len(rest) == 1:
        return _("'{text}' needs {what}: {example}").format(text=local(" ".join(words)),
                                                            what=what, example=example)
    return _("'{text}' needs {what}: for example {example} ({n} choices; Tab completes, "
             "? lists them)").format(text=local(" ".join(words)), what=what, example=example,
                                     n=len(rest))


def _spread_shorthand(args: list[str], legal: Sequence[Command]) -> Command | None:
    spreads = [named(c) for c in legal if c[0] == "spread"]
    if not spreads:
        return None
    kind = spreads[0].kind
    if args and args[0] in KINDS:
        if KINDS.index(args[0]) != kind:
            return None
        args = args[1:]
    areas = SPREAD_AREAS[kind]
    counts: list[int | None] = [0, 0, 0]
    if args and all(ascii_int(a) is not None for a in args) and len(args) <= 3:
        for i, a in enumerate(args):
            counts[i] = ascii_int(a)
    elif args and all("=" in a for a in args):
        for a in args:
            name, _sep, n = a.partition("=")
            name = "gold" if name in ("gold-mine", "goldmine") else name
            if name not in AREAS or ascii_int(n) is None or AREAS.index(name) not in areas:
                return None
            counts[areas.index(AREAS.index(name))] = ascii_int(n)
    else:
        return None
    cmd = ("spread", kind, *counts)
    if cmd in legal:
        return cmd
    total = spreads[0].a + spreads[0].b + spreads[0].c
    raise Resolution(_("your {workers} must all go somewhere: give numbers for {areas} adding "
                       "up to {n} (e.g. {example})").format(
        workers=count_of(total, f"kind:{KINDS[kind]}"), n=total,
        areas=", ".join(local(AREAS[a], "area") for a in areas),
        example=local(f"spread {total} 0 0")))


def spread_hint(legal: Sequence[Command]) -> str:
    spreads = [named(c) for c in legal if c[0] == "spread"]
    if not spreads:
        return ""
    kind = spreads[0].kind
    total = spreads[0].a + spreads[0].b + spreads[0].c
    names = " ".join(local(AREAS[a], "area") for a in SPREAD_AREAS[kind])
    return _("spread your {workers} over {areas}: e.g. {example}").format(
        workers=count_of(total, f"kind:{KINDS[kind]}"), areas=names,
        example=local(f"spread {total} 0 0"))


# --- completion ----------------------------------------------------------------------------

class Hinter:
    """Next-word completions with a human hint, from the legal commands and the view."""

    def __init__(self, legal: Sequence[Command], view: dict[str, Any], ruleset: Ruleset,
                 topics: Iterable[str] = (), client_words: Mapping[str, object] | None = None,
                 players: Iterable[str] = ()) -> None:
        self.legal = legal
        self.view = view
        self.rs = ruleset
        self.topics = list(topics)
        self.client_words = CLIENT_WORDS if client_words is None else client_words
        self.players = list(players)      # names 'tableau' completes
        self.canon = texts_of(legal)
        self.texts = list(self.canon) + [t for t in aliases(legal) if t not in self.canon]
        self.types = card_types_in(view)
        self.hand = {h["card"]: h.get("type") for h in view.get("hand", [])}
        self.pool = {c["card"] for c in view.get("pool", [])}

    def complete(self, before: str) -> list[tuple[str, int, str]]:
        """[(word, start offset relative to cursor, meta)] for the text before the cursor.
        A word that more words may follow is offered with a space after it, so Tab after a
        complete word ('place' → 'place ') moves on to the next word's choices."""
        words = before.lower().split()
        partial = "" if (not before or before[-1].isspace()) else words.pop()
        if not words:
            return self._first(partial)
        if words[0] in ("help", "rules"):
            if len(words) == 1:
                return [(t, -len(partial), "") for t in self.topics if t.startswith(partial)]
            return []
        if words[0] == "tableau":
            if len(words) == 1:
                return [(n, -len(partial), "") for n in self.players
                        if n.lower().startswith(partial)]
            return []
        found: dict[str, list[str]] = {}
        for text in self.texts:
            tw = text.split()
            if len(tw) > len(words) and tw[:len(words)] == words and \
                    tw[len(words)].startswith(partial):
                nxt = tw[len(words)]
                found.setdefault(nxt, []).append(text)
        out = []
        for nxt, texts in found.items():
            more = any(len(t.split()) > len(words) + 1 for t in texts)
            out.append((nxt + (" " if more else ""), -len(partial),
                        self.meta(words, nxt, texts)))
        return out

    def suggestion(self, text: str) -> str | None:
        """The grey inline hint: the rest of the first legal command that starts with what
        was typed (nothing for help, digits or text that no command starts with)."""
        if not text.strip() or text.lstrip().startswith(("help", "?")):
            return None
        low = text.lower()
        for t in self.texts:
            if t.startswith(low) and len(t) > len(low):
                return t[len(text):]
        return None

    def _first(self, partial: str) -> list[tuple[str, int, str]]:
        verbs: dict[str, int] = {}
        for text in self.canon:
            v = text.split()[0]
            verbs[v] = verbs.get(v, 0) + 1
        out = []
        for v, n in verbs.items():
            if v.startswith(partial):
                meta = str(VERB_META.get(v, ""))
                if n > 1:
                    meta += " " + _("({n} ways)").format(n=n)
                more = any(len(t.split()) > 1 for t in self.canon if t.split()[0] == v)
                out.append((v + (" " if more else ""), -len(partial), meta))
        for w, word_meta in self.client_words.items():
            if w.startswith(partial) and partial:
                out.append((w, -len(partial), str(word_meta)))
        return out

    def meta(self, words: list[str], nxt: str, texts: list[str]) -> str:
        verb = words[0]
        rs = self.rs
        full = texts[0] if len(texts) == 1 and texts[0].split()[-1] == nxt else None
        if nxt.startswith("#"):
            c = int(nxt[1:].split(":")[0])
            t = self.types.get(c)
            if verb == "build" and t:
                return f"{TITLE[t]} — {cost_text(rs.card_cost[CARD_TYPES.index(t)])}"
            if verb in ("place", "activate") and t:
                return _("your {card}").format(card=TITLE[t])
            if verb in ("buy-card", "np-take"):
                return _("{card} from the pool").format(card=TITLE[t]) if t \
                    else _("from the pool")
            if verb in ("hire",) and t:
                return _("gnome onto your {card} ({gold} gold)").format(
                    card=TITLE[t], gold=rs.fee_gnome_hire)
            if t:
                return TITLE[t]
            return ""
        if nxt == "top":
            return _("top of the draw pile (unseen)")
        if nxt in SITE_ID:
            return site_words(nxt)
        if nxt in GUILDS:
            g = GUILDS.index(nxt)
            if verb == "guild":
                return _("build it: {cost}").format(cost=cost_text(rs.guild_cost[g]))
            if verb == "place":
                owner = None
                for gi in self.view.get("guilds", []):
                    if gi["guild"] == nxt:
                        owner = gi.get("owner")
                if owner == self.view.get("seat"):
                    return _("your guild (free)")
                if owner is None:
                    return _("{gold} gold").format(gold=rs.fee_guild_plank)
                return _("{gold} gold to its owner").format(gold=rs.fee_guild_plank)
            return GUILD_TITLE[nxt]
        if nxt == "desk":
            return _("Recruiter's desk: {gold} gold, +1 worker").format(
                gold=rs.fee_recruiter_desk)
        if nxt == "camp":
            return _("King's camp: free, choose a crest")
        if nxt in KINDS:
            me = self.view["players"][self.view["seat"]]
            left = (me.get("unplaced") or {}).get(nxt)
            return _("{n} unplaced").format(n=left) if left is not None else ""
        if verb in ("buy", "sell") and nxt in ("wood", "stone", "metal"):
            i = ("wood", "stone", "metal").index(nxt)
            return (_("costs {gold} gold").format(gold=rs.trade_buy[i]) if verb == "buy"
                    else _("gives {gold} gold").format(gold=rs.trade_sell[i]))
        if "=" in nxt:
            name, _sep, n = nxt.partition("=")
            if name == "discount":
                off = rs.discounts.get(n)      # (wood, stone, metal) off, from the ruleset
                less = [count_of(k, f"resource:{r}") for k, r in
                        zip(off or (), ("wood", "stone", "metal")) if k]
                if not less:
                    return ""
                from .words import and_list
                return _("pay {what} less").format(what=and_list(less))
            from .i18n import term
            return _("{n} to the {area}").format(n=n, area=term(f"area:{name}"))
        if verb == "crest" and ascii_int(nxt) is not None:
            for p in self.view["players"]:
                if p["crest"] == ascii_int(nxt):
                    return _("held by {name}").format(name=p["name"])
        if nxt == "drop":
            return _("the cards you discard")
        if full:
            return ""
        return ngettext("{n} way", "{n} ways", len(texts)).format(n=len(texts)) \
            if len(texts) > 1 else ""


def listing(legal: Sequence[Command], limit: int | None = None) -> list[str]:
    """Numbered lines for '?': the legal commands, in the engine's order."""
    lines = []
    for i, c in enumerate(legal, start=1):
        if limit is not None and i > limit:
            lines.append(_("… and {n} more: type the start of a command and press Tab to see "
                           "them").format(n=len(legal) - limit))
            break
        lines.append(f"{i:>3}. {local(belfort.command_text(c))}")
    return lines


def summary(legal: Iterable[Command]) -> str:
    """One line: the verbs you can use now, e.g. 'place (14), pass'."""
    counts: dict[str, int] = {}
    for c in legal:
        counts[c[0]] = counts.get(c[0], 0) + 1
    return ", ".join(local(v, "verb") if n == 1 else f"{local(v, 'verb')} ({n})"
                     for v, n in counts.items())
