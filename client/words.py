"""Plain words for the things on the table and for what happened (the log).

Everything here reads the engine's names and the ruleset; no rule is decided here.
"""

from __future__ import annotations

from belfort.commands import command_text
from belfort.data import (AREAS, CARD_PLANK, CARD_TYPES, GATE_BASE, GUILD_PLANK, GUILDS,
                          KINDS, RESOURCES, SITE_DISTRICT, SITE_ID, SITE_NAME, SITE_TYPE,
                          SPREAD_AREAS)

TITLE = {"pub": "Pub", "gardens": "Gardens", "tower": "Tower", "inn": "Inn",
         "blacksmith": "Blacksmith", "bank": "Bank", "market": "Market",
         "gatehouse": "Gatehouse", "library": "Library", "keep": "Keep"}
SHORT = {"pub": "Pub", "gardens": "Gdn", "tower": "Twr", "inn": "Inn", "blacksmith": "Smt",
         "bank": "Bnk", "market": "Mkt", "gatehouse": "Gat", "library": "Lib", "keep": "Kp"}
GUILD_TITLE = {g: g.capitalize() for g in GUILDS}
SEASONS = ("spring", "summer", "autumn", "winter", "late winter")
RES_SHORT = {"wood": "w", "stone": "s", "metal": "m", "gold": "g"}
COLOURS = ("ansired", "ansiblue", "ansiyellow", "ansigreen", "ansimagenta")
AREA_TITLE = {"forest": "forest", "quarry": "quarry", "mine": "mine", "gold": "gold mine"}


def article(word):
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def plural(n, word, many=None):
    return f"{n} {word if n == 1 else (many or word + 's')}"


def cost_text(cost, short=False):
    """(wood, stone, metal, gold) as '1 wood, 3 stone' or '1w 3s'."""
    parts = []
    for i, n in enumerate(cost):
        if n:
            parts.append(f"{n}{RES_SHORT[RESOURCES[i]]}" if short else f"{n} {RESOURCES[i]}")
    if not parts:
        return "free"
    return (" " if short else ", ").join(parts)


def initials(names):
    """One distinct capital letter per seat (a digit if the letters run out)."""
    used, out = set(), []
    for i, name in enumerate(names):
        pick = None
        for ch in name.upper():
            if ch.isalpha() and ch not in used:
                pick = ch
                break
        if pick is None:
            pick = str(i)
        used.add(pick)
        out.append(pick)
    return out


class Namer:
    """Names, initials and colours of the seats (players, then NP3/NP4 in a 2-player game)."""

    def __init__(self, names, you=None):
        self.names = list(names)
        self.n = len(names)
        self.you = you
        self.letters = initials(names)
        if self.n == 2:
            spare = [c for c in "XZNQ" if c not in self.letters]
            self.letters += spare[:2]

    def name(self, seat):
        if seat is None or seat < 0:
            return "nobody"
        if seat >= self.n:
            return f"NP{seat - self.n + 3}"
        return self.names[seat]

    def who(self, seat):
        """The subject of a sentence: 'You' for our seat."""
        return "You" if seat == self.you else self.name(seat)

    def whom(self, seat):
        """The object of a sentence: 'you' for our seat."""
        return "you" if seat == self.you else self.name(seat)

    def letter(self, seat):
        if seat is None or seat < 0:
            return "·"
        return self.letters[seat] if seat < len(self.letters) else "?"

    def style(self, seat):
        if seat is None or seat < 0:
            return "class:free"
        if seat >= self.n:
            return "class:np"
        return f"class:p{seat}"


def season_of(rnd, scoring_rounds):
    before = sum(1 for r in scoring_rounds if r < rnd)
    return SEASONS[min(before, len(SEASONS) - 1)]


def next_scoring(rnd, scoring_rounds):
    for r in scoring_rounds:
        if r >= max(rnd, 1):
            return r
    return None


def site_words(site):
    """'the Tower symbol in district 3', 'gatehouse 1 (district 2 side)'."""
    if isinstance(site, str):
        site = SITE_ID[site]
    t = SITE_TYPE[site]
    d = SITE_DISTRICT[site]
    if t == "wall":
        return f"a wall in district {d}"
    if t == "guild":
        return f"the guild symbol of district {d}"
    if site >= GATE_BASE:
        g = (site - GATE_BASE) // 2
        return f"gatehouse {g} (its district-{d} symbol)"
    return f"the {TITLE[CARD_TYPES[t]]} symbol in district {d}"


def plank_words(plank, guilds=None):
    if plank == 0:
        return "the Recruiter's desk"
    if plank == 1:
        return "the King's camp"
    if plank >= CARD_PLANK:
        return f"card #{plank - CARD_PLANK}"
    return f"the {GUILD_TITLE[GUILDS[plank - GUILD_PLANK]]}"


def kind_words(kind, n=1, counted=False):
    """'an elf', '3 master dwarves'; with counted=True '1 elf' instead of 'an elf'."""
    k = KINDS[kind] if isinstance(kind, int) else kind
    text = k.replace("master-", "master ")
    if n == 1:
        return f"1 {text}" if counted else article(text)
    return f"{n} {text.replace('elf', 'elves').replace('dwarf', 'dwarves')}"


class Describer:
    """Turns the engine's events into sentences for the log."""

    def __init__(self, namer, ruleset, guilds=()):
        self.nm = namer
        self.rs = ruleset
        self.guilds = list(guilds)

    def card(self, card, t=None, types=None):
        if t is None and types is not None:
            t = types.get(card)
        if isinstance(t, int):
            t = CARD_TYPES[t]
        return f"#{card} ({TITLE[t]})" if t else f"#{card}"

    def sentences(self, events, view):
        """Sentences for a batch of events; `view` is the seat view after them."""
        types = card_types_in(view)
        out = []
        for ev in events:
            try:
                s = self.sentence(ev, view, types)
            except (IndexError, KeyError, TypeError, ValueError):
                s = None
            if s:
                out.append(s)
        return out

    def said(self, seat, yours, theirs, **values):
        """One of two whole sentences: `yours` when `seat` is ours ('You … your …'),
        `theirs` for another player ('{who} … their …'); str.format placeholders."""
        if seat == self.nm.you:
            return yours.format(**values)
        return theirs.format(who=self.nm.name(seat), **values)

    def sentence(self, ev, view, types):
        nm, rs = self.nm, self.rs
        kind = ev[0]
        who = nm.who(ev[1]) if len(ev) > 1 and isinstance(ev[1], int) else ""
        if kind == "command":
            cmd = ev[2]
            if cmd[0] == "keep" and ev[1] == nm.you:
                return None
            return None
        if kind == "round":
            r = ev[1]
            sr = view.get("scoring_rounds", rs.scoring_rounds)
            nxt = next_scoring(r, sr)
            extra = f"; scoring after month {nxt}" if nxt else ""
            return (f"── Month {r} of {view.get('rounds', rs.rounds)} "
                    f"({season_of(r, sr)}{extra}) ──")
        if kind == "keep":
            dropped = ", ".join(self.card(c, types=types) for c in ev[2])
            return f"{who} kept {plural(rs.keep, 'card')} and discarded {dropped or 'nothing'}."
        if kind == "np-dwarf":
            d = ev[2]
            g = GUILD_TITLE[view["guilds"][d]["guild"]]
            return f"{nm.name(ev[1])}'s dwarf is now on the {g} (district {d})."
        if kind == "place":
            _, seat, k, plank = ev
            fee = ""
            if plank == 0:
                fee = f", paying {rs.fee_recruiter_desk} gold"
            elif plank >= CARD_PLANK:
                c = plank - CARD_PLANK
                t = types.get(c)
                if t:
                    return self.said(seat, "You placed {worker} on your {card} {id}.",
                                     "{who} placed {worker} on their {card} {id}.",
                                     worker=kind_words(k), card=TITLE[t], id=self.card(c))
            return f"{who} placed {kind_words(k)} on {plank_words(plank)}{fee}."
        if kind == "pass":
            return f"{who} passed."
        if kind == "spread":
            _, seat, k, counts = ev
            parts = [f"{AREA_TITLE[AREAS[a]]} {c}" for a, c in zip(SPREAD_AREAS[k], counts) if c]
            total = sum(counts)
            if not total:
                return None
            return f"{who} sent {kind_words(k, total)} to the resource areas: {', '.join(parts)}."
        if kind == "bonus":
            res = {"forest": "wood", "quarry": "stone", "mine": "metal", "gold": "gold"}[ev[2]]
            amount = ev[3] if len(ev) > 3 else rs.area_bonus
            return f"{who} won the {AREA_TITLE[ev[2]]} bonus (+{amount} {res})."
        if kind == "collect":
            return f"{who} collected {cost_text(ev[2])}."
        if kind == "gain-worker":
            return f"{who} gained {article(ev[2])}."
        if kind == "crest":
            _, seat, k, holder = ev
            if holder == seat:
                return f"{who} kept crest {k} at the King's camp."
            return f"{who} took crest {k} from {nm.whom(holder)} at the King's camp."
        if kind == "income":
            return self._income(ev)
        if kind == "build":
            _, seat, c, t, site = ev
            name = TITLE[CARD_TYPES[t]]
            d = SITE_DISTRICT[site]
            if CARD_TYPES[t] == "keep":
                return f"{who} built a Keep in district {d} (+2 markers)."
            if CARD_TYPES[t] == "gatehouse":
                g = (site - GATE_BASE) // 2
                return (f"{who} built a Gatehouse on gatehouse {g}, district {d} side "
                        "(+1 marker).")
            return f"{who} built {article(name)} in district {d} (+1 marker)."
        if kind == "wall":
            return f"{who} built a wall in district {SITE_DISTRICT[ev[2]]} (+1 marker)."
        if kind == "guild":
            d = self.guilds.index(ev[2]) if ev[2] in self.guilds else None
            where = f" in district {d}" if d is not None else ""
            return self.said(ev[1], "You built the {guild} guild{where} and own it (+1 marker).",
                             "{who} built the {guild} guild{where} and owns it (+1 marker).",
                             guild=GUILD_TITLE[GUILDS[ev[2]]], where=where)
        if kind == "buy":
            r = ev[2]
            return f"{who} bought 1 {RESOURCES[r]} for {rs.trade_buy[r]} gold."
        if kind == "sell":
            r = ev[2]
            return f"{who} sold 1 {RESOURCES[r]} for {rs.trade_sell[r]} gold."
        if kind == "exchange":
            return f"{who} exchanged 1 {RESOURCES[ev[2]]} for 1 metal (Merchants)."
        if kind == "gnome":
            c = ev[2]
            return f"{who} put a gnome on {self.card(c, types=types)}."
        if kind == "second-marker":
            return f"{who} put a second marker on {site_words(ev[2])}."
        if kind == "bank":
            gold = ev[3] if len(ev) > 3 else rs.lock_bank_gold
            return self.said(ev[1], "You took {gold} gold from your Bank {card}.",
                             "{who} took {gold} gold from their Bank {card}.",
                             gold=gold, card=self.card(ev[2]))
        if kind == "smith":
            gold, metal = ev[3:5] if len(ev) > 4 else (rs.lock_blacksmith_gold,
                                                       rs.lock_blacksmith_metal)
            return self.said(ev[1], "You bought {metal} metal for {gold} gold at your "
                                    "Blacksmith {card}.",
                             "{who} bought {metal} metal for {gold} gold at their "
                             "Blacksmith {card}.", gold=gold, metal=metal,
                             card=self.card(ev[2]))
        if kind == "buy-card":
            if ev[2] == -1:
                return f"{who} bought the top card of the draw pile ({rs.fee_card_purchase} gold)."
            return (f"{who} bought {self.card(ev[2], types=types)} from the pool "
                    f"({rs.fee_card_purchase} gold).")
        if kind == "draw":
            cards = ev[2]
            if ev[1] == nm.you:
                return f"You drew {', '.join(self.card(c, types=types) for c in cards)}."
            return f"{who} drew {plural(len(cards), 'card')}."
        if kind == "pool":
            return None          # the pool line shows it
        if kind == "end-turn":
            return self.said(ev[1], "You ended your turn.", "{who} ended their turn.")
        if kind == "discard":
            return f"{who} discarded {self.card(ev[2], ev[3])}."
        if kind == "show":
            return f"{who} showed {self.card(ev[2], ev[3])} to the Spies."
        if kind == "take":
            return f"{who} took {self.card(ev[2], types=types)} from {nm.whom(ev[3])} (Spies)."
        if kind == "np-take":
            return f"{nm.name(ev[1])} took {self.card(ev[2], types=types)}."
        if kind == "np-mark":
            _, np, card, site = ev
            if site == -1:
                return f"{nm.name(np)} could not place {self.card(card, types=types)}; it is discarded."
            return f"{nm.name(np)} marked {site_words(site)}."
        if kind == "np-skip":
            return f"{nm.name(ev[1])} had no card to take."
        if kind == "activate":
            return self._activate(ev, view, types)
        if kind == "architects":
            return f"{who} marked {site_words(ev[2])} with the Architects (+1 marker)."
        if kind == "steal":
            _, dst, src, r, amount = ev
            return f"{nm.who(dst)} took {amount} {RESOURCES[r]} from {nm.whom(src)}."
        if kind == "swap":
            a, b = ev[1], ev[2]
            return f"The Wizards swapped the markers of {SITE_NAME[a]} and {SITE_NAME[b]}."
        if kind == "scoring":
            return self._scoring(ev[1], view)
        if kind == "game-over":
            return self._game_over(view)
        if kind == "undo":
            # our own take-back is answered where it was typed ("Taken back: …")
            if ev[1] == nm.you:
                return None
            return f"{who} took back: {command_text(ev[2])}."
        if kind == "reshuffle":
            return "The discard pile was shuffled into a new draw pile."
        return None

    def _activate(self, ev, view, types):
        _, seat, plank, args = ev
        who = self.nm.who(seat)
        rs = self.rs
        if plank >= CARD_PLANK:
            c = plank - CARD_PLANK
            t = types.get(c)
            gain = {"blacksmith": f" (+{rs.blacksmith_metal} metal)",
                    "market": f" (+{rs.market_gold} gold)",
                    "library": f" (draw {rs.library_draw}, discard {rs.library_discard})"}.get(t, "")
            wasted = " (nothing to gain: wasted)" if t in ("tower", "inn") and not args else ""
            return self.said(seat, "You activated your {card} {id}{gain}{wasted}.",
                             "{who} activated their {card} {id}{gain}{wasted}.",
                             card=TITLE.get(t, "card"), id=self.card(c), gain=gain,
                             wasted=wasted)
        g = GUILDS[plank - GUILD_PLANK]
        gain = ""
        if g in ("sawyers", "miners", "bankers", "masons"):
            gain = f" (+{cost_text(rs.guild_yield[plank - GUILD_PLANK])})"
        elif g == "merchants":
            gain = (f" ({rs.merchants_exchanges} exchanges and "
                    f"{rs.merchants_extra_visits} extra trading-post visits)")
        elif g == "librarians":
            gain = f" (draw {rs.librarians_draw}, discard {rs.librarians_discard})"
        elif g == "recruiters" and args and args[0] in ("elf", "dwarf"):
            gain = ""
        elif g in ("architects", "recruiters", "thieves", "bandits", "wizards") and not args:
            gain = " (nothing possible: wasted)"
        return f"{who} activated the {GUILD_TITLE[g]}{gain}."

    def _income(self, ev):
        _, seat, income, paid, lost = ev
        who = self.nm.who(seat)
        if income and paid:
            text = "{who} received {income} gold income and paid {paid} gold tax."
        elif income:
            text = "{who} received {income} gold income."
        elif paid:
            text = "{who} paid {paid} gold tax."
        else:
            text = ""
        if lost:
            text = {"": "{who} could not pay {lost} gold tax: -{lost} VP.",
                    "{who} paid {paid} gold tax.":
                        "{who} paid {paid} gold tax and could not pay {lost} more: -{lost} VP."
                    }.get(text, text + " {who} could not pay {lost} more gold tax: -{lost} VP.")
        return text.format(who=who, income=income, paid=paid, lost=lost) or None

    def _game_over(self, view):
        res = view.get("result") or {}
        winners = res.get("winners", [])
        you = self.nm.you
        if len(winners) == 1:
            if winners[0] == you:
                return "The game is over: you win!"
            return "The game is over: {name} wins.".format(name=self.nm.name(winners[0]))
        # others first, then 'you': "Bo and you share the victory"
        names = [self.nm.name(s) for s in winners if s != you] + \
            (["you"] if you in winners else [])
        return "The game is over: {names} share the victory after the tie-break.".format(
            names=", ".join(names[:-1]) + " and " + names[-1])

    def _scoring(self, rnd, view):
        rec = None
        for r in view.get("score_log", []):
            if r.get("round") == rnd:
                rec = r
        if rec is None:
            return f"Scoring after month {rnd}."
        parts = [f"{self.nm.name(s)} +{pts}" for s, pts in enumerate(rec["total"])]
        return f"★ Scoring after month {rnd}: {', '.join(parts)}."


def card_types_in(view):
    """{card id: type name} for every card whose type this view shows."""
    out = {}
    for h in view.get("hand", []):
        if h.get("type"):
            out[h["card"]] = h["type"]
    for pile in ("pool", "discard"):
        for c in view.get(pile, []):
            if c.get("type"):
                out[c["card"]] = c["type"]
    for p in view.get("players", []):
        for b in p.get("built", []):
            out[b["card"]] = b["type"]
        for c, t in p.get("hand_revealed", {}).items():
            out[int(c)] = t
    npc = view.get("np_card")
    if npc and npc.get("type"):
        out[npc["card"]] = npc["type"]
    return out
