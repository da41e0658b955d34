"""The easy bot's policy: quick rules of thumb, one decision at a time.

`choose(state, seat, rng)` works on any state in which `seat` knows its own cards (a
redacted view, or a determinized copy inside a search). It never copies the state except
to compare the few options of a guild or property action, so a decision costs well under a
millisecond: the search bots use this same policy for their playouts.

Values are in resource units (see evaluate.py) unless a name says VP. Every number of the
game (costs, fees, yields, locks, discounts) comes from the ruleset in force (`s.rs`); the
numbers written here are the policy's own judgements.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..data import (ARCHITECTS, BANDITS, BANKERS, BLACKSMITH, CAMP, CARD_PLANK, DESK,
                    DISTRICTS, GARDENS, GATE_BASE, GATEHOUSE, GUILD_PLANK, INN, LIBRARIANS,
                    LIBRARY, MARKET, MASONS, MERCHANTS, MINERS, N_SITES, PUB, RECRUITERS,
                    SAWYERS, SITE_DISTRICT, SITE_TYPE, SITE_WEIGHT, SPIES, THIEVES, TOWER,
                    WALL_SITES, WIZARDS, guild_site)
from ..data import WOOD, STONE, METAL, GOLD
from ..legal import (architect_cost, architect_sites, free_build_sites,
                     gatehouse_second_markers, legal_commands)
from ..state import (ACTIONS, CAMP as PH_CAMP, KEEP, NP_SETUP, NP_TURN, PLACEMENT,
                     STEP_DISCARD, STEP_NONE, STEP_NP_MARK, STEP_SPIES_SHOW, STEP_SPIES_TAKE,
                     STEP_SPREAD)
from .evaluate import (MARKER_BONUS, METAL_UNITS, U_RATE, WORKER_YIELD, card_value,
                       gnome_yield, pending_scorings, plank_yield, production_factor,
                       rank_points, spend_phases)

if TYPE_CHECKING:
    from ..commands import Command
    from ..prng import Prng
    from ..ruleset import Ruleset
    from ..state import GameState

    # Something to mark: (net VP, command, cost).
    Target = tuple[float, Command, tuple[int, ...]]
    Needs = tuple[int, ...]

# How much a card type is worth keeping at the start (§3.3): keeps are two markers,
# markets pay gold at each use, pubs and gardens are cheap and make masters.
KEEP_PREF = (4.0, 4.0, 3.0, 2.0, 2.5, 3.5, 4.5, 4.0, 2.5, 5.0)
# Planks worth taking first in the Actions turn: they bring what the builds will spend.
GAIN_GUILDS = frozenset((SAWYERS, MASONS, MINERS, BANKERS, MERCHANTS, THIEVES, BANDITS,
                         LIBRARIANS, SPIES, RECRUITERS))
WALL = "wall"


def choose(s: GameState, seat: int, rng: Prng) -> Command:
    cmds = legal_commands(s, seat)
    if len(cmds) == 1:
        return cmds[0]
    phase, step = s.phase, s.step
    if phase == PLACEMENT:
        return spread(s, seat, cmds) if step == STEP_SPREAD else place(s, seat, cmds)
    if phase == ACTIONS:
        if step == STEP_DISCARD or step == STEP_SPIES_SHOW:
            return min(cmds, key=lambda c: (card_value(s, c[2]) + 0.1 * KEEP_PREF[c[2]], c))
        if step == STEP_SPIES_TAKE:
            return max(cmds, key=lambda c: (card_value(s, s.types[c[1]]), -c[1]))
        return actions(s, seat, cmds)
    if phase == PH_CAMP:
        return min(cmds)          # the lowest face-up crest: placing first next round
    if phase == KEEP:
        return keep(s, seat, cmds)
    if phase == NP_TURN:
        return np_turn(s, seat, cmds)
    if phase == NP_SETUP:
        # Block the guild that is worth most to a player (the other one gets it too).
        return max(cmds, key=lambda c: (guild_value(s, seat, s.guilds.index(c[1])), c[1]))
    return cmds[rng.below(len(cmds))]


# --- setup -------------------------------------------------------------------------------

def keep(s: GameState, seat: int, cmds: list[Command]) -> Command:
    def worth(cmd: Command) -> float:
        return sum(KEEP_PREF[t] if (t := s.types[c]) is not None else 3 for c in cmd[1])
    return max(cmds, key=lambda c: (worth(c), [-x for x in c[1]]))


# --- small facts -------------------------------------------------------------------------

def unit_vp(s: GameState, seat: int) -> float:
    """VP of one resource unit `seat` keeps (at least a crumb, for tie-breaks). Nothing
    after the game's last Actions turn: that turn spends everything useful."""
    phases = spend_phases(s, seat)
    if s.phase == ACTIONS and s.round >= s.rs.rounds:
        phases = 0
    return max(U_RATE * phases, 0.01)


class Districts(list[list[int]]):
    """Markers per district per competitor, with each district's current points."""

    def __init__(self, s: GameState, comp: int) -> None:
        counts = [[0] * comp for _ in range(DISTRICTS)]
        board = s.board
        for site in range(N_SITES):
            o = board[site]
            if o >= 0:
                counts[SITE_DISTRICT[site]][o] += SITE_WEIGHT[site]
        super().__init__(counts)
        self.table = district_table(s)
        self.points = [rank_points(c, self.table) for c in counts]
        # marker_gain results: many options share a district
        self.memo: dict[tuple[object, ...], float] = {}


# Pure-function memos (the bots' time goes to these): a result depends only on its key, so
# a bot's choices are the same with or without them, and no decision reads another's
# state through them. Bounded: cleared when full. Hand-rolled, not functools.lru_cache: each
# is worked out from the whole state but keyed by the few parts of it the answer depends on.
_MEMO_SIZE = 20000
_districts_memo: dict[tuple[Any, ...], Districts] = {}
_targets_memo: dict[tuple[Any, ...], list[Target]] = {}
_needs_memo: dict[tuple[Any, ...], Needs] = {}


def district_counts(s: GameState) -> Districts:
    """The Districts of `s`'s board, shared by every state with the same board (and the
    same marker_gain memo with it: its results depend on the board and the seat count)."""
    comp = s.competitors()
    key = (s.rs, s.n, comp, tuple(s.board))
    counts = _districts_memo.get(key)
    if counts is None:
        if len(_districts_memo) >= _MEMO_SIZE:
            _districts_memo.clear()
        counts = _districts_memo[key] = Districts(s, comp)
    return counts


def district_table(s: GameState) -> tuple[int, ...]:
    rs = s.rs
    if s.n >= rs.district_third_from or s.n == 2:
        return rs.district_points
    return rs.district_points[:2]


def marker_gain(s: GameState, seat: int, counts: Districts, district: int, weight: int,
                who: int | None = None) -> float:
    """VP per scoring phase for `seat` (me minus the mean of the other players) if
    `who` (default: seat) adds `weight` markers in `district`."""
    who = seat if who is None else who
    key = (seat, district, weight, who)
    memo = counts.memo
    if key in memo:
        return memo[key]
    before = counts.points[district]
    row = counts[district][:]
    row[who] += weight
    after = rank_points(row, counts.table)
    n = s.n
    me = after[seat] - before[seat]
    others = sum(after[q] - before[q] for q in range(n) if q != seat) / max(1, n - 1)
    memo[key] = me - others
    return me - others


def cost_units(cost: tuple[int, ...]) -> float:
    return cost[WOOD] + cost[STONE] + METAL_UNITS * cost[METAL] + cost[GOLD]


# --- what a marker is worth ------------------------------------------------------------------

def site_vp(s: GameState, seat: int, counts: Districts, site: int, k: int) -> float:
    """VP of `seat` marking `site` (before paying): majorities over the k phases ahead."""
    w = SITE_WEIGHT[site]
    return k * (marker_gain(s, seat, counts, SITE_DISTRICT[site], w) + MARKER_BONUS * w)


def build_vp(s: GameState, seat: int, cmd: Command, counts: Districts, k: int, prod: float,
             u: float) -> float:
    """Net VP of a build/wall/guild command, costs and the card given up included."""
    rs = s.rs
    verb = cmd[0]
    if verb == "build":
        c, site = cmd[1], cmd[2]
        t: int = s.types[c]  # type: ignore[assignment]  # in the bot's own hand: known
        v = site_vp(s, seat, counts, site, k)
        v += prod * (rs.card_income[t] + plank_yield(rs).get(t, 0.0))
        if t == GATEHOUSE:
            v += 0.3 * k   # its gnome lock may add a second marker later
        return v - u * (cost_units(rs.card_cost[t]) + card_value(s, t))
    if verb == "wall":
        return site_vp(s, seat, counts, cmd[1], k) - u * cost_units(rs.wall_cost)
    g = cmd[1]
    d = s.guilds.index(g)
    v = site_vp(s, seat, counts, guild_site(d), k) + prod * 0.4  # fees come to the owner
    return v - u * cost_units(rs.guild_cost[g])


def targets(s: GameState, seat: int, counts: Districts, k: int, prod: float,
            u: float) -> list[Target]:
    """Everything `seat` could mark with a card in hand, a wall or a guild, whether it can
    pay now or not: (net VP, command, cost), best first. `counts` is district_counts(s).
    The list is shared (memoized): callers must not change it."""
    hand = s.players[seat].hand
    types = s.types
    key = (s.rs, s.n, tuple(s.guilds), seat, k, prod, u, tuple(s.board), tuple(hand),
           tuple([types[c] for c in hand]))
    out = _targets_memo.get(key)
    if out is None:
        if len(_targets_memo) >= _MEMO_SIZE:
            _targets_memo.clear()
        out = _targets_memo[key] = _targets(s, seat, counts, k, prod, u)
    return out


def _targets(s: GameState, seat: int, counts: Districts, k: int, prod: float,
             u: float) -> list[Target]:
    rs = s.rs
    board = s.board
    out: list[Target] = []
    seen = set()
    cmd: Command
    for c in s.players[seat].hand:
        t = s.types[c]
        if t is None or t in seen:
            continue
        seen.add(t)
        for site in free_build_sites(board, t):
            cmd = ("build", c, site)
            out.append((build_vp(s, seat, cmd, counts, k, prod, u), cmd, rs.card_cost[t]))
    done = set()
    for site in WALL_SITES:
        if board[site] < 0 and SITE_DISTRICT[site] not in done:
            done.add(SITE_DISTRICT[site])      # the district's two walls are alike
            cmd = ("wall", site)
            out.append((build_vp(s, seat, cmd, counts, k, prod, u), cmd, rs.wall_cost))
    for d in range(DISTRICTS):
        if board[guild_site(d)] < 0:
            g = s.guilds[d]
            cmd = ("guild", g)
            out.append((build_vp(s, seat, cmd, counts, k, prod, u), cmd, rs.guild_cost[g]))
    out.sort(key=lambda x: (-x[0], x[1]))
    return out


# --- workers and gnomes ---------------------------------------------------------------------

def worker_vp(s: GameState, seat: int, elf: bool, k: int, prod_next: float) -> float:
    """VP of one more elf (or dwarf) in play from next round on: what it gathers, and the
    worker majority (§9.2)."""
    rs = s.rs
    p = s.players[seat]
    if (p.elves if elf else p.dwarves) >= rs.workers_per_colour:
        return 0.0
    extra = s.competitors() - s.n
    vals = [(q.elves if elf else q.dwarves) for q in s.players]
    vals += [rs.np_elves if elf else rs.np_dwarves] * extra
    before = rank_points(vals, rs.worker_points)[seat]
    vals[seat] += 1
    after = rank_points(vals, rs.worker_points)[seat]
    return WORKER_YIELD * prod_next + k * (after - before)


def gnome_majority_vp(s: GameState, seat: int, k: int) -> int:
    """VP over the k phases ahead of one more gnome in the gnome majority (§9.2)."""
    wp = s.rs.worker_points
    gn = [sum(s.gnomes.get(c, 0) for c in q.built) for q in s.players]
    before = rank_points(gn, wp)[seat]
    gn[seat] += 1
    return k * (rank_points(gn, wp)[seat] - before)


def lock_vp(s: GameState, seat: int, card: int, gate: int, k: int, prod: float,
            counts: Districts | None) -> float:
    """VP of a gnome on `card`'s lock (and, for a gatehouse, a marker on `gate`)."""
    rs = s.rs
    p = s.players[seat]
    t: int = s.types[card]  # type: ignore[assignment]  # built: known
    v = prod * gnome_yield(rs).get(t, 0.0)
    if t == PUB or t == GARDENS:
        me, md = s.masters(seat)
        if t == PUB and md < min(p.dwarves, rs.max_masters) or \
                t == GARDENS and me < min(p.elves, rs.max_masters):
            v += prod * WORKER_YIELD
    elif t == GATEHOUSE and gate >= 0:
        v += site_vp(s, seat, counts or district_counts(s), gate, k)
    return v


def gnome_vp(s: GameState, seat: int, k: int, prod: float,
             counts: Districts | None) -> float | None:
    """VP of one more gnome for `seat` on its best free lock (None if no lock is free)."""
    best = None
    gates = None
    for c in s.players[seat].built:
        t: int = s.types[c]  # type: ignore[assignment]  # built: known
        if s.gnomes.get(c, 0) >= s.rs.locks[t]:
            continue
        if t == GATEHOUSE:
            if gates is None:
                gates = gatehouse_second_markers(s.board, seat) or [-1]
            v = max(lock_vp(s, seat, c, x, k, prod, counts) for x in gates)
        else:
            v = lock_vp(s, seat, c, -1, k, prod, counts)
        if best is None or v > best:
            best = v
    return None if best is None else gnome_majority_vp(s, seat, k) + best


# --- placement (§6) --------------------------------------------------------------------------

def guild_value(s: GameState, seat: int, d: int) -> float:
    """Units a worker on district d's guild brings `seat` this round (fee not counted)."""
    rs = s.rs
    g = s.guilds[d]
    p = s.players[seat]
    res = p.res
    y = rs.resource_guild_yields.get(g)
    if y is not None:
        return y[0] + y[1] + METAL_UNITS * y[2] + y[3]
    if g == MERCHANTS:
        # Exchanges of spare wood/stone, and extra visits if there is gold to buy a metal.
        return 0.7 * min(rs.merchants_exchanges, res[WOOD] + res[STONE]) + \
            (1.0 if res[GOLD] >= rs.trade_buy[METAL] else 0.3)
    if g == LIBRARIANS:
        kept = max(0, rs.librarians_draw - rs.librarians_discard)
        return 0.8 * min(kept, rs.hand_limit - len(p.hand)) + 0.4
    if g == THIEVES:
        rich = sorted((s.players[q].res[GOLD] for q in range(s.n) if q != seat), reverse=True)
        return min(rs.thieves_one, rich[0]) + 0.5 if rich else 0.0
    if g == BANDITS:
        best: float = 0
        for q in range(s.n):
            if q != seat:
                r = s.players[q].res
                best = max(best, min(rs.bandits_one, r[WOOD] + r[STONE]),
                           METAL_UNITS * min(rs.bandits_metal, r[METAL]))
        return best + 0.5 if best else 0.0
    if g == SPIES:
        return 1.2 if any(s.players[q].hand for q in range(s.n) if q != seat) else 0.0
    if g == WIZARDS:
        return 1.5
    if g == ARCHITECTS:
        return 3.0 if _architect_possible(s, res) else 0.0
    if g == RECRUITERS:
        limit = rs.workers_per_colour
        if p.elves < limit or p.dwarves < limit:
            return 2.5
        locks = rs.locks
        return 2.0 if any(s.gnomes.get(c, 0) < locks[s.types[c]]  # type: ignore[index]  # built
                          for c in p.built) else 0.0
    return 0.0


def _architect_possible(s: GameState, res: list[int]) -> bool:
    """Whether some site could be marked with the discount after this round's gathering
    (a rough allowance of 2 wood, 2 stone and 1 gold)."""
    soon = (res[WOOD] + 2, res[STONE] + 2, res[METAL], res[GOLD] + 1)
    for site in architect_sites(s):
        cost = architect_cost(s, site)
        for dw, ds, dm in s.rs.discounts.values():
            w, st, m = cost[WOOD] - dw, cost[STONE] - ds, cost[METAL] - dm
            if w >= 0 and st >= 0 and m >= 0 and soon[WOOD] >= w and soon[STONE] >= st and \
                    soon[METAL] >= m and soon[GOLD] >= cost[GOLD]:
                return True
    return False


def plank_value(s: GameState, seat: int, plank: int, kind: int,
                ctx: tuple[float, int, float, float]) -> float | int:
    """Units of placing a worker of `kind` on `plank` now, fees included."""
    rs = s.rs
    u, k, prod, prod_next = ctx
    if plank == DESK:
        elf = kind < 2
        return worker_vp(s, seat, elf, k, prod_next) / u - rs.fee_recruiter_desk
    if plank == CAMP:
        mine = s.crest[seat]
        return 1.2 if mine > 1 else 0.3
    if plank >= CARD_PLANK:
        c = plank - CARD_PLANK
        t = s.types[c]
        if t == MARKET:
            return rs.market_gold
        if t == BLACKSMITH:
            return METAL_UNITS * rs.blacksmith_metal
        if t == LIBRARY:
            return 0.8
        if t == TOWER:
            g = gnome_vp(s, seat, k, prod, None)
            return (g / u if g is not None else 0.0) + 1.0 - rs.fee_property_plank
        if t == INN:
            best = max(worker_vp(s, seat, True, k, prod_next),
                       worker_vp(s, seat, False, k, prod_next))
            return best / u - rs.fee_property_plank
        return 0.0
    d = s.guilds.index(plank - GUILD_PLANK)
    owner = s.guild_owner(d)
    fee = 0 if owner == seat else rs.fee_guild_plank + (0.3 if owner >= 0 else 0.0)
    g = plank - GUILD_PLANK
    if g == RECRUITERS:
        best = max(worker_vp(s, seat, True, k, prod_next),
                   worker_vp(s, seat, False, k, prod_next))
        gv = gnome_vp(s, seat, k, prod, None)
        if gv is not None:
            best = max(best, gv + u * rs.fee_gnome_hire)   # a gnome without the hire fee
        return best / u - fee
    return guild_value(s, seat, d) - fee


def place(s: GameState, seat: int, cmds: list[Command]) -> Command:
    best, best_cmd = 0.0, None
    for net, cmd in place_scores(s, seat, cmds):
        if net > best:
            best, best_cmd = net, cmd
    return best_cmd or legal_object(cmds, PASS, PASS)


PASS = ("pass",)


def legal_object(cmds: list[Command], cmd: Command, default: Command) -> Command:
    """The tuple of `cmds` equal to `cmd` (else `default`). The engine skips its checks
    for its own tuples from the legal list (legal.listed), which speeds up the playouts."""
    try:
        return cmds[cmds.index(cmd)]
    except ValueError:
        return default


def place_scores(s: GameState, seat: int, cmds: list[Command]) -> list[tuple[float, Command]]:
    """(net units, command) for every placement; passing is worth 0."""
    u = unit_vp(s, seat)
    k = len(pending_scorings(s))
    prod = production_factor(s)
    cur = sum(1 for x in s.rs.scoring_rounds if x >= s.round)
    prod_next = max(0.0, prod - U_RATE * cur)
    ctx = (u, k, prod, prod_next)
    cache = {}
    # A worker left for the resource areas gathers about 1 unit (a master more), worth more
    # to a seat short of what that race gathers (elves wood, dwarves stone).
    need = needs(s, seat)
    res = s.players[seat].res
    base = bundle_value(res, need)
    gather = []
    for r in (0, 1):
        have = res[:]
        have[r] += 1
        own = bundle_value(have, need)
        have[r] -= 1
        have[GOLD] += 1
        gather.append(max(own, bundle_value(have, need)) - base)
    mc = s.rs.master_collects
    opp = (gather[0] + 0.3, mc * gather[0] + 0.6, gather[1] + 0.3, mc * gather[1] + 0.6)
    out = []
    for cmd in cmds:
        if cmd[0] != "place":
            out.append((0.0, cmd))
            continue
        kind, plank = cmd[1], cmd[2]
        key = (plank, kind < 2) if plank == DESK else plank
        if key not in cache:
            cache[key] = plank_value(s, seat, plank, kind, ctx)
        out.append((cache[key] - opp[kind], cmd))
    return out


# --- spreading workers on the resource areas (§6, §7) ---------------------------------------

def needs(s: GameState, seat: int) -> tuple[int, ...]:
    """The (wood, stone, metal, gold) `seat` would like to hold: its buildable cards, two
    walls and a metal, plus gold for fees and taxes. A shared tuple (memoized)."""
    rs = s.rs
    p = s.players[seat]
    types = s.types
    hand_types = tuple([types[c] for c in p.hand])
    tax = rs.tax_for(p.score)
    key = (rs, tax, hand_types, tuple(s.board))
    need = _needs_memo.get(key)
    if need is None:
        if len(_needs_memo) >= _MEMO_SIZE:
            _needs_memo.clear()
        need = _needs_memo[key] = _needs(rs, tax, hand_types, s.board)
    return need


def _needs(rs: Ruleset, tax: int, hand_types: tuple[int | None, ...],
           board: list[int]) -> tuple[int, ...]:
    need = [0, 0, 0, 2 + tax]
    seen = set()
    for t in hand_types:
        if t is None or t in seen or not free_build_sites(board, t):
            continue
        seen.add(t)
        for i in range(4):
            need[i] += rs.card_cost[t][i]
    for i in range(4):
        need[i] += 2 * rs.wall_cost[i]    # walls: the sink that never runs out
    need[METAL] += 1
    return tuple(need)


_FULL = (1.0, 1.0, METAL_UNITS, 1.0)
_SURPLUS = (0.55, 0.55, 0.55, 0.75)     # spare gold still buys anything, one unit a visit
_F0, _F1, _F2, _F3 = _FULL
_S0, _S1, _S2, _S3 = _SURPLUS


def bundle_value(have: list[int], need: tuple[int, ...]) -> float:
    """Units of a resource bundle: full price up to what is needed, a discount beyond
    (the surplus can only be sold, one unit per visit)."""
    # Written out for speed; each term is full * (min(x, n) + surplus * max(0, x - n)) as
    # in a loop over the four resources, in the same order, so the floats are the same.
    x, n = have[WOOD], need[WOOD]
    v = 0.0 + (_F0 * (n + _S0 * (x - n)) if x > n else _F0 * (x + _S0 * 0))
    x, n = have[STONE], need[STONE]
    v += _F1 * (n + _S1 * (x - n)) if x > n else _F1 * (x + _S1 * 0)
    x, n = have[METAL], need[METAL]
    v += _F2 * (n + _S2 * (x - n)) if x > n else _F2 * (x + _S2 * 0)
    x, n = have[GOLD], need[GOLD]
    v += _F3 * (n + _S3 * (x - n)) if x > n else _F3 * (x + _S3 * 0)
    return v


def spread(s: GameState, seat: int, cmds: list[Command]) -> Command:
    """Plan all remaining workers at once (metal needs an elf and a dwarf together), then
    return this kind's part of the plan."""
    p = s.players[seat]
    kind = s.spread_kinds[0]
    left = s.unplaced(seat)
    area = s.area[seat]
    # Power already on the areas (area a, kind k at a*4+k; a master gathers mc).
    mc = s.rs.master_collects
    fixed_e = [area[0] + mc * area[1], area[8] + mc * area[9], area[12] + mc * area[13]]
    fixed_d = [area[6] + mc * area[7], area[10] + mc * area[11], area[14] + mc * area[15]]
    todo = s.spread_kinds
    e_pow = sum(left[k] * (mc if k == 1 else 1) for k in todo if k < 2)
    d_pow = sum(left[k] * (mc if k == 3 else 1) for k in todo if k >= 2)
    need = needs(s, seat)
    res = p.res
    best = None
    for metal in range(0, min(fixed_e[1] + e_pow, fixed_d[1] + d_pow) + 1):
        me = max(0, metal - fixed_e[1])
        md = max(0, metal - fixed_d[1])
        if me > e_pow or md > d_pow:
            continue
        # The rest of each race's power goes to its own area or to gold, one unit at a
        # time where it is worth most (the value is concave, so greedy is optimal).
        have = [res[WOOD] + fixed_e[0], res[STONE] + fixed_d[0], res[METAL] + metal,
                res[GOLD] + fixed_e[2] + fixed_d[2]]
        e_plan = [0, me, 0]
        d_plan = [0, md, 0]
        for plan, r, n in ((e_plan, 0, e_pow - me), (d_plan, 1, d_pow - md)):
            for _ in range(n):
                have[r] += 1
                a = bundle_value(have, need)
                have[r] -= 1
                have[GOLD] += 1
                b = bundle_value(have, need)
                have[GOLD] -= 1
                i = 0 if a >= b else 2
                have[r if i == 0 else 3] += 1
                plan[i] += 1
        v = bundle_value(have, need)
        if best is None or v > best[0] + 1e-9:
            best = (v, e_plan, d_plan)
    assert best is not None   # the loop above runs at least once
    want = best[1] if kind < 2 else best[2]
    normal, master = (0, 1) if kind < 2 else (2, 3)
    masters = left[master] if master in todo else 0
    normals = left[normal] if normal in todo else 0
    split = split_power(want, normals, masters, mc)
    counts = split[1] if kind == master else split[0]
    cmd = ("spread", kind, counts[0], counts[1], counts[2])
    return legal_object(cmds, cmd, cmds[0])


def split_power(want: list[int], normals: int, masters: int,
                master_power: int) -> tuple[list[int], list[int]]:
    """Pieces per area (own area, mine, gold) for normal workers and masters that cover a
    plan given in gathering power (a master gathers `master_power`): masters first,
    largest need first."""
    w = list(want)
    out = ([0, 0, 0], [0, 0, 0])
    for pieces, power, count in ((out[1], master_power, masters), (out[0], 1, normals)):
        for _ in range(count):
            i = max(range(3), key=lambda i: (w[i], -i))
            pieces[i] += 1
            w[i] -= power
    return out


# --- actions (§8) ---------------------------------------------------------------------------

def actions(s: GameState, seat: int, cmds: list[Command]) -> Command:
    p = s.players[seat]
    if p.waiting:
        return activation(s, seat, cmds)
    smith = None
    hires = []
    for cmd in cmds:                     # free gold, then cheap metal
        verb = cmd[0]
        if verb == "bank":
            return cmd
        if verb == "smith":
            smith = smith or cmd
        elif verb == "hire":
            hires.append(cmd)
    res = p.res
    need = needs(s, seat)
    # (keeping a gold after the Blacksmith's price)
    if smith and res[GOLD] >= s.rs.lock_blacksmith_gold + 1 and res[METAL] < need[METAL]:
        return smith
    k = spend_phases(s, seat)
    u = unit_vp(s, seat)
    prod = production_factor(s)
    counts = district_counts(s)
    marks = targets(s, seat, counts, k, prod, u)
    r0, r1, r2, r3 = res
    for v, cmd, cost in marks:          # best first: the best mark it can pay for now
        if v <= 0:
            break
        if r0 >= cost[WOOD] and r1 >= cost[STONE] and r2 >= cost[METAL] and r3 >= cost[GOLD]:
            return legal_object(cmds, cmd, cmd)
    if hires and k > 0:
        g = gnome_vp(s, seat, k, prod, counts)
        if g is not None and g - u * s.rs.fee_gnome_hire > 0:
            return gain_choice(s, seat, hires)
    trade = plan_trade(s, seat, cmds, marks)
    if trade is None and k > 0:
        trade = rebalance(s, seat, cmds, need)
    if trade is not None:
        return trade
    return finish_turn(s, seat, cmds, u)


def rebalance(s: GameState, seat: int, cmds: list[Command],
              need: tuple[int, ...]) -> Command | None:
    """A buy or sell that moves the stock toward what the seat needs (bundle value)."""
    res = s.players[seat].res
    base = bundle_value(res, need)
    best, best_cmd = 0.15, None
    rs = s.rs
    for cmd in cmds:
        verb = cmd[0]
        if verb not in ("buy", "sell", "exchange"):
            continue
        r = cmd[1]
        have = res[:]
        if verb == "buy":
            have[r] += 1
            have[GOLD] -= rs.trade_buy[r]
        elif verb == "sell":
            have[r] -= 1
            have[GOLD] += rs.trade_sell[r]
        else:
            have[r] -= 1
            have[METAL] += 1
        v = bundle_value(have, need) - base
        if v > best:
            best, best_cmd = v, cmd
    return best_cmd


def plan_trade(s: GameState, seat: int, cmds: list[Command], marks: list[Target]) -> Command | None:
    """A trade (or exchange) toward the best mark (from `targets`) that this turn's
    visits can make affordable; None if there is none."""
    rs = s.rs
    res = s.players[seat].res
    buys = s.t_visits - s.t_buys
    sells = s.t_visits - s.t_sells
    legal = {c: c for c in cmds}      # the engine's own tuples (see legal_object)
    r0, r1, r2, r3 = res
    for v, _cmd, cost in marks:
        if v <= 0:
            break
        if r0 >= cost[WOOD] and r1 >= cost[STONE] and r2 >= cost[METAL] and r3 >= cost[GOLD]:
            continue                  # affordable already
        short = [cost[WOOD] - res[WOOD], cost[STONE] - res[STONE], cost[METAL] - res[METAL]]
        surplus = [-short[0], -short[1], -short[2]]
        for i in range(3):
            if short[i] < 0:
                short[i] = 0
            else:
                surplus[i] = 0
        # Merchants' exchanges turn spare wood/stone into metal.
        if short[2] and s.t_exchanges:
            for r in (0, 1):
                if surplus[r] and ("exchange", r) in legal:
                    return legal["exchange", r]
        if sum(short) > buys:
            continue
        gold_needed = sum(short[i] * rs.trade_buy[i] for i in range(3)) + cost[GOLD]
        gold_short = gold_needed - res[GOLD]
        if gold_short > 0:
            if gold_short > min(sells, sum(surplus)):
                continue
            r = max(range(3), key=lambda i: (surplus[i] * (1 if i < 2 else 0.5), -i))
            if ("sell", r) in legal:
                return legal["sell", r]
            continue
        for r in range(3):
            if short[r] and ("buy", r) in legal:
                return legal["buy", r]
    return None


def finish_turn(s: GameState, seat: int, cmds: list[Command], u: float) -> Command:
    """Maybe buy a card (the last action), otherwise end the turn."""
    rs = s.rs
    p = s.players[seat]
    buys = [c for c in cmds if c[0] == "buy-card"]
    reserve = rs.fee_card_purchase + rs.tax_for(p.score) + 1
    if buys and len(p.hand) < rs.hand_limit - 1 and p.res[GOLD] >= reserve and \
            s.round < rs.rounds:
        best = max(buys, key=lambda c: (card_value(s, s.types[c[1]]) if c[1] >= 0
                                        else card_value(s, None), c[1]))
        return best
    for c in cmds:
        if c[0] == "end":
            return c
    return cmds[-1]


def activation(s: GameState, seat: int, cmds: list[Command]) -> Command:
    """Activate gain planks first (their resources pay for the rest), the best option of
    each by a one-step look at the evaluation."""
    acts = [c for c in cmds if c[0] == "activate"]
    planks = []
    for c in acts:
        if c[1] not in planks:
            planks.append(c[1])

    def first(plank: int) -> int:
        if plank >= CARD_PLANK:
            return 0
        return 0 if plank - GUILD_PLANK in GAIN_GUILDS else 1
    plank = min(planks, key=lambda pl: (first(pl), planks.index(pl)))
    options = [c for c in acts if c[1] == plank]
    if len(options) == 1:
        return options[0]
    g = plank - GUILD_PLANK
    if g == ARCHITECTS:
        return architects(s, seat, options)
    if g in (THIEVES, BANDITS):
        return steal(s, seat, options, g == THIEVES)
    if g == WIZARDS:
        return wizards(s, seat, options)
    return gain_choice(s, seat, options)


def architects(s: GameState, seat: int, options: list[Command]) -> Command:
    """Mark the site whose majority gain best repays its (discounted) cost."""
    k = spend_phases(s, seat)
    u = unit_vp(s, seat)
    counts = district_counts(s)
    rs = s.rs

    def value(cmd: Command) -> float:
        site, code = cmd[2], cmd[3]
        cost = architect_cost(s, site)
        dw, ds, dm = rs.discounts[code]
        paid = (cost[WOOD] - dw, cost[STONE] - ds, cost[METAL] - dm, cost[GOLD])
        v = site_vp(s, seat, counts, site, k) - u * cost_units(paid)
        if SITE_TYPE[site] == "guild":
            v += production_factor(s) * 0.4
        return v
    return max(options, key=lambda c: (value(c), c))


def steal(s: GameState, seat: int, options: list[Command], gold: bool) -> Command:
    """Take the most units; among equal takes, from the players ahead."""
    players = s.players
    rs = s.rs
    unit = (1.0, 1.0, METAL_UNITS)

    def value(cmd: Command) -> float:
        args = cmd[2:]
        taken: list[tuple[int, float]] = []          # (victim, units)
        if args[0] == "from":
            q = args[1]
            if gold:
                taken.append((q, min(rs.thieves_one, players[q].res[GOLD])))
            elif args[2:] == (2,):
                taken.append((q, unit[2] * rs.bandits_metal))
            else:
                taken.append((q, sum(unit[r] for r in args[2:])))
        elif gold:
            taken += [(q, rs.thieves_each) for q in args[1:]]
        else:
            rest = args[1:]
            taken += [(rest[i], unit[rest[i + 1]] * rs.bandits_each)
                      for i in range(0, len(rest), 2)]
        return sum(x for _, x in taken) + 0.02 * sum(players[q].score * x for q, x in taken)
    return max(options, key=lambda c: (value(c), c))


def gain_choice(s: GameState, seat: int, options: list[Command]) -> Command:
    """Recruiters, Tower, Inn and hiring: the worker or gnome placement worth most."""
    k = spend_phases(s, seat)
    prod = production_factor(s)
    cur = sum(1 for x in s.rs.scoring_rounds if x >= s.round)
    prod_next = max(0.0, prod - U_RATE * cur) if s.phase != PLACEMENT else prod
    counts = district_counts(s)
    gmaj = gnome_majority_vp(s, seat, k)

    def value(cmd: Command) -> float:
        args = cmd[1:] if cmd[0] == "hire" else cmd[2:]
        if not args:
            return -1.0
        if args[0] in ("elf", "dwarf"):
            return worker_vp(s, seat, args[0] == "elf", k, prod_next)
        if args[0] == "gnome":
            args = args[1:]
        return gmaj + lock_vp(s, seat, args[0], args[1], k, prod, counts)
    return max(options, key=lambda c: (value(c), c))


def wizards(s: GameState, seat: int, options: list[Command]) -> Command:
    """The swap that gains this seat the most district points (me minus the others)."""
    k = spend_phases(s, seat)
    board = s.board
    n = s.n
    counts = district_counts(s)
    table = counts.table
    before = counts.points
    memo = counts.memo          # the board's: a swap's gain depends on the board and seat

    def value(cmd: Command) -> float:
        key = ("wizards", seat, cmd[2:])
        v = memo.get(key)
        if v is None:
            v = memo[key] = gain(cmd)
        return k * v

    def gain(cmd: Command) -> float:
        a, b, ra, rb = cmd[2:]
        sites: tuple[int, ...]
        if a < GATE_BASE:
            sites = (a, b)
            nb = {a: board[b], b: board[a]}
        else:
            sites = (a, a + 1, b, b + 1)
            full = swapped(board, a, b, ra, rb)
            nb = {x: full[x] for x in sites}
        rows: dict[int, list[int]] = {}
        for x in sites:
            old, new = board[x], nb[x]
            if old == new:
                continue
            d = SITE_DISTRICT[x]
            row = rows.get(d)
            if row is None:
                row = rows[d] = counts[d][:]
            w = SITE_WEIGHT[x]
            if old >= 0:
                row[old] -= w
            if new >= 0:
                row[new] += w
        v = 0.0
        for d, row in rows.items():
            after = rank_points(row, table)
            me = after[seat] - before[d][seat]
            others = sum(after[q] - before[d][q] for q in range(n) if q != seat)
            v += me - others / max(1, n - 1)
        return v
    return max(options, key=lambda c: (value(c), c))


def swapped(board: list[int], a: int, b: int, ra: int, rb: int) -> list[int]:
    """The board after the Wizards swap (a, b, ra, rb) (§14; as apply.py does it)."""
    nb = board[:]
    if a < GATE_BASE:
        nb[a], nb[b] = board[b], board[a]
        return nb
    for base, src, chosen in ((a, b, ra), (b, a, rb)):
        m = (board[src], board[src + 1])
        if (m[0] < 0) != (m[1] < 0):     # a single marker lands on the chosen symbol
            owner = m[0] if m[0] >= 0 else m[1]
            nb[base], nb[base + 1] = (owner if chosen == base else -1,
                                      owner if chosen == base + 1 else -1)
        else:
            nb[base], nb[base + 1] = m
    return nb


# --- the non-players' turns (§12) --------------------------------------------------------------

def np_turn(s: GameState, seat: int, cmds: list[Command]) -> Command:
    """Put the NP's marker where it hurts the opponent most (or helps this seat)."""
    counts = district_counts(s)
    who = s.n + s.np_index
    if s.step == STEP_NP_MARK:
        def gain(cmd: Command) -> float:
            x = cmd[1]
            if x < 0:
                return 0.0
            return marker_gain(s, seat, counts, SITE_DISTRICT[x], SITE_WEIGHT[x], who)
        return max(cmds, key=lambda c: (gain(c), -c[1]))

    def card_gain(cmd: Command) -> float:
        c = cmd[1]
        if c < 0 or (t := s.types[c]) is None:
            return -0.5
        sites = free_build_sites(s.board, t)
        if not sites:
            return -1.0
        return max(marker_gain(s, seat, counts, SITE_DISTRICT[x], SITE_WEIGHT[x], who)
                   for x in sites)
    return max(cmds, key=lambda c: (card_gain(c), -c[1] if len(c) > 1 else 0))


# --- alternatives for the search bots --------------------------------------------------------

def ranked(s: GameState, seat: int, cmds: list[Command], rng: Prng) -> list[Command]:
    """The legal commands, the policy's choice first, then the alternatives most worth a
    second look (the search bots only consider the first few)."""
    choice = choose(s, seat, rng)
    phase, step = s.phase, s.step
    scores = None
    if phase == PLACEMENT and step != STEP_SPREAD:
        scores = place_scores(s, seat, cmds)
    elif phase == PLACEMENT:
        # Neighbouring splits of the same workers: one worker moved at a time.
        scores = [(-sum(abs(a - b) for a, b in zip(c[2:], choice[2:])), c) for c in cmds]
    elif phase == ACTIONS and step == STEP_NONE and not s.players[seat].waiting:
        scores = action_scores(s, seat, cmds)
    elif phase == KEEP:
        scores = [(sum(KEEP_PREF[s.types[c]] for c in cmd[1]), cmd) for cmd in cmds]
    if scores is None:
        order = [choice] + [c for c in cmds if c != choice]
    else:
        scores.sort(key=lambda x: -x[0])    # stable: legal order among equals
        order = [choice] + [c for _, c in scores if c != choice]
    # Commands that do the same thing (the two walls of a district, two pool cards of one
    # type) need only one look.
    out, seen = [], set()
    for c in order:
        key = same_as(s, c)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def same_as(s: GameState, cmd: Command) -> Command:
    """A key equal for commands with the same effect."""
    verb = cmd[0]
    if verb == "wall":
        return (verb, SITE_DISTRICT[cmd[1]])
    if verb in ("buy-card", "take") and cmd[1] >= 0:
        return (verb, s.types[cmd[1]])
    if verb in ("discard", "show"):
        return (verb, cmd[2])
    return cmd


def action_scores(s: GameState, seat: int, cmds: list[Command]) -> list[tuple[float, Command]]:
    """Rough VP of each Actions-turn command, for ranking alternatives."""
    k = spend_phases(s, seat)
    u = unit_vp(s, seat)
    prod = production_factor(s)
    counts = district_counts(s)
    need = needs(s, seat)
    res = s.players[seat].res
    base = bundle_value(res, need)
    rs = s.rs
    out = []
    for cmd in cmds:
        verb = cmd[0]
        if verb in ("build", "wall", "guild"):
            v = build_vp(s, seat, cmd, counts, k, prod, u)
        elif verb in ("buy", "sell", "exchange"):
            have = res[:]
            r = cmd[1]
            if verb == "buy":
                have[r] += 1
                have[GOLD] -= rs.trade_buy[r]
            elif verb == "sell":
                have[r] -= 1
                have[GOLD] += rs.trade_sell[r]
            else:
                have[r] -= 1
                have[METAL] += 1
            v = u * (bundle_value(have, need) - base)
        elif verb == "hire":
            g = gnome_vp(s, seat, k, prod, counts)
            v = (g if g is not None else 0.0) - u * rs.fee_gnome_hire
        elif verb == "buy-card":
            v = u * (card_value(s, s.types[cmd[1]] if cmd[1] >= 0 else None) - 1.5)
        elif verb in ("bank", "smith"):
            v = u
        else:
            v = -0.01
        out.append((v, cmd))
    return out


__all__ = ["choose", "ranked"]
