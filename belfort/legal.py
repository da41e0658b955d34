"""`legal_commands(state, seat)`: the single source of truth for what may be done (§3–§14).

Commands are plain tuples `(verb, *args)` of strings and ints (see `commands.py` for the
text form). The client's completion, the bots and the network all use this list, and
`apply` accepts exactly its members.
"""

from itertools import combinations

from .data import (ARCHITECTS, BANDITS, BANK, BLACKSMITH, CAMP, CARD_PLANK, CARD_TYPES,
                   DESK, DISCOUNTS, DISTRICTS, GATE_BASE, GATEHOUSE, GUILD_PLANK, GUILD_SITES,
                   HAS_PLANK, INN, KEEP, LOCKS, PLANK_BEHIND_LOCK, RECRUITERS, SITE_TYPE,
                   SITES_OF_TYPE, THIEVES, TOWER, WALL_SITES, WIZARDS)
from .state import (ACTIONS, CAMP as PH_CAMP, KEEP as PH_KEEP, NO_ONE, NP_SETUP, NP_TURN,
                    PLACEMENT, STEP_DISCARD, STEP_NONE, STEP_NP_MARK, STEP_NP_TAKE,
                    STEP_SPIES_SHOW, STEP_SPIES_TAKE, STEP_SPREAD)

_SINGLE_SITE_TYPES = tuple(t for t in range(len(CARD_TYPES)) if t not in (KEEP, GATEHOUSE))


def legal_commands(state, seat):
    """Every command `seat` may give now, in a fixed order. Empty when it is not their turn."""
    cache = state._legal
    if cache is not None and cache[0] == state.version and cache[1] == seat:
        return cache[2]
    cmds = _generate(state, seat)
    state._legal = (state.version, seat, cmds)
    return cmds


def is_legal(state, command, seat=None):
    from .apply import check_legal
    try:
        check_legal(state, command, seat)
    except Exception:
        return False
    return True


def _generate(s, seat):
    if s.reveal_queue or seat not in s.waiting_for():
        return []
    phase = s.phase
    if phase == PLACEMENT:
        if s.step == STEP_SPREAD:
            return _spread(s, seat)
        return _placements(s, seat)
    if phase == ACTIONS:
        step = s.step
        if step == STEP_NONE:
            return _actions(s, seat)
        if step == STEP_DISCARD:
            return _hand_cards(s, seat, "discard")
        if step == STEP_SPIES_SHOW:
            return _hand_cards(s, seat, "show")
        if step == STEP_SPIES_TAKE:
            return [("take", c) for c in sorted(s.spies_shown.values())]
        return []
    if phase == PH_CAMP:
        return [("crest", k) for k in range(1, s.n + 1) if not s.crest_down[k]]
    if phase == NP_TURN:
        return _np_turn(s)
    if phase == PH_KEEP:
        return _keeps(s, seat)
    if phase == NP_SETUP:
        taken = s.np_dwarf
        return [("np-dwarf", s.guilds[d]) for d in range(DISTRICTS) if d not in taken]
    return []


# --- setup ---------------------------------------------------------------------------------

def _keeps(s, seat):
    hand = sorted(s.players[seat].hand)
    k = s.rs.keep
    types = s.types
    out = []
    for kept in combinations(hand, k):
        dropped = []
        ok = True
        for c in hand:
            if c not in kept:
                if types[c] is None:
                    ok = False
                    break
                dropped += (c, types[c])
        if ok:
            out.append(("keep", kept, tuple(dropped)))
    return out


# --- placement (§6) --------------------------------------------------------------------------

def _placements(s, seat):
    kinds = [k for k, v in enumerate(s.unplaced(seat)) if v > 0]
    if not kinds:
        return [("pass",)]
    rs = s.rs
    p = s.players[seat]
    gold = p.res[3]
    planks = []
    if gold >= rs.fee_recruiter_desk and NO_ONE in s.desk:
        planks.append(DESK)
    if not p.camp_used and NO_ONE in s.camp:
        planks.append(CAMP)
    board = s.board
    for d in range(DISTRICTS):
        if s.guild_plank[d] == NO_ONE and d not in s.np_dwarf:
            owner = board[d * 12 + 11]
            if owner == seat or gold >= rs.fee_guild_plank:
                planks.append(GUILD_PLANK + s.guilds[d])
    types, gnomes, card_plank = s.types, s.gnomes, s.card_plank
    for c in p.built:
        t = types[c]
        if t in HAS_PLANK and c not in card_plank:
            if t in PLANK_BEHIND_LOCK and (not gnomes.get(c) or gold < rs.fee_property_plank):
                continue
            planks.append(CARD_PLANK + c)
    out = [("place", k, pl) for k in kinds for pl in planks]
    out.append(("pass",))
    return out


def _spread(s, seat):
    kind = s.spread_kinds[0]
    total = s.unplaced(seat)[kind]
    return [("spread", kind, a, b, total - a - b)
            for a in range(total, -1, -1) for b in range(total - a, -1, -1)]


# --- actions (§8, §13, §14) ----------------------------------------------------------------

def _affordable(res, cost):
    return res[0] >= cost[0] and res[1] >= cost[1] and res[2] >= cost[2] and res[3] >= cost[3]


def free_build_sites(board, t):
    """Sites where a property of type t may be marked now (§2, §8)."""
    if t == GATEHOUSE:
        out = []
        for g in range(DISTRICTS):
            a = GATE_BASE + 2 * g
            if board[a] == NO_ONE and board[a + 1] == NO_ONE:
                out.append(a)
                out.append(a + 1)
        return out
    return [x for x in SITES_OF_TYPE[t] if board[x] == NO_ONE]


def _actions(s, seat):
    rs = s.rs
    p = s.players[seat]
    res = p.res
    out = []
    seen = set()
    for plank in p.waiting:
        if plank not in seen:
            seen.add(plank)
            out += activation_options(s, seat, plank)
    board = s.board
    types = s.types
    free_cache = {}
    for c in p.hand:
        t = types[c]
        if t is None or not _affordable(res, rs.card_cost[t]):
            continue
        sites = free_cache.get(t)
        if sites is None:
            sites = free_cache[t] = free_build_sites(board, t)
        for x in sites:
            out.append(("build", c, x))
    if _affordable(res, rs.wall_cost):
        for x in WALL_SITES:
            if board[x] == NO_ONE:
                out.append(("wall", x))
    for d in range(DISTRICTS):
        if board[d * 12 + 11] == NO_ONE:
            g = s.guilds[d]
            if _affordable(res, rs.guild_cost[g]):
                out.append(("guild", g))
    gold = res[3]
    if s.t_buys < s.t_visits:
        for r in range(3):
            if gold >= rs.trade_buy[r]:
                out.append(("buy", r))
    if s.t_sells < s.t_visits:
        for r in range(3):
            if res[r] >= 1:
                out.append(("sell", r))
    if s.t_exchanges > 0:
        for r in (0, 1):
            if res[r] >= 1:
                out.append(("exchange", r))
    gnomes = s.gnomes
    if not s.t_hired and gold >= rs.fee_gnome_hire and s.gnome_supply > 0:
        out += gnome_targets(s, seat, "hire")
    for c in p.built:
        t = types[c]
        if t == BANK:
            if gnomes.get(c) and c not in s.t_banks:
                out.append(("bank", c))
        elif t == BLACKSMITH:
            if gnomes.get(c) and c not in s.smith_used and gold >= 1:
                out.append(("smith", c))
    if not p.waiting:
        out.append(("end",))
        if gold >= rs.fee_card_purchase:
            for c in s.pool:
                out.append(("buy-card", c))
            if s.draw or s.discard:
                out.append(("buy-card", NO_ONE))
    return out


def gnome_targets(s, seat, verb, *prefix):
    """Every (card, gatehouse symbol) a new gnome of `seat` may go to (§8 hire, §13)."""
    out = []
    if s.gnome_supply <= 0:
        return out
    types, gnomes, board = s.types, s.gnomes, s.board
    for c in s.players[seat].built:
        t = types[c]
        if gnomes.get(c, 0) >= LOCKS[t]:
            continue
        if t == GATEHOUSE:
            gates = gatehouse_second_markers(board, seat)
            if gates:
                for x in gates:
                    out.append((verb, *prefix, c, x))
                continue
        out.append((verb, *prefix, c, NO_ONE))
    return out


def gatehouse_second_markers(board, seat):
    """§13 Gatehouse lock: the free other symbols of gatehouses where `seat` has a marker."""
    out = []
    for g in range(DISTRICTS):
        a = GATE_BASE + 2 * g
        x, y = board[a], board[a + 1]
        if x == seat and y == NO_ONE:
            out.append(a + 1)
        elif y == seat and x == NO_ONE:
            out.append(a)
    return out


def activation_options(s, seat, plank):
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


def _worker_gains(s, seat, plank):
    p = s.players[seat]
    limit = s.rs.workers_per_colour
    out = []
    if p.elves < limit:
        out.append(("activate", plank, "elf"))
    if p.dwarves < limit:
        out.append(("activate", plank, "dwarf"))
    return out


def discount_options(cost, res):
    """§14 Architects: each discount applied in full (Decision), keeping only those whose
    reduced cost the player can pay."""
    out = []
    for code, (dw, ds, dm) in DISCOUNTS.items():
        w, st, m = cost[0] - dw, cost[1] - ds, cost[2] - dm
        if w < 0 or st < 0 or m < 0:
            continue
        if res[0] >= w and res[1] >= st and res[2] >= m and res[3] >= cost[3]:
            out.append(code)
    return out


def architect_cost(s, site):
    t = SITE_TYPE[site]
    if t == "wall":
        return s.rs.wall_cost
    if t == "guild":
        return s.rs.guild_cost[s.guilds[site // 12]]
    return s.rs.card_cost[t]


def architect_sites(s):
    """Free places the Architects may mark: property symbols (keep: a section; gatehouse: a
    symbol of a gatehouse with both free), walls and unowned guilds."""
    board = s.board
    sites = []
    for t in range(len(CARD_TYPES)):
        sites += free_build_sites(board, t)
    sites += [x for x in WALL_SITES if board[x] == NO_ONE]
    sites += [x for x in GUILD_SITES if board[x] == NO_ONE]
    return sites


def _architects(s, seat, plank):
    res = s.players[seat].res
    out = []
    for x in architect_sites(s):
        for code in discount_options(architect_cost(s, x), res):
            out.append(("activate", plank, x, code))
    return out


def _others(s, seat):
    return [q for q in range(s.n) if q != seat]


def _thieves(s, seat, plank):
    rich = [q for q in _others(s, seat) if s.players[q].res[3] >= 1]
    out = [("activate", plank, "from", q) for q in rich]
    for k in range(2, s.rs.max_targets + 1):
        for group in combinations(rich, k):
            out.append(("activate", plank, "each", *group))
    return out


def _bandits(s, seat, plank):
    out = []
    takers = []
    limit = s.rs.bandits_one
    for q in _others(s, seat):
        w, st, m, _ = s.players[q].res
        if m >= 1:
            out.append(("activate", plank, "from", q, 2))
        # "up to 2 wood/stone (any mix)": as many as they have, up to the limit.
        take = min(limit, w + st)
        for nw in range(take, -1, -1):
            ns = take - nw
            if take and nw <= w and ns <= st:
                out.append(("activate", plank, "from", q) + (0,) * nw + (1,) * ns)
        choices = [r for r in (0, 1) if (w, st)[r] >= 1]
        if choices:
            takers.append((q, choices))
    for k in range(2, s.rs.max_targets + 1):
        for group in combinations(takers, k):
            out += _bandit_each(plank, group)
    return out


def _bandit_each(plank, group):
    combos = [()]
    for q, choices in group:
        combos = [c + (q, r) for c in combos for r in choices]
    return [("activate", plank, "each") + c for c in combos]


# Swap units for the Wizards: same-type property symbols, keep sections, walls, guilds,
# and whole gatehouses (named by their first site).
def _wizard_groups():
    groups = [SITES_OF_TYPE[t] for t in _SINGLE_SITE_TYPES]
    groups.append(SITES_OF_TYPE[KEEP])
    groups.append(WALL_SITES)
    groups.append(GUILD_SITES)
    return groups


_WIZARD_GROUPS = _wizard_groups()


def _wizards(s, plank):
    board = s.board
    out = []
    for group in _WIZARD_GROUPS:
        for a, b in combinations(group, 2):
            if board[a] != board[b]:
                out.append(("activate", plank, a, b, NO_ONE, NO_ONE))
    for ga, gb in combinations(range(DISTRICTS), 2):
        a, b = GATE_BASE + 2 * ga, GATE_BASE + 2 * gb
        for ra, rb in gatehouse_swap_targets(board, a, b):
            out.append(("activate", plank, a, b, ra, rb))
    return out


def gatehouse_swap_targets(board, a, b):
    """(symbol in A, symbol in B) choices for swapping gatehouses A and B: a gatehouse that
    receives a single marker needs its symbol chosen (§14); swaps that change nothing are
    left out."""
    ma = [board[a], board[a + 1]]
    mb = [board[b], board[b + 1]]
    into_a = [x for x in (a, a + 1)] if _single(mb) else [NO_ONE]
    into_b = [x for x in (b, b + 1)] if _single(ma) else [NO_ONE]
    out = []
    for ra in into_a:
        for rb in into_b:
            na = _receive(mb, a, ra)
            nb = _receive(ma, b, rb)
            if na != ma or nb != mb:
                out.append((ra, rb))
    return out


def _single(markers):
    return (markers[0] == NO_ONE) != (markers[1] == NO_ONE)


def _receive(markers, base, chosen):
    owner = markers[0] if markers[0] != NO_ONE else markers[1]
    if _single(markers):
        return [owner if chosen == base else NO_ONE, owner if chosen == base + 1 else NO_ONE]
    return list(markers)


def _hand_cards(s, seat, verb):
    types = s.types
    return [(verb, c, types[c]) for c in sorted(s.players[seat].hand) if types[c] is not None]


# --- the non-players (§12) -------------------------------------------------------------------

def _np_turn(s):
    board = s.board
    if s.step == STEP_NP_TAKE:
        placeable = [c for c in s.pool if free_build_sites(board, s.types[c])]
        offer = placeable if placeable else list(s.pool)
        out = [("np-take", c) for c in offer]
        if s.draw or s.discard:
            out.append(("np-take", NO_ONE))
        return out or [("np-skip",)]  # nothing left anywhere: the NP does nothing
    if s.step == STEP_NP_MARK:
        sites = free_build_sites(board, s.types[s.np_card])
        # §12 Decision: a card with no legal symbol places nothing and is discarded.
        return [("np-mark", x) for x in sites] or [("np-mark", NO_ONE)]
    return []

