"""Where things may go: free symbols, free gnome locks, and the choices of each activation
(§8, §13, §14). `legal.py` builds the legal commands from these; the bots read them too.
"""
from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from operator import itemgetter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .data import (ARCHITECTS, BANDITS, CARD_PLANK, CARD_TYPES, DISTRICTS,
                   GATE_BASE, GATEHOUSE, GUILD_PLANK, GUILD_SITES, INN, KEEP, NOBODY,
                   RECRUITERS, SITE_TYPE, SITES_OF_TYPE, THIEVES, TOWER, WALL_SITES, WIZARDS)
from .data import WOOD, STONE, METAL, GOLD

if TYPE_CHECKING:
    from .commands import Command
    from .ruleset import Ruleset
    from .state import GameState

    # (type codes by card type, wall codes, guild codes by guild id)
    ArchitectCodes = tuple[tuple[tuple[str, ...], ...], tuple[str, ...],
                           tuple[tuple[str, ...], ...]]
    # A swap group: a getter of its places' markers, its pairs (a, b, command), and a memo from
    # the markers to the swaps they allow.
    SwapGroup = tuple[Callable[[list[int]], Any], tuple[tuple[int, int, Command], ...],
                      dict[Any, tuple[Command, ...]]]

_SINGLE_SITE_TYPES = tuple(t for t in range(len(CARD_TYPES)) if t not in (KEEP, GATEHOUSE))
_GATE_PAIRS = tuple(GATE_BASE + 2 * g for g in range(DISTRICTS))


def free_build_sites(board: list[int], t: int) -> list[int]:
    """Sites where a property of type t may be marked now (§2, §8)."""
    out: list[int]
    if t == GATEHOUSE:
        out = []
        for a in _GATE_PAIRS:
            if board[a] == NOBODY and board[a + 1] == NOBODY:
                out.append(a)
                out.append(a + 1)
        return out
    out = []   # a loop: over a few sites a comprehension costs more to set up
    for x in SITES_OF_TYPE[t]:
        if board[x] == NOBODY:
            out.append(x)
    return out


def gnome_targets(s: GameState, seat: int, verb: str, *prefix: int | str) -> list[Command]:
    """Every (card, gatehouse symbol) a new gnome of `seat` may go to (§8 hire, §13)."""
    out: list[Command] = []
    if s.gnome_supply <= 0:
        return out
    types, gnomes, locks = s.types, s.gnomes, s.rs.locks
    gates = None
    for c in s.players[seat].built:
        t = types[c]
        if gnomes.get(c, 0) >= locks[t]:  # type: ignore[index]  # built: known
            continue
        if t == GATEHOUSE:
            if gates is None:
                gates = gatehouse_second_markers(s.board, seat)
            if gates:
                for x in gates:
                    out.append((verb, *prefix, c, x))
                continue
        out.append((verb, *prefix, c, NOBODY))
    return out


def gatehouse_second_markers(board: list[int], seat: int) -> list[Any | int]:
    """§13 Gatehouse lock: the free other symbols of gatehouses where `seat` has a marker."""
    out = []
    for a in _GATE_PAIRS:
        x, y = board[a], board[a + 1]
        if x == seat and y == NOBODY:
            out.append(a + 1)
        elif y == seat and x == NOBODY:
            out.append(a)
    return out


def activation_options(s: GameState, seat: int, plank: int) -> list[Command]:
    """The commands that activate `seat`'s worker on `plank`: each choice of its action, or
    the bare `activate` when the action cannot be carried out at all (§8 Decision)."""
    act = ("activate", plank)
    if plank >= CARD_PLANK:
        t = s.types[plank - CARD_PLANK]
        if t == TOWER:
            return gnome_targets(s, seat, "activate", plank, "gnome") or [act]
        if t == INN:
            return _worker_gains(s, seat, plank) or [act]
        return [act]
    g = plank - GUILD_PLANK
    if g == ARCHITECTS:
        return _architects(s, seat, plank) or [act]
    if g == RECRUITERS:
        opts = _worker_gains(s, seat, plank)
        opts += gnome_targets(s, seat, "activate", plank, "gnome")
        return opts or [act]
    if g == THIEVES:
        return _thieves(s, seat, plank) or [act]
    if g == BANDITS:
        return _bandits(s, seat, plank) or [act]
    if g == WIZARDS:
        return _wizards(s, plank) or [act]
    return [act]


def _worker_gains(s: GameState, seat: int, plank: int) -> list[Command]:
    p = s.players[seat]
    limit = s.rs.workers_per_colour
    out = []
    if p.elves < limit:
        out.append(("activate", plank, "elf"))
    if p.dwarves < limit:
        out.append(("activate", plank, "dwarf"))
    return out


# --- Architects (§14) --------------------------------------------------------------------

def discount_options(cost: tuple[int, ...], res: tuple[int, ...],
                     discounts: dict[str, tuple[int, int, int]]) -> list[str | Any]:
    """§14 Architects: each discount (the ruleset's `discounts`: code → (wood, stone, metal)
    off) applied in full (Decision), keeping only those whose reduced cost the player can
    pay."""
    out = []
    for code, (dw, ds, dm) in discounts.items():
        w, st, m = cost[WOOD] - dw, cost[STONE] - ds, cost[METAL] - dm
        if w < 0 or st < 0 or m < 0:
            continue
        if res[WOOD] >= w and res[STONE] >= st and res[METAL] >= m and res[GOLD] >= cost[GOLD]:
            out.append(code)
    return out


def architect_cost(s: GameState, site: int) -> tuple[int, ...]:
    """The usual cost of marking `site`: its property's, a wall's or its guild's."""
    t = SITE_TYPE[site]
    if t == "wall":
        return s.rs.wall_cost
    if t == "guild":
        return s.rs.guild_cost[s.guilds[site // 12]]
    return s.rs.card_cost[t]  # type: ignore[index]  # the other sites' types are card types


def architect_sites(s: GameState) -> list[int]:
    """Free places the Architects may mark: property symbols (keep: a section; gatehouse: a
    symbol of a gatehouse with both free), walls and unowned guilds."""
    board = s.board
    sites = []
    for t in range(len(CARD_TYPES)):
        sites += free_build_sites(board, t)
    sites += [x for x in WALL_SITES if board[x] == NOBODY]
    sites += [x for x in GUILD_SITES if board[x] == NOBODY]
    return sites


def _architects(s: GameState, seat: int, plank: int) -> list[Command]:
    """Every (free place, discount) the seat can pay, in architect_sites' order."""
    board = s.board
    type_codes, wall_codes, guild_codes = _architect_codes(s.rs, s.players[seat].res)
    out: list[Command] = []
    for t, codes in enumerate(type_codes):
        if codes:
            out += [("activate", plank, x, code)
                    for x in free_build_sites(board, t) for code in codes]
    if wall_codes:
        out += [("activate", plank, x, code)
                for x in WALL_SITES if board[x] == NOBODY for code in wall_codes]
    for x, g in zip(GUILD_SITES, s.guilds):
        codes = guild_codes[g]
        if codes and board[x] == NOBODY:
            out += [("activate", plank, x, code) for code in codes]
    return out


# The most any price of a ruleset asks of each resource (wood, stone, metal, gold): a player
# holding more pays for nothing more, so tables of what resources pay for are keyed by the
# resources capped at these and stay small. The trading post's buy and sell (1 of a resource)
# and the gold fees count as prices. Rulesets are not changed once read.
@lru_cache(maxsize=64)
def resource_caps(rs: Ruleset) -> tuple[int, ...]:
    costs = [*rs.card_cost, rs.wall_cost, *rs.guild_cost, (1, 1, 1, max(rs.trade_buy)),
             (0, 0, 0, rs.fee_gnome_hire), (0, 0, 0, rs.lock_blacksmith_gold),
             (0, 0, 0, rs.fee_card_purchase)]
    return tuple(max(cost[r] for cost in costs) for r in range(4))


def _architect_codes(rs: Ruleset, res: Sequence[int]) -> ArchitectCodes:
    """The discounts a player with `res` can pay for each card type, a wall and each guild
    (by guild id). They depend only on the resources (given the ruleset), up to the
    ruleset's resource caps, so they are worked out once per capped resources met rather
    than for every place."""
    cw, cs, cm, cg = resource_caps(rs)
    w, st, m, gold = res
    return _architect_codes_capped(rs, w if w < cw else cw, st if st < cs else cs,
                                   m if m < cm else cm, gold if gold < cg else cg)


@lru_cache(maxsize=4096)
def _architect_codes_capped(rs: Ruleset, *capped: int) -> ArchitectCodes:
    discounts = rs.discounts
    return (tuple(tuple(discount_options(cost, capped, discounts)) for cost in rs.card_cost),
            tuple(discount_options(rs.wall_cost, capped, discounts)),
            tuple(tuple(discount_options(cost, capped, discounts)) for cost in rs.guild_cost))


# --- Thieves and Bandits (§14) -------------------------------------------------------------

def _thieves(s: GameState, seat: int, plank: int) -> list[Command]:
    players = s.players
    rich = []
    for q in range(s.n):
        if q != seat and players[q].res[GOLD] >= 1:
            rich.append(q)
    return list(_thieves_choices(plank, s.rs.max_targets, *rich))


@lru_cache(maxsize=4096)
def _thieves_choices(plank: int, most: int, *rich: int) -> tuple[Command, ...]:
    """The Thieves' choices given the most targets and the other seats with gold."""
    out: list[Command] = [("activate", plank, "from", q) for q in rich]
    for k in range(2, most + 1):
        for group in combinations(rich, k):
            out.append(("activate", plank, "each", *group))
    return tuple(out)


def _bandits(s: GameState, seat: int, plank: int) -> list[Command]:
    """The choices depend only on what the others hold, up to the Bandits' limit (more wood
    or stone than the limit changes nothing): those robbing one seat on what that seat
    holds, those robbing several on which of wood and stone each of them has. Both are
    made once per such situation."""
    limit, most = s.rs.bandits_one, s.rs.max_targets
    cap = max(limit, 1)
    out: list[Command] = []
    takers: list[tuple[int, tuple[int, ...]]] = []
    players = s.players
    for q in range(s.n):
        if q == seat:
            continue
        res = players[q].res
        w, st, m = res[WOOD], res[STONE], res[METAL] >= 1
        if w > cap:
            w = cap
        if st > cap:
            st = cap
        out += _bandits_from(plank, limit, q, w, st, m)
        if w and st:
            takers.append((q, (0, 1)))
        elif w or st:
            takers.append((q, (0,) if w else (1,)))
    out += _bandits_each(plank, most, tuple(takers))
    return out


@lru_cache(maxsize=4096)
def _bandits_from(plank: int, limit: int, q: int, w: int, st: int,
                  m: bool) -> tuple[Command, ...]:
    """The `from` choices robbing seat q, on what it holds (capped at the limit)."""
    return tuple(_bandit_from(plank, limit, q, w, st, m))


@lru_cache(maxsize=4096)
def _bandits_each(plank: int, most: int,
                  takers: tuple[tuple[int, tuple[int, ...]], ...]) -> tuple[Command, ...]:
    """The `each` choices, on which of wood and stone each possible victim has."""
    return tuple(_bandit_groups(plank, most, takers))


def _bandit_options(plank: int, limit: int, most: int,
                    holdings: Sequence[tuple[int, int, int, bool]]) -> list[Command]:
    """Every choice, worked out from `holdings` ((seat, wood, stone, has metal) of each other
    seat, wood and stone capped at the limit): what `_bandits` remembers in two parts."""
    out: list[Command] = []
    takers: list[tuple[int, list[int]]] = []
    for q, w, st, m in holdings:
        out += _bandit_from(plank, limit, q, w, st, m)
        choices = [r for r in (0, 1) if (w, st)[r] >= 1]
        if choices:
            takers.append((q, choices))
    return out + _bandit_groups(plank, most, takers)


def _bandit_from(plank: int, limit: int, q: int, w: int, st: int, m: bool) -> list[Command]:
    out: list[Command] = []
    if m >= 1:
        out.append(("activate", plank, "from", q, 2))
    # "up to 2 wood/stone (any mix)": as many as they have, up to the limit.
    take = min(limit, w + st)
    for nw in range(take, -1, -1):
        ns = take - nw
        if take and nw <= w and ns <= st:
            out.append(("activate", plank, "from", q) + (0,) * nw + (1,) * ns)
    return out


def _bandit_groups(plank: int, most: int,
                   takers: Sequence[tuple[int, Sequence[int]]]) -> list[Command]:
    out: list[Command] = []
    for k in range(2, most + 1):
        for group in combinations(takers, k):
            out += _bandit_each(plank, group)
    return out


def _bandit_each(plank: int, group: Sequence[tuple[int, Sequence[int]]]) -> list[Command]:
    combos: list[tuple[int, ...]] = [()]
    for q, choices in group:
        combos = [c + (q, r) for c in combos for r in choices]
    return [("activate", plank, "each") + c for c in combos]


# --- Wizards (§14) -------------------------------------------------------------------------

# Swap units: same-type property symbols, keep sections, walls, guilds, and whole gatehouses
# (named by their first site).
_WIZARD_GROUPS = tuple([SITES_OF_TYPE[t] for t in _SINGLE_SITE_TYPES]
                       + [SITES_OF_TYPE[KEEP], WALL_SITES, GUILD_SITES])
_GATE_PAIR_PAIRS = tuple(combinations(_GATE_PAIRS, 2))
_GATE_MARKERS = itemgetter(*range(GATE_BASE, GATE_BASE + 2 * DISTRICTS))
# plank -> {markers of every gatehouse: the swaps of whole gatehouses}. Hand-rolled, like the
# swap groups' memos below, not functools.lru_cache: the answer is worked out from the board
# (a list, unhashable) but keyed by the part of it that decides it.
_GATE_SWAPS: dict[int, dict[Any, tuple[Command, ...]]] = {}


@cache   # one entry per Wizards plank: a handful
def _wizard_swaps(plank: int) -> tuple[SwapGroup, ...]:
    """For each swap group: a getter of its places' markers, its pairs (a, b, command) in the
    legal list's order, and a memo from the markers to the swaps they allow (the board
    changes slowly, so the same markers come back again and again)."""
    return tuple((itemgetter(*group),
                  tuple((a, b, ("activate", plank, a, b, NOBODY, NOBODY))
                        for a, b in combinations(group, 2)),
                  {})
                 for group in _WIZARD_GROUPS)


def _wizards(s: GameState, plank: int) -> list[Command]:
    board = s.board
    out: list[Command] = []
    for markers_of, pairs, memo in _wizard_swaps(plank):
        markers = markers_of(board)
        found = memo.get(markers)
        if found is None:
            if len(memo) > 4096:
                memo.clear()
            found = memo[markers] = tuple(cmd for a, b, cmd in pairs if board[a] != board[b])
        out += found
    gates = _GATE_MARKERS(board)
    memo = _GATE_SWAPS.setdefault(plank, {})
    found = memo.get(gates)
    if found is None:
        if len(memo) > 4096:
            memo.clear()
        found = memo[gates] = tuple(("activate", plank, a, b, ra, rb)
                                    for a, b in _GATE_PAIR_PAIRS
                                    for ra, rb in gatehouse_swap_targets(board, a, b))
    out += found
    return out


def gatehouse_swap_targets(board: list[int], a: int, b: int) -> list[tuple[int, int]]:
    """(symbol in A, symbol in B) choices for swapping gatehouses A and B: a gatehouse that
    receives a single marker needs its symbol chosen (§14); swaps that change nothing are
    left out. (`received`, written out: this runs for every pair of gatehouses.)"""
    ma = (board[a], board[a + 1])
    mb = (board[b], board[b + 1])
    if ma == mb and ma[0] == ma[1]:
        return []   # two empty (or alike and full) gatehouses: no swap changes anything
    into_a = _receiving(mb, a)
    into_b = _receiving(ma, b)
    return [(ra, rb) for ra, got_a in into_a for rb, got_b in into_b
            if got_a != ma or got_b != mb]


def _receiving(markers: tuple[int, int], base: int) -> tuple[tuple[int, tuple[int, int]], ...]:
    """(chosen symbol, resulting pair) for each way the gatehouse at `base` can receive
    `markers`: a single marker goes on either symbol, a pair lands as it is."""
    x, y = markers
    if (x == NOBODY) != (y == NOBODY):
        owner = x if x != NOBODY else y
        return ((base, (owner, NOBODY)), (base + 1, (NOBODY, owner)))
    return ((NOBODY, markers),)


def _single(markers: tuple[int, int]) -> bool:
    return (markers[0] == NOBODY) != (markers[1] == NOBODY)


def received(markers: tuple[int, int], base: int, chosen: int) -> tuple[int, int]:
    """The two symbols of the gatehouse at `base` after it receives `markers` (the other
    gatehouse's pair); a single marker lands on the `chosen` symbol."""
    if _single(markers):
        owner = markers[0] if markers[0] != NOBODY else markers[1]
        return (owner if chosen == base else NOBODY, owner if chosen == base + 1 else NOBODY)
    return (markers[0], markers[1])
