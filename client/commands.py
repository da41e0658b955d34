"""Command entry: turning what the person typed into one of the engine's legal commands,
and completion hints drawn from `legal_commands` + `command_text`.

The engine's canonical text always works. Shorthands accepted on top of it (each resolves
to exactly one legal command, or is refused with the engine's reason):
    keep #0 #1 #2            the kept cards in any order; the 'drop …' part is added
    spread 2 1 0             counts for the areas of the worker kind being spread
    spread forest=2 mine=1   areas left out get 0; the kind is the one being spread
    discard #3 / show #3     the card's type is added
    any unique beginning     'build #17' when the card has one legal symbol, 'hire #20', …
    a number N               the N-th command of the last '?' listing
"""

from __future__ import annotations

from itertools import permutations

import belfort
from belfort.data import AREAS, CARD_TYPES, GUILDS, KINDS, SITE_ID, SPREAD_AREAS

from .words import GUILD_TITLE, TITLE, card_types_in, cost_text, site_words

CLIENT_WORDS = {
    "help": "rules and commands: help TOPIC (a card, a guild, a phase, a command)",
    "?": "list what you can do now",
    "log": "the whole game log",
    "quit": "leave the game",
}

VERB_META = {
    "keep": "choose the cards you keep, discard the others",
    "np-dwarf": "put your non-player's dwarf on a guild",
    "place": "put a worker on a plank",
    "pass": "stop placing; spread the rest",
    "spread": "send workers to the resource areas",
    "crest": "take a crest at the King's camp",
    "build": "build a card from your hand",
    "wall": "build a wall",
    "guild": "build a guild",
    "activate": "use a worker you placed",
    "buy": "buy 1 at the trading post",
    "sell": "sell 1 at the trading post",
    "exchange": "Merchants: wood/stone → metal",
    "hire": "hire a gnome",
    "bank": "take gold from a Bank",
    "smith": "buy metal at a Blacksmith",
    "buy-card": "buy a card (ends your turn)",
    "end": "end your turn",
    "discard": "discard a card",
    "show": "show a card to the Spies",
    "take": "take a shown card",
    "np-take": "your non-player takes a card",
    "np-mark": "your non-player marks a symbol",
    "np-skip": "nothing for the non-player",
}


def texts_of(legal):
    """{canonical text: command} for a list of legal commands."""
    return {belfort.command_text(c): c for c in legal}


def aliases(legal):
    """Extra texts that mean one legal command (keep in any order, without 'drop …')."""
    out = {}
    for c in legal:
        if c[0] == "keep":
            for perm in permutations(c[1]):
                out["keep " + " ".join(f"#{x}" for x in perm)] = c
    return out


class Resolution(Exception):
    """Input that needs a message rather than a command (e.g. ambiguous shorthand)."""


def _words(text):
    return text.strip().lower().split()


def resolve(text, legal, numbered=None):
    """The legal command meant by `text`, or None when no shorthand applies (then the
    caller lets the engine parse and judge the text itself, for its precise message)."""
    words = _words(text)
    if not words:
        return None
    canon = texts_of(legal)
    norm = " ".join(words)
    if norm in canon:
        return canon[norm]
    extra = aliases(legal)
    if norm in extra:
        return extra[norm]
    if len(words) == 1 and words[0].isdigit() and numbered:
        i = int(words[0])
        if 1 <= i <= len(numbered):
            return numbered[i - 1]
        raise Resolution(f"there is no choice {i} in the list (1–{len(numbered)})")
    verb = words[0]
    if verb == "spread":
        cmd = _spread_shorthand(words[1:], legal)
        if cmd is not None:
            return cmd
    if verb in ("discard", "show") and len(words) == 2:
        card = words[1] if words[1].startswith("#") else "#" + words[1]
        for c in legal:
            if c[0] == verb and f"#{c[1]}" == card:
                return c
    # a unique beginning of one legal command
    matches = [c for t, c in canon.items() if t.split()[:len(words)] == words]
    if len(matches) == 1 and len(words) >= 2:
        return matches[0]
    return None


def _spread_shorthand(args, legal):
    spreads = [c for c in legal if c[0] == "spread"]
    if not spreads:
        return None
    kind = spreads[0][1]
    if args and args[0] in KINDS:
        if KINDS.index(args[0]) != kind:
            return None
        args = args[1:]
    areas = SPREAD_AREAS[kind]
    counts = [0, 0, 0]
    if args and all(a.isdigit() for a in args) and len(args) <= 3:
        for i, a in enumerate(args):
            counts[i] = int(a)
    elif args and all("=" in a for a in args):
        for a in args:
            name, _, n = a.partition("=")
            name = "gold" if name in ("gold-mine", "goldmine") else name
            if name not in AREAS or not n.isdigit() or AREAS.index(name) not in areas:
                return None
            counts[areas.index(AREAS.index(name))] = int(n)
    else:
        return None
    cmd = ("spread", kind, *counts)
    if cmd in legal:
        return cmd
    total = sum(spreads[0][2:5])
    word = KINDS[kind].replace("master-", "master ")
    word = word.replace("elf", "elves" if total != 1 else "elf").replace(
        "dwarf", "dwarves" if total != 1 else "dwarf")
    raise Resolution(f"your {total} {word} must all go somewhere: "
                     f"give numbers for {', '.join(AREAS[a] for a in areas)} adding up to "
                     f"{total} (e.g. spread {total} 0 0)")


def spread_hint(legal):
    spreads = [c for c in legal if c[0] == "spread"]
    if not spreads:
        return ""
    kind = spreads[0][1]
    total = sum(spreads[0][2:5])
    names = " ".join(AREAS[a] for a in SPREAD_AREAS[kind])
    return (f"spread your {total} {KINDS[kind].replace('elf', 'elves').replace('dwarf', 'dwarves')}"
            f" over {names}: e.g. spread {total} 0 0")


# --- completion ----------------------------------------------------------------------------

class Hinter:
    """Next-word completions with a human hint, from the legal commands and the view."""

    def __init__(self, legal, view, ruleset, topics=()):
        self.legal = legal
        self.view = view
        self.rs = ruleset
        self.topics = list(topics)
        self.canon = texts_of(legal)
        self.texts = list(self.canon) + [t for t in aliases(legal) if t not in self.canon]
        self.types = card_types_in(view)
        self.hand = {h["card"]: h.get("type") for h in view.get("hand", [])}
        self.pool = {c["card"] for c in view.get("pool", [])}

    def complete(self, before):
        """[(word, start offset relative to cursor, meta)] for the text before the cursor."""
        words = before.lower().split()
        partial = "" if (not before or before[-1].isspace()) else words.pop()
        if not words:
            return self._first(partial)
        if words[0] == "help":
            if len(words) == 1:
                return [(t, -len(partial), "") for t in self.topics if t.startswith(partial)]
            return []
        found = {}
        for text in self.texts:
            tw = text.split()
            if len(tw) > len(words) and tw[:len(words)] == words and \
                    tw[len(words)].startswith(partial):
                nxt = tw[len(words)]
                found.setdefault(nxt, []).append(text)
        out = []
        for nxt, texts in found.items():
            out.append((nxt, -len(partial), self.meta(words, nxt, texts)))
        return out

    def _first(self, partial):
        verbs = {}
        for text in self.canon:
            v = text.split()[0]
            verbs[v] = verbs.get(v, 0) + 1
        out = []
        for v, n in verbs.items():
            if v.startswith(partial):
                meta = VERB_META.get(v, "")
                if n > 1:
                    meta += f" ({n} ways)"
                out.append((v, -len(partial), meta))
        for w, meta in CLIENT_WORDS.items():
            if w.startswith(partial) and partial:
                out.append((w, -len(partial), meta))
        return out

    def meta(self, words, nxt, texts):
        verb = words[0]
        rs = self.rs
        full = texts[0] if len(texts) == 1 and texts[0].split()[-1] == nxt else None
        if nxt.startswith("#"):
            c = int(nxt[1:].split(":")[0])
            t = self.types.get(c)
            if verb == "build" and t:
                return f"{TITLE[t]} — {cost_text(rs.card_cost[CARD_TYPES.index(t)])}"
            if verb in ("place", "activate") and t:
                return f"your {TITLE[t]}"
            if verb in ("buy-card", "np-take"):
                return f"{TITLE[t]} from the pool" if t else "from the pool"
            if verb in ("hire",) and t:
                return f"gnome onto your {TITLE[t]} ({rs.fee_gnome_hire} gold)"
            if t:
                return TITLE[t]
            return ""
        if nxt == "top":
            return "top of the draw pile (unseen)"
        if nxt in SITE_ID:
            return site_words(nxt)
        if nxt in GUILDS:
            g = GUILDS.index(nxt)
            if verb == "guild":
                return f"build it: {cost_text(rs.guild_cost[g])}"
            if verb == "place":
                owner = None
                for gi in self.view.get("guilds", []):
                    if gi["guild"] == nxt:
                        owner = gi.get("owner")
                if owner == self.view.get("seat"):
                    return "your guild (free)"
                return f"{rs.fee_guild_plank} gold" + ("" if owner is None else " to its owner")
            return GUILD_TITLE[nxt]
        if nxt == "desk":
            return f"Recruiter's desk: {rs.fee_recruiter_desk} gold, +1 worker"
        if nxt == "camp":
            return "King's camp: free, choose a crest"
        if nxt in KINDS:
            me = self.view["players"][self.view["seat"]]
            left = (me.get("unplaced") or {}).get(nxt)
            return f"{left} unplaced" if left is not None else ""
        if verb in ("buy", "sell") and nxt in ("wood", "stone", "metal"):
            i = ("wood", "stone", "metal").index(nxt)
            return (f"costs {rs.trade_buy[i]} gold" if verb == "buy"
                    else f"gives {rs.trade_sell[i]} gold")
        if "=" in nxt:
            name, _, n = nxt.partition("=")
            if name == "discount":
                off = rs.discounts.get(n)      # (wood, stone, metal) off, from the ruleset
                less = " and ".join(f"{k} {r}" for k, r in zip(off or (), ("wood", "stone",
                                                                            "metal")) if k)
                return f"pay {less} less" if less else ""
            return f"{n} to the {'gold mine' if name == 'gold' else name}"
        if verb == "crest" and nxt.isdigit():
            for p in self.view["players"]:
                if p["crest"] == int(nxt):
                    return f"held by {p['name']}"
        if nxt == "drop":
            return "the cards you discard"
        if full:
            return ""
        return f"{len(texts)} ways" if len(texts) > 1 else ""


def listing(legal, limit=None):
    """Numbered lines for '?': the legal commands, in the engine's order."""
    lines = []
    for i, c in enumerate(legal, start=1):
        if limit is not None and i > limit:
            lines.append(f"… and {len(legal) - limit} more: type the start of a command and "
                         "press Tab to see them")
            break
        lines.append(f"{i:>3}. {belfort.command_text(c)}")
    return lines


def summary(legal):
    """One line: the verbs you can use now, e.g. 'place (14), pass'."""
    counts = {}
    for c in legal:
        counts[c[0]] = counts.get(c[0], 0) + 1
    return ", ".join(v if n == 1 else f"{v} ({n})" for v, n in counts.items())
