"""The rules reference behind `help …` and `belfort rules [TOPIC]`.

Summaries of the rules; the § numbers are those of docs/rules.md, which code and tests
cite too. Every number is read from the ruleset in force, never written here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from belfort.data import CARD_TYPES, GOLD, GUILDS, METAL, STONE, WOOD

from .i18n import N_, _, cell_width, ngettext, pad, pgettext
from .words import GUILD_TITLE, RES_TITLE, TITLE, cost_text, count_of

if TYPE_CHECKING:
    from belfort.ruleset import Ruleset


def _cat(rs: Ruleset, g: str) -> str:
    return ("basic", "resource", "interactive")[rs.guild_category[GUILDS.index(g)]]


def _season_text(rs: Ruleset) -> str:
    return ", ".join(str(r) for r in rs.scoring_rounds)


def _prices(rs: Ruleset) -> str:
    names = ("wood", "stone", "metal")
    buy = ", ".join(f"{RES_TITLE[n]} {p}" for n, p in zip(names, rs.trade_buy))
    sell = ", ".join(f"{RES_TITLE[n]} {p}" for n, p in zip(names, rs.trade_sell))
    return _("gold to buy: {buy}; gold for selling: {sell}").format(buy=buy, sell=sell)


def _tiebreak(rs: Ruleset) -> str:
    parts = []
    for name, k in zip(("wood", "stone", "gold", "metal"), (rs.tiebreak[WOOD], rs.tiebreak[STONE],
                                                           rs.tiebreak[GOLD], rs.tiebreak[METAL])):
        if k:
            parts.append(RES_TITLE[name] if k == 1 else f"{k} × {RES_TITLE[name]}")
    return " + ".join(parts) or _("nothing")


def _discounts(rs: Ruleset) -> tuple[str, str]:
    m, ws = rs.architects_metal_discount, rs.architects_wood_stone_discount
    parts = ([count_of(m, "resource:metal")] if m else []) + \
        ([_("{n} wood/stone (in any mix)").format(n=ws)] if ws else [])
    return _(" or ").join(parts) or _("nothing"), ", ".join(rs.discounts) or _("none")


def _locks(rs: Ruleset) -> str:
    """'1 lock each, the Market 2, the Keep 0' from the ruleset."""
    counts = list(rs.locks)
    usual = max(set(counts), key=counts.count)
    odd = [_("the {card} {n}").format(card=TITLE[t], n=k)
           for t, k in zip(CARD_TYPES, counts) if k != usual]
    each = ngettext("{n} lock each", "{n} locks each", usual).format(n=usual)
    return each + (", " + ", ".join(odd) if odd else "")


def _visits(rs: Ruleset) -> str:
    return ngettext("{n} visit", "{n} visits", rs.trade_visits).format(n=rs.trade_visits)


def _taxes(rs: Ruleset) -> str:
    levels = list(rs.tax_levels)
    if levels[0][0] > 0:          # a score below the first level pays nothing
        levels.insert(0, (0, 0))
    parts = []
    for i, (low, tax) in enumerate(levels):
        high = levels[i + 1][0] - 1 if i + 1 < len(levels) else None
        span = f"{low}–{high}" if high is not None else f"{low}+"
        parts.append(f"{span}: {tax}")
    return "; ".join(parts)


def _numbers(rs: Ruleset) -> dict[str, int | str]:
    """The ruleset's numbers the help texts quote, by name (see phase_topics)."""
    return dict(
        area_bonus=rs.area_bonus,
        cards_per_type=rs.cards_per_type,
        deal=rs.deal,
        district_points_0=rs.district_points[0],
        district_points_1=rs.district_points[1],
        district_points_2=rs.district_points[2],
        district_third_from=rs.district_third_from,
        fee_card_purchase=rs.fee_card_purchase,
        fee_gnome_hire=rs.fee_gnome_hire,
        fee_guild_plank=rs.fee_guild_plank,
        fee_property_plank=rs.fee_property_plank,
        fee_recruiter_desk=rs.fee_recruiter_desk,
        hand_limit=rs.hand_limit,
        keep=rs.keep,
        keep_example=" ".join(f"#{i}" for i in range(rs.keep)),
        reserve=rs.workers_per_colour - rs.workers_start,
        locks=_locks(rs),
        master_collects=rs.master_collects,
        name=rs.name,
        np_guild_gold=rs.np_guild_gold,
        pool_size=rs.pool_size,
        prices=_prices(rs),
        rounds=rs.rounds,
        season_text=_season_text(rs),
        start_cost=cost_text(rs.start),
        taxes=_taxes(rs),
        tiebreak=_tiebreak(rs),
        unpaid_tax_vp=rs.unpaid_tax_vp,
        visits=_visits(rs),
        wall_cost_cost=cost_text(rs.wall_cost),
        worker_points_0=rs.worker_points[0],
        worker_points_1=rs.worker_points[1],
        workers_per_colour=rs.workers_per_colour,
        workers_start=rs.workers_start)


def phase_topics(rs: Ruleset) -> dict[str, tuple[str, str]]:
    n = _numbers(rs)
    return {
        "overview": (
            _("Belfort in short"),
            _("2–5 players build a town of five districts over {rounds} months. Each "
              "month:\n  1 Calendar    the month advances.\n  2 Placement   in turn order "
              "each player places one elf or dwarf on a free plank, or passes and "
              "spreads all remaining workers over the resource areas.\n  3 Collection  "
              "the resource areas pay out, the Recruiter's desk gives workers, the "
              "King's camp changes turn order, then income and taxes.\n  4 Actions     in "
              "turn order, each player takes a whole turn: build, activate placed "
              "workers, trade, hire a gnome, buy a card, end.\n  5 Scoring     after "
              "months {season_text}: district majorities and elf, dwarf and gnome "
              "majorities.\nMost victory points (VP) at the end wins. Topics: setup "
              "placement collection actions scoring taxes end two-player deck board "
              "screen commands glossary, any card or guild name, any command (place, "
              "build, …), any word of the game (gnome, master, crest, plank, marker, …)."
              ).format(**n)),
        "setup": (
            _("Setup (§3)"),
            _("Each player starts with {start_cost}, {workers_start} elves and "
              "{workers_start} dwarves in play (the rest of their {workers_per_colour} "
              "of each wait in the reserve), score 0. Everyone is dealt {deal} cards and "
              "secretly keeps {keep}; the others are discarded face up. All choices are "
              "revealed together.\n  keep {keep_example}          (the client adds the "
              "'drop …' part for you)\nTurn-order crests 1…N are dealt at random; the "
              "pool gets {pool_size} face-up cards.").format(**n)),
        "placement": (
            _("Placement (§6)"),
            _("In crest order, each player places ONE elf or dwarf on a free plank, or "
              "passes. One worker per plank.\n  Recruiter's desk: {fee_recruiter_desk} "
              "gold; in Collection it gives you one more worker of the same kind from "
              "your reserve.\n  King's camp: free, lowest free plank, one of your workers "
              "per month; in Collection you take a face-up crest (turn order).\n  A "
              "guild: {fee_guild_plank} gold (to its owner, or free if it is yours); "
              "activate it in your Actions turn.\n  Your own built cards with a plank "
              "(Tower and Inn only once a gnome is on the lock, {fee_property_plank} "
              "gold).\nWhen you pass, ALL your remaining elves and dwarves go to the "
              "resource areas: forest (elves only), quarry (dwarves only), mine and gold "
              "mine (both).\n  place elf desk | place dwarf miners | place elf #17 | pass\n"
              "  spread elf forest=2 mine=1 gold=0   (or just: spread 2 1 0)").format(**n)),
        "collection": (
            _("Collection (§7)"),
            _("In this order: forest (each elf 1 wood), quarry (each dwarf 1 stone), "
              "mine (metal = pairs of elf and dwarf), gold mine (each worker 1 gold). A "
              "master counts {master_collects} for collecting. The single player with "
              "most worker pieces in an area gets +{area_bonus} of its resource (a tie: "
              "nobody).\nThen the Recruiter's desk (one more worker of the same kind), "
              "the King's camp (in plank order, take a face-up crest: swap with its "
              "holder, or choose your own to keep it; it is then face down for the "
              "month), then income (each built card's income in gold: see the card) and "
              "taxes (see 'help taxes').\n  crest 2").format(**n)),
        "actions": (
            _("Actions (§8)"),
            _("In crest order, each player takes a whole turn, in any order:\n  build #17 "
              "tower@3      pay the card's cost, mark a free symbol of its type\n  wall "
              "wall@2a           {wall_cost_cost}; any number\n  guild spies            "
              "pay the guild's cost, mark its symbol, own it\n  activate miners        "
              "every worker you placed on a guild or card must be activated before the "
              "turn ends\n  buy wood, sell metal   one buy and one sell per trading-post "
              "visit; {visits} a turn, more with Market gnomes ({prices})\n  hire #20     "
              "          {fee_gnome_hire} gold, once per turn: a gnome onto a free lock "
              "of your built card\n  bank #21, smith #22    gnome-lock abilities\n  "
              "buy-card #30 | top     {fee_card_purchase} gold, the LAST action of your "
              "turn\n  end                    end your turn (then discard down to "
              "{hand_limit} cards)").format(**n)),
        "scoring": (
            _("Scoring (§9, §10)"),
            _("After months {season_text}. Each district: most markers (properties, "
              "walls, guild; a keep counts 2) scores {district_points_0}, 2nd "
              "{district_points_1}, 3rd {district_points_2} (3rd only with "
              "{district_third_from}+ players, or 2 players with the non-players). Then "
              "elves, dwarves and gnomes separately: most {worker_points_0}, 2nd "
              "{worker_points_1} (masters count 1).\nTies: tied players each score the "
              "NEXT rank's points and take two ranks. A count of 0 scores nothing.").format(**n)),
        "taxes": (
            _("Taxes (§7, §9.7)"),
            _("At the end of Collection each player pays gold by their score: {taxes}. "
              "Each gold you cannot pay costs {unpaid_tax_vp} VP.\n(Ruleset '{name}'. The "
              "first reconstruction's ten-space ladder ships as a ruleset: belfort play "
              "--ruleset ten-space-taxes.)").format(**n)),
        "end": (
            _("End of the game (§11)"),
            _("After the scoring of month {rounds}. Most VP wins; a tie is broken by "
              "resources ({tiebreak}); still tied, they share the victory.").format(**n)),
        "two-player": (
            _("Two players (§12)"),
            _("Two non-players, NP3 and NP4, hold crests 3 and 4. The holder of crest 1 "
              "plays NP3, of crest 2 NP4. At setup each puts an NP dwarf on a guild "
              "(np-dwarf merchants); nobody may place on a guild holding an NP dwarf. "
              "After Actions, each NP takes a card (np-take #30 | top) and marks a free "
              "symbol of its type (np-mark tower@2); then the NP dwarves move one guild "
              "on (its owner gains {np_guild_gold} gold). Districts score as with 4 "
              "players.").format(**n)),
        "deck": (
            _("The deck (§15)"),
            _("{cards_per_type} cards of each of the 10 types. A face-up pool of "
              "{pool_size}, refilled at once; an empty draw pile is refilled by "
              "shuffling the discards. Hands are secret; the hand limit is {hand_limit} "
              "at the end of your turn.").format(**n)),
        "board": (
            _("The board (§2)"),
            _("Five districts 0–4 in a ring. Each has one symbol for each of Pub, "
              "Gardens, Tower, Inn, Blacksmith, Bank, Market and Library, a Keep section "
              "(2 symbols), two walls (wall@Da, wall@Db) and a guild. Gatehouse g spans "
              "districts g and g+1: one symbol in each (gateG@D). Symbols are written "
              "tower@3, keep@1, wall@2a, guild@4, gate4@0.\nOn the screen, each symbol "
              "shows the initial of whoever marked it ('·' = free).")),
        "screen": (
            _("The screen"),
            _("Top: month, phase and whose decision it is. Districts: one row each (D), "
              "with the guild (owner's letter, then the worker on its plank: e elf, d "
              "dwarf, E/D a master), each symbol's holder (· = free), the Keep (Kp), the "
              "two walls (Wl), the two gatehouse symbols (Gt) and each player's markers "
              "(B3 = Bo has 3).\nDesk and Camp: the workers on the Recruiter's desk and "
              "the King's camp planks; then the resource areas (A3(1M) = Ana has 3 "
              "workers there, 1 a master).\nPlayers: ▶ whose decision it is; Cr crest, VP "
              "victory points, Tx tax level, Wd St Mt Gd wood, stone, metal, gold; Elf "
              "and Dwf the workers in play, 4(1) = 4 of which 1 is a master; Gn gnomes; "
              "Hd cards in hand; Built: the built cards, Twr[g] a gnome on its lock, "
              "Mkt[g·] one of two locks filled, :e a worker on its plank, +2 two more "
              "(tableau shows them all).\nThen your hand with each card's cost (w s m g), "
              "the pool, the piles and the log. What the other players changed since "
              "your last command is shown in reverse video until your next command.\n"
              "Keys: Tab completes (after a whole word: the next word), → or Ctrl-F or "
              "Ctrl-E takes the grey hint, ↑/↓ history, PgUp/PgDn scroll, Esc closes a "
              "panel, Enter on an empty line plays the only choice (or closes a panel), "
              "Ctrl-C leaves (asks first).\nCommands of the program: ? (what you can do, "
              "numbered), help TOPIC, score, tableau [PLAYER], log, quit.")),
        "glossary": (
            _("Words of the game"),
            _("  worker     an elf or a dwarf (help workers); gnomes are not placed\n  "
              "master     a worker flipped to its master side: collects "
              "{master_collects} (help master)\n  gnome      hired onto a lock of your "
              "built card (help gnome)\n  plank      a space for one worker: desk, camp, "
              "guilds, cards (help plank)\n  lock       a gnome space on a card; its "
              "ability works once filled (help lock)\n  symbol     a space on the board "
              "for a marker (help board)\n  marker     your token on a symbol; markers "
              "win districts (help marker)\n  crest      your turn-order number (help "
              "crests)\n  pool       the {pool_size} face-up cards anyone may buy (help "
              "deck)\n  VP         victory points (help scoring)\n  tax        gold paid "
              "each month by your VP level (help taxes)").format(**n)),
        "workers": (
            _("Workers: elves and dwarves (§1, §6, §7)"),
            _("Each player has {workers_per_colour} elves and {workers_per_colour} "
              "dwarves; {workers_start} of each start in play, the rest wait in the "
              "reserve (only you can gain yours: the Recruiter's desk, the Inn, the "
              "Recruiters). Each month you place them one by one on planks, or pass and "
              "send the rest to the resource areas: elves to the forest (wood), dwarves "
              "to the quarry (stone), both to the mine (metal, per elf-dwarf pair) and "
              "the gold mine (gold). At scoring, most elves and most dwarves in play "
              "score VP (help scoring). Masters: help master.").format(**n)),
        "master": (
            _("Masters (§1, §7, §13)"),
            _("A master is an elf or dwarf flipped to its master side, by a gnome "
              "arriving on the lock of your Gardens (an elf) or Pub (a dwarf). A master "
              "collects {master_collects} in the resource areas, but counts 1 for an "
              "area's bonus and for scoring majorities.\nOn the screen: Elf 4(1) = 4 "
              "elves, 1 of them a master; on a plank E or D.\nPlace one with place "
              "master-elf desk — or just place elf desk when the master is the only elf "
              "you have left.").format(**n)),
        "gnome": (
            _("Gnomes (§8, §13)"),
            _("Gnomes work on your built cards. Hire one in your Actions turn: "
              "{fee_gnome_hire} gold, once per turn, onto a free lock (hire #CARD). The "
              "Tower and the Recruiters give gnomes too. A gnome unlocks the card's "
              "ability at once (help CARD tells which), stays for the game, and counts "
              "for the gnome majority at scoring. The supply is limited (Gnomes on the "
              "screen).\nOn the screen: Twr[g] a gnome on the lock, Mkt[g·] one of two "
              "locks filled.").format(**n)),
        "plank": (
            _("Planks (§6)"),
            _("A plank is a space for one worker: the Recruiter's desk "
              "({fee_recruiter_desk} gold), the King's camp (free), each guild "
              "({fee_guild_plank} gold, free for its owner) and your own built cards "
              "that have one (Tower and Inn only once a gnome is on the lock). Place "
              "with place elf desk, place dwarf camp, place elf miners, place dwarf #17."
              ).format(**n)),
        "lock": (
            _("Gnome locks (§13)"),
            _("A gnome lock takes one gnome; the cards have {locks}. The card's locked "
              "ability works from the moment a gnome is on it. tableau shows which locks "
              "are filled.").format(**n)),
        "marker": (
            _("Markers (§2, §9)"),
            _("Building a card, a wall or a guild puts your marker on a board symbol (a "
              "Keep puts 2). At each scoring the players with most markers in a district "
              "score VP. The Markers column of the board counts them per district; score "
              "shows who leads.")),
        "crests": (
            _("Crests: turn order (§3, §7)"),
            _("Crest 1 places and acts first, then 2, … A worker on the King's camp lets "
              "you take a face-up crest in Collection (swap with its holder, or choose "
              "your own to keep it); the taken crest is face down for the rest of the "
              "month. Type e.g. crest 1.")),
        "income": (
            _("Income (§7, §13)"),
            _("In Collection each built card gives its income in gold (help card-list "
              "shows each card's), then you pay tax (help taxes).")),
        "areas": (
            _("Resource areas (§6, §7)"),
            _("Forest: elves, 1 wood each. Quarry: dwarves, 1 stone each. Mine: both, 1 "
              "metal per elf-dwarf pair. Gold mine: both, 1 gold each. A master collects "
              "{master_collects}. The player with the most worker pieces in an area gets "
              "{area_bonus} more (a tie: nobody). You send workers there when you pass: "
              "spread 2 1 0.").format(**n)),
        "trading-post": (
            _("The trading post (§8)"),
            _("In your Actions turn: {visits}, each one buy and one sell of one unit "
              "({prices}). Extra visits come from Market gnomes and the Merchants. buy "
              "wood, sell metal.").format(**n)),
        "months": (
            _("Months and seasons (§4, §10)"),
            _("The game lasts {rounds} months; scoring follows months {season_text} (the "
              "end of a season). The header shows the month and the next scoring.").format(**n)),
        "reserve": (
            _("The reserve (§3)"),
            _("The workers not yet in play ({reserve} elves and {reserve} "
              "dwarves at the start). Gain them with the Recruiter's desk, the Inn or "
              "the Recruiters.").format(**n)),
    }


CARD_TEXT = {
    "pub": N_("Gnome lock: when a gnome arrives, flip one of your dwarves to a master "
           "(collects {master})."),
    "gardens": N_("Gnome lock: when a gnome arrives, flip one of your elves to a master "
               "(collects {master})."),
    "tower": N_("Plank behind the gnome lock (fee {prop} gold): take a gnome from the supply onto "
             "one of your free gnome locks (not your one hire of the turn)."),
    "inn": N_("Plank behind the gnome lock (fee {prop} gold): gain an elf or a dwarf from your "
           "reserve."),
    "blacksmith": N_("Plank: gain {smith} metal. Gnome lock: once per month, in your turn, buy "
                  "{smith_metal} metal for {smith_gold} gold (smith #ID)."),
    "bank": N_("Gnome lock: once per turn, take {bank} gold (bank #ID)."),
    "market": N_("Plank: gain {market} gold. Gnome locks: each gnome gives {visits} more "
              "trading-post visit(s) per turn."),
    "gatehouse": N_("Gatehouse G spans districts G and G+1, one symbol in each, written gateG@D "
                 "with D the district: gatehouse 1 has gate1@1 and gate1@2, gatehouse 4 has "
                 "gate4@4 and gate4@0. Build only where both are free; you mark one of them. "
                 "Gnome lock: put a second marker on the free other symbol of a gatehouse "
                 "where you have one."),
    "library": N_("Plank: draw {libdraw} cards, then discard {libdiscard}. Gnome lock: after "
               "your turn ends, draw {libgnome} card(s) free per gnome (then discard down to "
               "{limit})."),
    "keep": N_("No plank; built on both symbols of a district's keep section, so it counts 2 "
            "markers."),
}

GUILD_TEXT = {
    "merchants": N_("Up to {mex} times this turn exchange 1 wood or stone for 1 metal "
                 "(exchange wood), and {mvis} extra trading-post visits."),
    "librarians": N_("Draw {lbd} cards, then discard {lbx} from your hand."),
    "architects": N_("Mark any free property, wall or guild symbol without a card, paying its "
                  "cost less {adisc} (discount={codes}). No income, plank or lock comes with "
                  "it. E.g. activate architects tower@2 discount={code}"),
    "recruiters": N_("Gain an elf or a dwarf from your reserve, or put a gnome from the supply on "
                  "a free lock of your built card. E.g. activate recruiters elf, or activate "
                  "recruiters gnome #20"),
    "sawyers": N_("Gain {yield}."),
    "miners": N_("Gain {yield}."),
    "bankers": N_("Gain {yield}."),
    "masons": N_("Gain {yield}."),
    "thieves": N_("Take up to {th1} gold from one player, or up to {the} gold from each of up to "
               "{tgt} players. E.g. activate thieves from 2 (seat 2), or activate thieves "
               "each 1 3"),
    "bandits": N_("From one player take up to {bdm} metal or up to {bd1} wood/stone, or up to "
               "{bde} wood or stone from each of up to {tgt} players. E.g. activate bandits "
               "from 2 wood stone, or activate bandits each 1:wood 3:stone"),
    "wizards": N_("Swap ALL markers between two properties of the same type, two guilds (owners "
               "swap too) or two walls. E.g. activate wizards tower@1 tower@3, or activate "
               "wizards gate1 gate3"),
    "spies": N_("Every other player with a card shows one from their hand (all at once); you "
             "take one of them. The others type e.g. show #3 (the card they show); you then "
             "e.g. take #3."),
}

# Usage and meaning of each command; numbers in {braces} come from the ruleset (command_text).
COMMAND_TEXT = {
    "keep": (N_("keep {keep_cards} [drop {drop_cards}]"),
             N_("setup: keep {keep} of your {deal} cards (§3)")),
    "np-dwarf": (N_("np-dwarf GUILD"), N_("2 players: put your NP's dwarf on a guild (§12)")),
    "place": (N_("place elf|dwarf|master-elf|master-dwarf desk|camp|GUILD|#CARD"),
              N_("put one worker on a plank (§6)")),
    "pass": (N_("pass"), N_("stop placing; then spread the rest over the resource areas (§6)")),
    "spread": (N_("spread elf forest=2 mine=1 gold=0   (shorthand: spread 2 1 0)"),
               N_("after passing: where your remaining workers of one kind go (§6)")),
    "crest": (N_("crest N"), N_("King's camp: take crest N, e.g. crest 1 (§7; help crests: turn "
              "order)")),
    "build": (N_("build #CARD SYMBOL"), N_("build a card from your hand on a free symbol (§8)")),
    "wall": (N_("wall wall@2a"), N_("build a wall (§8)")),
    "guild": (N_("guild NAME"), N_("build a guild and own it (§8)")),
    "activate": (N_("activate GUILD|#CARD [WHAT]"), N_("resolve a worker you placed; WHAT is what "
                 "the action needs, see help GUILD or help CARD (§8, §13, §14)")),
    "buy": (N_("buy wood|stone|metal"), N_("trading post: buy one unit (§8)")),
    "sell": (N_("sell wood|stone|metal"), N_("trading post: sell one unit (§8)")),
    "exchange": (N_("exchange wood|stone"), N_("Merchants: 1 wood or stone → 1 metal (§14)")),
    "hire": (N_("hire #CARD [gateG@D]"), N_("hire a gnome onto a free lock (§8); on a Gatehouse, "
             "name the gatehouse symbol it marks")),
    "bank": (N_("bank #CARD"), N_("Bank gnome: take {bank} gold (§13)")),
    "smith": (N_("smith #CARD"),
              N_("Blacksmith gnome: buy {smith_metal} metal for {smith_gold} gold (§13)")),
    "buy-card": (N_("buy-card #CARD | top"), N_("buy a card: the last action of your turn (§8)")),
    "end": (N_("end"), N_("end your turn (§8)")),
    "discard": (N_("discard #CARD   (or discard #3:pub)"), N_("discard a card, one at a time (hand "
                "limit, Library, Librarians)")),
    "show": (N_("show #CARD"), N_("Spies: the card you show (§14)")),
    "take": (N_("take #CARD"), N_("Spies: the shown card you take (§14)")),
    "np-take": (N_("np-take #CARD | top"), N_("2 players: the card your NP takes (§12)")),
    "np-mark": (N_("np-mark SYMBOL | none"), N_("2 players: where your NP puts its marker (§12)")),
    "np-skip": (N_("np-skip"), N_("2 players: nothing to take")),
}

CLIENT_TEXT = {
    "?": (N_("?   then a number"), N_("list your legal commands, numbered; a number (even without "
          "the list) picks one")),
    "help": (N_("help [TOPIC]"), N_("this reference: a phase, card, guild, command or word")),
    "score": (N_("score"), N_("the scoring breakdown: what a scoring would give now, counts, ranks "
              "and VP per district and for elves, dwarves and gnomes")),
    "tableau": (N_("tableau [PLAYER]"),
                N_("every player's built cards (or one player's): gnomes on "
                   "their locks, who is on their plank, income")),
    "log": (N_("log"), N_("the whole log of the game")),
    "undo": (N_("undo   (or Ctrl-Z)"), N_("take back your last action, one at a time, until "
             "something new is known: a card drawn or turned up, hidden choices revealed, another "
             "player's decision, the end of a phase (a card you played yourself does not "
             "stop it); in a LAN game, only while it is still your turn, and every player "
             "sees the take-back; a refusal says why")),
    "quit": (N_("quit"), N_("leave the game (asks first; a game on this machine can be kept for "
             "belfort play --resume)")),
    "leave": (N_("quit, then y or g   (a LAN game)"),
              N_("leave a LAN game for now (y: belfort rejoin continues it) or for good (g: with "
                 "3 to 5 players a bot takes your seat at once; with 2 the game ends there, "
                 "with its final table)")),
    "again": (N_("again   (a LAN game, once it is over)"),
              N_("another game at the same table, without a new lobby: it starts once every "
                 "player still there has said again (the bots follow); the next player in turn "
                 "starts, and the evening's results show under every final table")),
    "evening": (N_("evening"), N_("the evening's results at this LAN table: games, wins and "
                "points of each player")),
}

ALIASES = {"rules": "overview", "phases": "overview", "round": "overview", "keep-3": "setup",
           "camp": "collection", "kings-camp": "collection", "desk": "placement",
           "recruiters-desk": "placement", "trading": "trading-post", "trade": "actions",
           "tax": "taxes", "scores": "scoring", "ties": "scoring", "tie-break": "end",
           "end-game": "end", "discount": "architects", "2p": "two-player",
           "np": "two-player", "non-players": "two-player", "cards": "deck",
           "districts": "board", "symbols": "board",
           "gatehouses": "gatehouse", "walls": "board", "guilds": "guild-list",
           "layout": "screen", "keys": "screen", "gnomes": "gnome", "masters": "master",
           "master-elf": "master", "master-dwarf": "master", "elf": "workers",
           "elves": "workers", "dwarf": "workers", "dwarves": "workers", "worker": "workers",
           "planks": "plank", "locks": "lock", "gnome-lock": "lock", "markers": "marker",
           "symbol": "board", "district": "board", "crest-order": "crests",
           "turn-order": "crests", "forest": "areas", "quarry": "areas", "mine": "areas",
           "gold-mine": "areas", "resource-areas": "areas", "resources": "areas",
           "trading-post": "trading-post", "post": "trading-post", "vp": "scoring",
           "points": "scoring", "victory-points": "scoring", "month": "months",
           "season": "months", "seasons": "months", "calendar": "months", "pool": "deck",
           "hand": "deck", "draw": "deck", "discards": "deck", "supply": "gnome",
           "words": "glossary", "terms": "glossary", "cr": "crests", "tx": "taxes",
           "wd": "screen", "st": "screen", "mt": "screen", "gd": "screen", "gn": "gnome",
           "hd": "screen", "kp": "keep", "wl": "board", "gt": "gatehouse", "d": "board",
           "markers-column": "screen", "non-player": "two-player", "np3": "two-player",
           "np4": "two-player", "?": "?-command", "choices": "?-command",
           "numbers": "?-command", "income-coin": "income", "tie": "scoring",
           "bonus": "areas", "area-bonus": "areas", "scores-command": "score-command",
           "ranks": "scoring", "breakdown": "score-command", "tableaux": "tableau-command",
           "built": "tableau-command", "cards-built": "tableau-command"}


def command_text(rs: Ruleset) -> dict[str, tuple[str, str]]:
    """COMMAND_TEXT with the ruleset's numbers filled in."""
    numbers = dict(keep=rs.keep, deal=rs.deal, bank=rs.lock_bank_gold,
                   keep_cards=" ".join(f"#{chr(65 + i)}" for i in range(rs.keep)),
                   # i18n: the placeholder for a card's type in "#D:type" (the card's name)
                   drop_cards=" ".join(f"#{chr(65 + i)}:" + pgettext("placeholder", "type")
                                       for i in range(rs.keep, rs.deal)),
                   smith_gold=rs.lock_blacksmith_gold, smith_metal=rs.lock_blacksmith_metal)
    return {verb: (_(usage).format(**numbers), _(what).format(**numbers))
            for verb, (usage, what) in COMMAND_TEXT.items()}


def card_help(rs: Ruleset, t: str) -> tuple[str, str]:
    i = CARD_TYPES.index(t)
    text = _(CARD_TEXT[t]).format(prop=rs.fee_property_plank, smith=rs.blacksmith_metal,
                               market=rs.market_gold, libdraw=rs.library_draw,
                               libdiscard=rs.library_discard, limit=rs.hand_limit,
                               master=rs.master_collects, bank=rs.lock_bank_gold,
                               smith_gold=rs.lock_blacksmith_gold,
                               smith_metal=rs.lock_blacksmith_metal,
                               visits=rs.lock_market_visits, libgnome=rs.lock_library_draw)
    # the symbol as the player types it ('porte1@D' in French), with G for the gate number
    symbol = "gate1@D" if t == "gatehouse" else f"{t}@D"
    build = _("Build it with: {usage}   (D the district 0–4, G the gatehouse; or just "
              "{short} and Tab)") if t == "gatehouse" else \
        _("Build it with: {usage}   (D the district 0–4; or just {short} and Tab)")
    return (_("{card} (card, §13)").format(card=TITLE[t]),
            _("Cost: {cost}. Income: {income} gold per Collection. Gnome locks: {locks}. "
              "There are {n} in the deck.").format(
                cost=cost_text(rs.card_cost[i]), income=rs.card_income[i], locks=rs.locks[i],
                n=rs.cards_per_type) + "\n" + text + "\n" +
            build.format(usage=_usage(f"build #CARD {symbol}").replace("1@D", "G@D"),
                         short=_usage("build #CARD")))


def guild_help(rs: Ruleset, g: str) -> tuple[str, str]:
    i = GUILDS.index(g)
    adisc, codes = _discounts(rs)
    text = _(GUILD_TEXT[g]).format(mex=rs.merchants_exchanges, mvis=rs.merchants_extra_visits,
                                lbd=rs.librarians_draw, lbx=rs.librarians_discard,
                                th1=rs.thieves_one, bd1=rs.bandits_one, tgt=rs.max_targets,
                                the=rs.thieves_each, bdm=rs.bandits_metal, bde=rs.bandits_each,
                                adisc=adisc, codes=codes,
                                code=next(iter(reversed(rs.discounts)), "m"),
                                **{"yield": cost_text(rs.guild_yield[i])})
    return (_(GUILD_HEAD[_cat(rs, g)]).format(guild=GUILD_TITLE[g]),
            _("Build: {cost} ({usage}); the owner's marker counts in its district.").format(
                cost=cost_text(rs.guild_cost[i]), usage=_local(f"guild {g}")) + "\n" +
            _("Place a worker: {gold} gold (to the owner; free for the owner). Activate in "
              "your Actions turn: {text}").format(gold=rs.fee_guild_plank, text=text))


def topics(rs: Ruleset) -> dict[str, tuple[str, str]]:
    """Every topic name → (title, text)."""
    out = dict(phase_topics(rs))
    for t in CARD_TYPES:
        out[t] = card_help(rs, t)
    for g in GUILDS:
        out[g] = guild_help(rs, g)
    for verb, (usage, what) in command_text(rs).items():
        key = verb if verb not in out else f"{verb}-command"
        out[key] = (_("Command: {verb}").format(verb=_local(verb)),
                    f"{usage}\n{what[0].upper()}{what[1:]}.")
    out["guild-list"] = (_("Guilds (§14)"), "\n".join(
        "  " + pad(_local_word(g, "arg"), 10) + " " + pad(_(CATEGORY[_cat(rs, g)]), 11) + " " +
        cost_text(rs.guild_cost[i]) for i, g in enumerate(GUILDS)))
    out["card-list"] = (_("Property cards (§13)"), "\n".join(
        "  " + pad(_local_word(t, "card"), 10) + " " + pad(cost_text(rs.card_cost[i]), 27) + " " +
        _("income {n}").format(n=rs.card_income[i]) for i, t in enumerate(CARD_TYPES)))
    for word, (usage, what) in CLIENT_TEXT.items():
        usage, what = _(usage), _(what)
        # (leaving a LAN game is the quit command's second question: named as quit)
        shown = "quit" if word == "leave" else word
        out[f"{word}-command"] = (_("Command: {verb}").format(verb=_local(shown)),
                                  f"{usage}\n{what[0].upper()}{what[1:]}.")
    keep = " ".join(f"#{i}" for i in range(rs.keep))
    # the program's own commands in a column as wide as the language's longest usage
    ucol = max([18] + [cell_width(_(u)) + 1 for u, _w in CLIENT_TEXT.values()])
    out["commands"] = (_("Commands"), "\n".join(f"  {u}" for u, _w in command_text(rs).values()) +
                       "\n" + _("And the program's own:") + "\n" +
                       "\n".join("  " + pad(_(u), ucol) + _(w) for u, w in CLIENT_TEXT.values()) +
                       "\n" + _("Shorthands: {keep} (the drop part is added), {spread}, "
                                 "{discard}, any beginning only one command has ({build}), a "
                                 "number from the ? list; Enter alone plays the only choice."
                                 ).format(keep=_local(f"keep {keep}"),
                                          spread=_local("spread 2 1 0"),
                                          discard=_local("discard #3"),
                                          build=_local("build #17")))
    from .i18n import active_language, typing_help
    if active_language() != "en":
        out["commands"] = (out["commands"][0],
                           out["commands"][1] + "\n\n" + typing_help(active_language()))
    return out


def _local_word(word: str, context: str) -> str:
    from .i18n import active_language, localize_token
    return localize_token(word, active_language(), context)


def _usage(text: str) -> str:
    """A usage line ('build #CARD tower@D') in the active language: its command words as
    the player types them, and the #CARD placeholder translated."""
    # i18n: the placeholder for a card's number in usage lines, as in "build #CARD SYMBOL"
    return _local(text).replace("#CARD", pgettext("placeholder", "#CARD"))


def _local(text: str) -> str:
    """Command text as the active language writes it."""
    from .i18n import active_language, localize_line
    return localize_line(text, active_language())


CATEGORY = {"basic": N_("basic"), "resource": N_("resource"), "interactive": N_("interactive")}
# one message per category: the adjective agrees with "guild" in other languages
GUILD_HEAD = {"basic": N_("The {guild} (basic guild, §14)"),
              "resource": N_("The {guild} (resource guild, §14)"),
              "interactive": N_("The {guild} (interactive guild, §14)")}


def lookup(rs: Ruleset, topic: str) -> tuple[str, str] | None:
    """(title, text) for a topic, or None. Accepts card/guild/command names and aliases."""
    all_topics = topics(rs)
    key = "-".join((topic or "overview").strip().lower().split())
    key = key if key == "?" else key.lstrip("#")
    key = ALIASES.get(key, key)
    if key in CLIENT_TEXT and f"{key}-command" in all_topics and key not in all_topics:
        key = f"{key}-command"
    if key in all_topics:
        title, text = all_topics[key]
        # a card's name leads to the card alone (the Keep, not the keep command)
        if key in COMMAND_TEXT and f"{key}-command" in all_topics and key not in CARD_TYPES:
            title2, text2 = all_topics[f"{key}-command"]
            text = f"{text}\n\n{title2}: {text2}"
        return title, text
    if key.endswith("s") and key[:-1] in all_topics:
        return all_topics[key[:-1]]
    return None


def main_topics(rs: Ruleset, localized: bool = False) -> list[str]:
    """The topics worth listing to someone who asked for one that does not exist; with
    `localized`, as the active language types them."""
    names = list(phase_topics(rs)) + ["card-list", "guild-list", "commands"]
    if not localized:
        return names
    from .i18n import active_language, localize_token
    from .i18n.vocabulary import entries, key
    lang = active_language()
    own = {key(f) for _canon, forms in entries(lang, "topic") for f in forms}

    def local(name: str) -> str:
        # a topic the language has no word for may have one under an alias: the trading
        # post and the crests are glossary terms ('comptoir', 'Wappen'), typed as such
        singular = [name[:-1]] if name.endswith("s") else []
        for word in [name] + singular + [a for a, t in ALIASES.items() if t == name]:
            shown = localize_token(word, lang, "topic")
            if shown != word or key(word) in own:
                return shown
        return name
    return [local(n) for n in names]


def topic_names(rs: Ruleset) -> list[str]:
    return sorted(set(topics(rs)) | set(ALIASES))


def render_all(rs: Ruleset) -> str:
    """The whole reference as text (belfort rules, with no topic)."""
    t = topics(rs)
    order = ["overview", "setup", "placement", "collection", "actions", "scoring", "taxes",
             "end", "two-player", "deck", "board", "screen", "glossary", "workers", "master",
             "gnome", "plank", "lock", "marker", "crests", "income", "areas", "trading-post",
             "months", "reserve", "card-list"] + list(CARD_TYPES) + \
        ["guild-list"] + list(GUILDS) + ["commands"]
    blocks = []
    for k in order:
        title, text = t[k]
        blocks.append(f"{title}\n{'=' * len(title)}\n{text}\n")
    return "\n".join(blocks)
