"""Plain words for the things on the table and for what happened (the log).

Everything here reads the engine's names and the ruleset; no rule is decided here.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from belfort import events
from belfort.commands import command_text
from belfort.data import (AREAS, CARD_PLANK, CARD_TYPES, GATE_BASE, GUILD_PLANK, GUILDS, KINDS,
                          RESOURCES, SITE_DISTRICT, SITE_ID, SITE_NAME, SITE_TYPE, SPREAD_AREAS)

from .i18n import N_, _, ngettext, pgettext, term, term_count
from .i18n.width import cell_width

if TYPE_CHECKING:
    from belfort.commands import Event
    from belfort.ruleset import Ruleset


class TermTable(Mapping[str, str]):
    """{engine name: the glossary's word in the active language}, read at each lookup (the
    language is chosen after import): TITLE["tower"] is "Tower", "Tour" in French."""

    def __init__(self, prefix: str, names: Iterable[str], form: str = "name") -> None:
        self.prefix, self.names, self.form = prefix, tuple(names), form

    def __getitem__(self, name: str) -> str:
        if name not in self.names:
            raise KeyError(name)
        return term(f"{self.prefix}:{name.replace(' ', '-')}", self.form)

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)


TITLE = TermTable("card", CARD_TYPES)
SHORT = TermTable("card", CARD_TYPES, "short")
GUILD_TITLE = TermTable("guild", GUILDS)
# at most 10 cells: the board's guild column and the score table
GUILD_BRIEF = TermTable("guild", GUILDS, "brief")
SEASONS = ("spring", "summer", "autumn", "winter", "late winter")
SEASON_TITLE = TermTable("season", SEASONS)
RES_TITLE = TermTable("resource", RESOURCES)
RES_SHORT = TermTable("resource", RESOURCES, "short")
COLOURS = ("ansired", "ansiblue", "ansiyellow", "ansigreen", "ansimagenta")
AREA_TITLE = TermTable("area", ("forest", "quarry", "mine", "gold"))
# "an elf": the article follows the noun, so one message per worker kind
_A_KIND = {"elf": N_("an elf"), "master-elf": N_("a master elf"), "dwarf": N_("a dwarf"),
           "master-dwarf": N_("a master dwarf"), "gnome": N_("a gnome")}
# "a Tower", "an Inn": likewise one message per card type (the article follows the noun)
A_CARD = {"pub": N_("a Pub"), "gardens": N_("a Gardens"), "tower": N_("a Tower"),
          "inn": N_("an Inn"), "blacksmith": N_("a Blacksmith"), "bank": N_("a Bank"),
          "market": N_("a Market"), "gatehouse": N_("a Gatehouse"), "library": N_("a Library"),
          "keep": N_("a Keep")}


def count_of(n: int, key: str) -> str:
    """'3 elves', '1 wood': a number and the glossary's noun in the form for it."""
    if key.startswith("kind:"):
        # i18n: a number of workers ("3 elves", "1 gnome"): people, where your language
        # counts people with their own word (Korean 명)
        return pgettext("people", "{n} {things}").format(n=n, things=term_count(key, n))
    # i18n: a number and a noun ("3 elves", "1 wood"); reorder if your language must
    return _("{n} {things}").format(n=n, things=term_count(key, n))


def cost_text(cost: Sequence[int], short: bool = False) -> str:
    """(wood, stone, metal, gold) as '1 wood, 3 stone' or '1w 3s'."""
    parts = []
    for i, n in enumerate(cost):
        if n:
            parts.append(f"{n}{RES_SHORT[RESOURCES[i]]}" if short
                         else count_of(n, f"resource:{RESOURCES[i]}"))
    if not parts:
        return _("free")
    return (" " if short else ", ").join(parts)


def initials(names: Sequence[str]) -> list[str]:
    """One distinct capital letter per seat (a digit if the letters run out).

    The board shows each symbol's holder in one terminal cell, so a wide character (the
    Hangul of a Korean name, or of the Korean "You") is never an initial: such a name gets
    the first free Latin capital instead.
    """
    used, out = set(), []
    for i, name in enumerate(names):
        pick = None
        for ch in name.upper():
            if ch.isalpha() and cell_width(ch) == 1 and ch not in used:
                pick = ch
                break
        if pick is None:
            pick = next((ch for ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if ch not in used
                         and not any(ch in other.upper() for other in names[i + 1:])),
                        str(i))
        used.add(pick)
        out.append(pick)
    return out


class Namer:
    """Names, initials and colours of the seats (players, then NP3/NP4 in a 2-player game)."""

    def __init__(self, names: Sequence[str], you: int | None = None) -> None:
        self.names = list(names)
        self.n = len(names)
        self.you = you
        self.letters = initials(names)
        if self.n == 2:
            spare = [c for c in "XZNQ" if c not in self.letters]
            self.letters += spare[:2]

    def name(self, seat: int) -> str:
        if seat is None or seat < 0:
            return _("nobody")
        if seat >= self.n:
            # i18n: a non-player of the two-player game (NP3, NP4); the glossary's short form
            return _("NP{n}").format(n=seat - self.n + 3)
        return self.names[seat]

    def who(self, seat: int) -> str:
        """The subject of a sentence: 'You' for our seat."""
        return pgettext("subject", "You") if seat == self.you else self.name(seat)

    def whom(self, seat: int) -> str:
        """The object of a sentence: 'you' for our seat."""
        return pgettext("object", "you") if seat == self.you else self.name(seat)

    def letter(self, seat: int) -> str:
        if seat is None or seat < 0:
            return "·"
        return self.letters[seat] if seat < len(self.letters) else "?"

    def style(self, seat: int) -> str:
        if seat is None or seat < 0:
            return "class:free"
        if seat >= self.n:
            return "class:np"
        return f"class:p{seat}"


def season_of(rnd: int, scoring_rounds: Sequence[int]) -> str:
    """The season of month `rnd`, as the active language names it."""
    before = sum(1 for r in scoring_rounds if r < rnd)
    return SEASON_TITLE[SEASONS[min(before, len(SEASONS) - 1)]]


def next_scoring(rnd: int, scoring_rounds: Sequence[int]) -> int | None:
    for r in scoring_rounds:
        if r >= max(rnd, 1):
            return r
    return None


def site_words(site: int | str) -> str:
    """'the Tower symbol in district 3', 'gatehouse 1 (district 2 side)'."""
    if isinstance(site, str):
        site = SITE_ID[site]
    t = SITE_TYPE[site]
    d = SITE_DISTRICT[site]
    if t == "wall":
        return _("a wall in district {d}").format(d=d)
    if t == "guild":
        return _("the guild symbol of district {d}").format(d=d)
    if site >= GATE_BASE:
        g = (site - GATE_BASE) // 2
        return _("gatehouse {g} (its district-{d} symbol)").format(g=g, d=d)
    # the other symbols are a card type's
    return _("the {card} symbol in district {d}").format(
        card=TITLE[CARD_TYPES[t]], d=d)  # type: ignore[index]


def plank_words(plank: int, guilds: Sequence[int] | None = None) -> str:
    if plank == 0:
        return _("the Recruiter's desk")
    if plank == 1:
        return _("the King's camp")
    if plank >= CARD_PLANK:
        return _("card #{n}").format(n=plank - CARD_PLANK)
    return _("the {guild}").format(guild=GUILD_TITLE[GUILDS[plank - GUILD_PLANK]])


def kind_words(kind: str | int, n: int = 1, counted: bool = False) -> str:
    """'an elf', '3 master dwarves'; with counted=True '1 elf' instead of 'an elf'."""
    k = KINDS[kind] if isinstance(kind, int) else kind
    if n == 1 and not counted:
        return _(_A_KIND[k])
    return count_of(n, f"kind:{k}")


class Describer:
    """Turns the engine's events into sentences for the log."""

    def __init__(self, namer: Namer, ruleset: Ruleset, guilds: Sequence[int] = ()) -> None:
        self.nm = namer
        self.rs = ruleset
        self.guilds = list(guilds)
        # our draws whose cards' types had not reached us yet (a LAN game's deck reveals
        # them to us after the draw): said once the view names them
        self._unnamed: list[tuple[int, ...]] = []

    def card(self, card: int, t: int | str | None = None,
             types: Mapping[int, str] | None = None) -> str:
        if t is None and types is not None:
            t = types.get(card)
        if isinstance(t, int):
            t = CARD_TYPES[t]
        return f"#{card} ({TITLE[t]})" if t else f"#{card}"

    def _named_now(self, view: dict[str, Any], types: Mapping[int, str]) -> list[str]:
        """Our waiting draws the view now names (or whose cards left the hand unnamed)."""
        hand = {h.get("card") for h in view.get("hand", [])}
        out, still = [], []
        for cards in self._unnamed:
            if all(c in types or c not in hand for c in cards):
                out.append(_("You drew {cards}.").format(
                    cards=", ".join(self.card(c, types=types) for c in cards)))
            else:
                still.append(cards)
        self._unnamed = still
        return out

    def sentences(self, events: Sequence[Event], view: dict[str, Any]) -> list[str]:
        """Sentences for a batch of events; `view` is the seat view after them."""
        types = card_types_in(view)
        out = self._named_now(view, types)
        for ev in events:
            try:
                s = self.sentence(ev, view, types)
            except (IndexError, KeyError, TypeError, ValueError):
                s = None
            if s:
                out.append(s)
        return out

    def said(self, seat: int, yours: str, theirs: str, **values: object) -> str:
        """One of two whole sentences, both English catalog messages: `yours` when `seat`
        is ours ('You … your …'), `theirs` for another player ('{who} … their …'). Every
        language speaks to the player in the second person, so our own lines never read as
        a name with a third-person verb ("Vous : passe")."""
        if seat == self.nm.you:
            return _(yours).format(**values)
        return _(theirs).format(who=self.nm.name(seat), **values)

    def sentence(self, event: Event, view: dict[str, Any],
                 types: Mapping[int, str]) -> str | None:
        nm, rs = self.nm, self.rs
        try:
            ev = events.named(event)
        except ValueError:
            return None          # not an event this client knows: nothing to say
        kind = ev.event
        who = nm.who(ev.seat) if "seat" in ev._fields else ""
        if kind == "command":
            return None
        if kind == "round":
            r = ev.round
            sr = view.get("scoring_rounds", rs.scoring_rounds)
            nxt = next_scoring(r, sr)
            values = dict(m=r, rounds=view.get("rounds", rs.rounds), season=season_of(r, sr),
                          next=nxt)
            if nxt:
                return _("── Month {m} of {rounds} ({season}; scoring after month {next}) ──"
                         ).format(**values)
            return _("── Month {m} of {rounds} ({season}) ──").format(**values)
        if kind == "keep":
            dropped = ", ".join(self.card(c, types=types) for c in ev.dropped)
            name, n = nm.name(ev.seat), rs.keep
            if ev.seat == nm.you:
                if not dropped:
                    return ngettext("You kept {n} card and discarded nothing.",
                                    "You kept {n} cards and discarded nothing.", n).format(n=n)
                return ngettext("You kept {n} card and discarded {cards}.",
                                "You kept {n} cards and discarded {cards}.", n).format(
                                    n=n, cards=dropped)
            if not dropped:
                return ngettext("{who} kept {n} card and discarded nothing.",
                                "{who} kept {n} cards and discarded nothing.",
                                n).format(who=name, n=n)
            return ngettext("{who} kept {n} card and discarded {cards}.",
                            "{who} kept {n} cards and discarded {cards}.",
                            n).format(who=name, n=n, cards=dropped)
        if kind == "np-dwarf":
            d = ev.district
            g = GUILD_TITLE[view["guilds"][d]["guild"]]
            return _("{np}'s dwarf is now on the {guild} (district {d}).").format(
                np=nm.name(ev.np_seat), guild=g, d=d)
        if kind == "place":
            seat, k, plank = ev.seat, ev.kind, ev.plank
            if plank >= CARD_PLANK:
                c = plank - CARD_PLANK
                t = types.get(c)
                if t:
                    return self.said(seat, N_("You placed {worker} on your {card} {id}."),
                                     N_("{who} placed {worker} on their {card} {id}."),
                                     worker=kind_words(k), card=TITLE[t], id=self.card(c))
            if plank == 0:
                return self.said(seat, N_("You placed {worker} on {where}, paying {fee} gold."),
                                 N_("{who} placed {worker} on {where}, paying {fee} gold."),
                                 worker=kind_words(k), where=plank_words(plank),
                                 fee=rs.fee_recruiter_desk)
            return self.said(seat, N_("You placed {worker} on {where}."),
                             N_("{who} placed {worker} on {where}."),
                             worker=kind_words(k), where=plank_words(plank))
        if kind == "pass":
            return self.said(ev.seat, N_("You passed."), N_("{who} passed."))
        if kind == "spread":
            k, counts = ev.kind, ev.counts
            parts = [f"{AREA_TITLE[AREAS[a]]} {c}" for a, c in zip(SPREAD_AREAS[k], counts) if c]
            total = sum(counts)
            if not total:
                return None
            return self.said(ev.seat, N_("You sent {workers} to the resource areas: {areas}."),
                             N_("{who} sent {workers} to the resource areas: {areas}."),
                             workers=kind_words(k, total), areas=", ".join(parts))
        if kind == "bonus":
            res = {"forest": "wood", "quarry": "stone", "mine": "metal", "gold": "gold"}[ev.area]
            amount = ev.amount if ev.amount is not None else rs.area_bonus
            return self.said(ev.seat, N_("You won the {area} bonus (+{n} {resource})."),
                             N_("{who} won the {area} bonus (+{n} {resource})."),
                             area=AREA_TITLE[ev.area], n=amount,
                             resource=term_count(f"resource:{res}", amount))
        if kind == "collect":
            return self.said(ev.seat, N_("You collected {what}."), N_("{who} collected {what}."),
                             what=cost_text(ev.gains))
        if kind == "gain-worker":
            return self.said(ev.seat, N_("You gained {worker}."), N_("{who} gained {worker}."),
                             worker=_(_A_KIND.get(ev.worker.replace(" ", "-"), ev.worker)))
        if kind == "crest":
            seat, k, holder = ev.seat, ev.crest, ev.from_seat
            if holder == seat:
                return self.said(seat, N_("You kept crest {k} at the King's camp."),
                                 N_("{who} kept crest {k} at the King's camp."), k=k)
            if holder == nm.you:
                # "you" as the object has its own sentence: languages place the pronoun
                # ("Di vous prend l'écusson 1")
                return _("{who} took crest {k} from you at the King's camp.").format(
                    who=nm.name(seat), k=k)
            return self.said(seat, N_("You took crest {k} from {whom} at the King's camp."),
                             N_("{who} took crest {k} from {whom} at the King's camp."),
                             k=k, whom=nm.whom(holder))
        if kind == "income":
            return self._income(ev)
        if kind == "build":
            t, site = ev.type, ev.site
            d = SITE_DISTRICT[site]
            if CARD_TYPES[t] == "keep":
                return self.said(ev.seat, N_("You built a Keep in district {d} (+2 markers)."),
                                 N_("{who} built a Keep in district {d} (+2 markers)."), d=d)
            if CARD_TYPES[t] == "gatehouse":
                g = (site - GATE_BASE) // 2
                return self.said(ev.seat, N_("You built a Gatehouse on gatehouse {g}, district "
                                             "{d} side (+1 marker)."),
                                 N_("{who} built a Gatehouse on gatehouse {g}, district {d} side "
                                    "(+1 marker)."), g=g, d=d)
            return self.said(ev.seat, N_("You built {a_card} in district {d} (+1 marker)."),
                             N_("{who} built {a_card} in district {d} (+1 marker)."),
                             a_card=_(A_CARD[CARD_TYPES[t]]), d=d)
        if kind == "wall":
            return self.said(ev.seat, N_("You built a wall in district {d} (+1 marker)."),
                             N_("{who} built a wall in district {d} (+1 marker)."),
                             d=SITE_DISTRICT[ev.site])
        if kind == "guild":
            d = self.guilds.index(ev.guild) if ev.guild in self.guilds else None
            g = GUILD_TITLE[GUILDS[ev.guild]]
            if d is None:
                return self.said(ev.seat, N_("You built the {guild} guild and own it (+1 marker)."),
                                 N_("{who} built the {guild} guild and owns it (+1 marker)."),
                                 guild=g)
            return self.said(ev.seat, N_("You built the {guild} guild in district {d} and own "
                                       "it (+1 marker)."),
                             N_("{who} built the {guild} guild in district {d} and owns it "
                                "(+1 marker)."), guild=g, d=d)
        if kind == "buy":
            r = ev.resource
            return self.said(ev.seat, N_("You bought 1 {resource} for {gold} gold."),
                             N_("{who} bought 1 {resource} for {gold} gold."),
                             resource=RES_TITLE[RESOURCES[r]], gold=rs.trade_buy[r])
        if kind == "sell":
            r = ev.resource
            return self.said(ev.seat, N_("You sold 1 {resource} for {gold} gold."),
                             N_("{who} sold 1 {resource} for {gold} gold."),
                             resource=RES_TITLE[RESOURCES[r]], gold=rs.trade_sell[r])
        if kind == "exchange":
            return self.said(ev.seat, N_("You exchanged 1 {resource} for 1 metal (Merchants)."),
                             N_("{who} exchanged 1 {resource} for 1 metal (Merchants)."),
                             resource=RES_TITLE[RESOURCES[ev.resource]])
        if kind == "gnome":
            return self.said(ev.seat, N_("You put a gnome on {card}."),
                             N_("{who} put a gnome on {card}."),
                             card=self.card(ev.card, types=types))
        if kind == "second-marker":
            return self.said(ev.seat, N_("You put a second marker on {site}."),
                             N_("{who} put a second marker on {site}."),
                             site=site_words(ev.site))
        if kind == "bank":
            gold = ev.gold if ev.gold is not None else rs.lock_bank_gold
            return self.said(ev.seat, N_("You took {gold} gold from your Bank {card}."),
                             N_("{who} took {gold} gold from their Bank {card}."),
                             gold=gold, card=self.card(ev.card))
        if kind == "smith":
            gold, metal = (ev.gold_paid, ev.metal) if ev.metal is not None else (
                rs.lock_blacksmith_gold, rs.lock_blacksmith_metal)
            return self.said(ev.seat, N_("You bought {metal} metal for {gold} gold at your "
                                       "Blacksmith {card}."),
                             N_("{who} bought {metal} metal for {gold} gold at their "
                                "Blacksmith {card}."), gold=gold, metal=metal,
                             card=self.card(ev.card))
        if kind == "buy-card":
            if ev.card == -1:
                return self.said(ev.seat,
                                 N_("You bought the top card of the draw pile ({gold} gold)."),
                                 N_("{who} bought the top card of the draw pile ({gold} gold)."),
                                 gold=rs.fee_card_purchase)
            return self.said(ev.seat, N_("You bought {card} from the pool ({gold} gold)."),
                             N_("{who} bought {card} from the pool ({gold} gold)."),
                             card=self.card(ev.card, types=types), gold=rs.fee_card_purchase)
        if kind == "draw":
            cards = ev.cards
            if ev.seat == nm.you:
                unnamed = {h.get("card") for h in view.get("hand", []) if not h.get("type")}
                if any(c in unnamed and c not in types for c in cards):
                    self._unnamed.append(tuple(cards))
                    return None
                return _("You drew {cards}.").format(
                    cards=", ".join(self.card(c, types=types) for c in cards))
            return ngettext("{who} drew {n} card.", "{who} drew {n} cards.",
                            len(cards)).format(who=who, n=len(cards))
        if kind == "pool":
            return None          # the pool line shows it
        if kind == "end-turn":
            return self.said(ev.seat, N_("You ended your turn."), N_("{who} ended their turn."))
        if kind == "discard":
            return self.said(ev.seat, N_("You discarded {card}."), N_("{who} discarded {card}."),
                             card=self.card(ev.card, ev.type))
        if kind == "show":
            return self.said(ev.seat, N_("You showed {card} to the Spies."),
                             N_("{who} showed {card} to the Spies."),
                             card=self.card(ev.card, ev.type))
        if kind == "take":
            if ev.from_seat == nm.you:
                return _("{who} took {card} from you (Spies).").format(
                    who=nm.name(ev.seat), card=self.card(ev.card, types=types))
            return self.said(ev.seat, N_("You took {card} from {whom} (Spies)."),
                             N_("{who} took {card} from {whom} (Spies)."),
                             card=self.card(ev.card, types=types), whom=nm.whom(ev.from_seat))
        if kind == "np-take":
            return _("{np} took {card}.").format(np=nm.name(ev.np_seat),
                                                 card=self.card(ev.card, types=types))
        if kind == "np-mark":
            np, card, site = ev.np_seat, ev.card, ev.site
            if site == -1:
                return _("{np} could not place {card}; it is discarded.").format(
                    np=nm.name(np), card=self.card(card, types=types))
            return _("{np} marked {site}.").format(np=nm.name(np), site=site_words(site))
        if kind == "np-skip":
            return _("{np} had no card to take.").format(np=nm.name(ev.np_seat))
        if kind == "activate":
            return self._activate(ev, view, types)
        if kind == "architects":
            return self.said(ev.seat, N_("You marked {site} with the Architects (+1 marker)."),
                             N_("{who} marked {site} with the Architects (+1 marker)."),
                             site=site_words(ev.site))
        if kind == "steal":
            dst, src, r, amount = ev.to_seat, ev.from_seat, ev.resource, ev.amount
            if src == nm.you:
                return _("{who} took {what} from you.").format(
                    who=nm.name(dst), what=count_of(amount, f"resource:{RESOURCES[r]}"))
            return self.said(dst, N_("You took {what} from {whom}."),
                             N_("{who} took {what} from {whom}."),
                             what=count_of(amount, f"resource:{RESOURCES[r]}"), whom=nm.whom(src))
        if kind == "swap":
            a, b = ev.site_a, ev.site_b
            return _("The Wizards swapped the markers of {a} and {b}.").format(
                a=site_symbol(a), b=site_symbol(b))
        if kind == "scoring":
            return self._scoring(ev.round, view)
        if kind == "game-over":
            return self._game_over(view)
        if kind == "undo":
            # our own take-back is answered where it was typed ("Taken back: …")
            if ev.seat == nm.you:
                return None
            return _("{who} took back: {command}.").format(who=who,
                                                           command=command_text(ev.command))
        if kind == "reshuffle":
            return _("The discard pile was shuffled into a new draw pile.")
        return None

    def _activate(self, ev: events.Activate, view: dict[str, Any],
                  types: Mapping[int, str]) -> str:
        seat, plank, args = ev.seat, ev.plank, ev.args
        rs = self.rs
        if plank >= CARD_PLANK:
            c = plank - CARD_PLANK
            t = types.get(c, "")
            gain = {"blacksmith": lambda: _(" (+{n} metal)").format(n=rs.blacksmith_metal),
                    "market": lambda: _(" (+{n} gold)").format(n=rs.market_gold),
                    "library": lambda: _(" (draw {draw}, discard {discard})").format(
                        draw=rs.library_draw, discard=rs.library_discard)
                    }.get(t, lambda: "")()
            wasted = _(" (nothing to gain: wasted)") if t in ("tower", "inn") and not args \
                else ""
            return self.said(seat, N_("You activated your {card} {id}{gain}{wasted}."),
                             N_("{who} activated their {card} {id}{gain}{wasted}."),
                             card=TITLE[t] if t in TITLE else _("card"), id=self.card(c),
                             gain=gain, wasted=wasted)
        g = GUILDS[plank - GUILD_PLANK]
        gain = ""
        if g in ("sawyers", "miners", "bankers", "masons"):
            gain = f" (+{cost_text(rs.guild_yield[plank - GUILD_PLANK])})"
        elif g == "merchants":
            gain = _(" ({exchanges} exchanges and {visits} extra trading-post visits)").format(
                exchanges=rs.merchants_exchanges, visits=rs.merchants_extra_visits)
        elif g == "librarians":
            gain = _(" (draw {draw}, discard {discard})").format(
                draw=rs.librarians_draw, discard=rs.librarians_discard)
        elif g == "recruiters" and args and args[0] in ("elf", "dwarf"):
            gain = ""
        elif g in ("architects", "recruiters", "thieves", "bandits", "wizards") and not args:
            gain = _(" (nothing possible: wasted)")
        return self.said(seat, N_("You activated the {guild}{gain}."),
                         N_("{who} activated the {guild}{gain}."), guild=GUILD_TITLE[g],
                         gain=gain)

    def _income(self, event: Event) -> str | None:
        ev = events.named(event)
        seat, income, paid, lost = ev.seat, ev.income, ev.tax_paid, ev.vp_lost
        if seat == self.nm.you:
            return self._your_income(income, paid, lost)
        values = dict(who=self.nm.name(seat), income=income, paid=paid, lost=lost)
        if lost:
            if income and paid:
                text = _("{who} received {income} gold income and paid {paid} gold tax. {who} "
                         "could not pay {lost} more gold tax: -{lost} VP.")
            elif income:
                text = _("{who} received {income} gold income. {who} could not pay {lost} "
                         "more gold tax: -{lost} VP.")
            elif paid:
                text = _("{who} paid {paid} gold tax and could not pay {lost} more: "
                         "-{lost} VP.")
            else:
                text = _("{who} could not pay {lost} gold tax: -{lost} VP.")
        elif income and paid:
            text = _("{who} received {income} gold income and paid {paid} gold tax.")
        elif income:
            text = _("{who} received {income} gold income.")
        elif paid:
            text = _("{who} paid {paid} gold tax.")
        else:
            return None
        return text.format(**values)

    def _your_income(self, income: int, paid: int, lost: int) -> str | None:
        values = dict(income=income, paid=paid, lost=lost)
        if lost:
            if income and paid:
                text = _("You received {income} gold income and paid {paid} gold tax. You "
                         "could not pay {lost} more gold tax: -{lost} VP.")
            elif income:
                text = _("You received {income} gold income. You could not pay {lost} "
                         "more gold tax: -{lost} VP.")
            elif paid:
                text = _("You paid {paid} gold tax and could not pay {lost} more: "
                         "-{lost} VP.")
            else:
                text = _("You could not pay {lost} gold tax: -{lost} VP.")
        elif income and paid:
            text = _("You received {income} gold income and paid {paid} gold tax.")
        elif income:
            text = _("You received {income} gold income.")
        elif paid:
            text = _("You paid {paid} gold tax.")
        else:
            return None
        return text.format(**values)

    def _game_over(self, view: dict[str, Any]) -> str:
        res = view.get("result") or {}
        winners = res.get("winners", [])
        you = self.nm.you
        if len(winners) == 1:
            if winners[0] == you:
                return _("The game is over: you win!")
            return _("The game is over: {name} wins.").format(name=self.nm.name(winners[0]))
        # others first, then 'you': "Bo and you share the victory"
        names = [self.nm.name(s) for s in winners if s != you] + \
            ([pgettext("object", "you")] if you in winners else [])
        return _("The game is over: {names} share the victory after the tie-break.").format(
            names=and_list(names))

    def _scoring(self, rnd: int, view: dict[str, Any]) -> str:
        rec = None
        for r in view.get("score_log", []):
            if r.get("round") == rnd:
                rec = r
        if rec is None:
            return _("Scoring after month {m}.").format(m=rnd)
        parts = [f"{self.nm.name(s)} +{pts}" for s, pts in enumerate(rec["total"])]
        return _("★ Scoring after month {m}: {points}.").format(m=rnd, points=", ".join(parts))


def and_list(names: Sequence[str]) -> str:
    """'Ana, Bo and Cy' in the active language."""
    if len(names) < 2:
        return "".join(names)
    # i18n: the end of a list of names: "Ana, Bo and Cy"
    return _("{first} and {last}").format(first=", ".join(names[:-1]), last=names[-1])


def site_symbol(site: int) -> str:
    """A board symbol as the player types it: 'tower@3', 'porte1@2' in French."""
    from .i18n import active_language, localize_token
    name = SITE_NAME[site] if isinstance(site, int) else site
    return localize_token(name, active_language(), "site")


def card_types_in(view: dict[str, Any]) -> dict[int, str]:
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
