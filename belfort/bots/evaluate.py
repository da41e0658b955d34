"""A static evaluation: each seat's expected final score, in victory points.

Scores change only at the three scoring phases (and through unpaid taxes), so a position
is worth: the current score, plus the majorities it would score now times the scoring
phases still ahead, plus what the seat's material will turn into. Material is priced in
*resource units* (1 wood = 1 stone = 1 gold, metal a bit more) and a unit is worth
U_RATE VP for each scoring phase it can still influence: a marker costs about 6 units
and moves a district majority by a point or two per phase. The constants were tuned by
playing bots against each other (scripts/bench_bots.py); they are guesses, not rules.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from functools import lru_cache

from ..data import (BANK, BLACKSMITH, DISTRICTS, GATEHOUSE, INN, KEEP, LIBRARY, MARKET,
                    N_SITES, SITE_DISTRICT, SITE_WEIGHT, SITES_OF_TYPE, TOWER)
from ..data import WOOD, STONE, METAL, GOLD
from ..ruleset import standard_ruleset
from ..scoring import tiebreak_value
from ..state import ACTIONS, CAMP, KEEP as PH_KEEP, NP_SETUP, OVER, PLACEMENT
from .learned import WEIGHTS

if TYPE_CHECKING:
    from ..ruleset import Ruleset
    from ..state import GameState

U_RATE = 0.22           # VP per resource unit per scoring phase it can still influence
METAL_UNITS = 1.7       # the bots' worth of a metal (an elf and a dwarf mine one together)
WORKER_YIELD = 0.9      # units a worker gathers per round, on average
MARKER_BONUS = 0.35     # VP per marker per phase: markers contest later, not just now
CARD_UNITS = 1.5        # a buildable card in hand (a keep builds two markers)
WORKER_UNITS = 1.0      # what a worker spent on a plank could have gathered instead
VISIT_UNITS = 0.5       # one more trading-post visit a turn
CARD_DRAW_UNITS = 0.5   # one more card drawn


def plank_yield(rs: Ruleset) -> dict[int, float]:
    """Future yield of a built card's plank per round, in units, the worker it takes paid
    (by card type; the ruleset's numbers)."""
    ys = _plank_yields.get(rs)
    if ys is None:
        ys = _plank_yields[rs] = {
            MARKET: rs.market_gold - WORKER_UNITS,
            BLACKSMITH: METAL_UNITS * rs.blacksmith_metal - WORKER_UNITS,
            LIBRARY: 0.3, TOWER: 0.0, INN: 0.0}
    return ys


def gnome_yield(rs: Ruleset) -> dict[int, float]:
    """What one gnome on a built card adds per round, in units (Pub/Gardens gnomes make
    masters: counted as worker power elsewhere)."""
    ys = _gnome_yields.get(rs)
    if ys is None:
        ys = _gnome_yields[rs] = {
            BANK: 1.0 * rs.lock_bank_gold,
            # the exchange's gain, less a little: it is used only when metal is short
            BLACKSMITH: max(0.0, METAL_UNITS * rs.lock_blacksmith_metal
                            - rs.lock_blacksmith_gold - 0.1),
            MARKET: VISIT_UNITS * rs.lock_market_visits,
            LIBRARY: CARD_DRAW_UNITS * rs.lock_library_draw, TOWER: 0.9, INN: 0.7}
    return ys


_plank_yields: dict[Ruleset, dict[int, float]] = {}      # by ruleset: a few entries
_gnome_yields: dict[Ruleset, dict[int, float]] = {}

_BEFORE_COLLECTION = (PH_KEEP, NP_SETUP, PLACEMENT)


def rank_points(counts: list[int], table: tuple[int, ...]) -> list[int]:
    """scoring.rank_points (§9.3), rewritten for speed: the bots call it in every
    playout step. tests/bots checks that both agree. `table` is a tuple; the list returned
    is shared (memoized): callers must not change it.

    Hand-rolled rather than functools.lru_cache: the memo inline measured 470 ns a call
    against 622 ns through lru_cache (timeit, Python 3.11), in the bots' hottest loop."""
    key = (tuple(counts), table)
    pts = _rank_memo.get(key)
    if pts is None:
        if len(_rank_memo) >= 50000:
            _rank_memo.clear()
        pts = _rank_memo[key] = _rank_points(counts, table)
    return pts


_rank_memo: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}


def _rank_points(counts: list[int], table: tuple[int, ...]) -> list[int]:
    n = len(counts)
    pts = [0] * n
    order = sorted(range(n), key=counts.__getitem__, reverse=True)
    size = len(table)
    r = 1
    i = 0
    while i < n and r <= size:
        v = counts[order[i]]
        if v <= 0:
            break
        j = i + 1
        while j < n and counts[order[j]] == v:
            j += 1
        if j == i + 1:
            pts[order[i]] = table[r - 1]
            r += 1
        else:
            if r < size:
                p = table[r]
                for x in order[i:j]:
                    pts[x] = p
            r += 2
        i = j
    return pts


def units(res: list[int]) -> float:
    """Resources as units (wood, stone, gold 1; metal METAL_UNITS)."""
    return res[WOOD] + res[STONE] + res[GOLD] + METAL_UNITS * res[METAL]


def pending_scorings(s: GameState) -> tuple[int, ...]:
    """Scoring rounds not yet scored (the current round's counts until its end); a shared
    tuple."""
    if s.phase == OVER:
        return ()
    return _pending(s.rs, s.round)


# Pure functions of (ruleset, round): a few entries per ruleset in use.
@lru_cache(maxsize=1024)
def _pending(rs: Ruleset, round_: int) -> tuple[int, ...]:
    r = max(round_, 1)
    return tuple([x for x in rs.scoring_rounds if x >= r])


def acts_this_round(s: GameState, seat: int) -> bool:
    """Whether `seat` still has an Actions turn in the current round."""
    if s.phase in _BEFORE_COLLECTION or s.phase == CAMP:
        return True
    if s.phase == ACTIONS:
        return s.order.index(seat) >= s.turn
    return False


def spend_phases(s: GameState, seat: int) -> int:
    """Scoring phases that resources held now by `seat` can still influence."""
    pending = pending_scorings(s)
    if pending and pending[0] == s.round and not acts_this_round(s, seat):
        return len(pending) - 1
    return len(pending)


def production_factor(s: GameState) -> float:
    """VP value of one unit gathered in each remaining Collection, summed."""
    rs = s.rs
    if s.phase == OVER:
        return 0.0
    first = max(s.round, 1) if s.phase in _BEFORE_COLLECTION else s.round + 1
    return _production(rs, first)


@lru_cache(maxsize=1024)
def _production(rs: Ruleset, first: int) -> float:
    total = 0
    for r in range(first, rs.rounds + 1):
        total += sum(1 for x in rs.scoring_rounds if x >= r)
    return U_RATE * total


def majority_points(s: GameState) -> tuple[list[int], list[int]]:
    """Points each seat would score if a scoring phase happened now (§9, §10)."""
    rs = s.rs
    n = s.n
    comp = s.competitors()
    counts = [[0] * comp for _ in range(DISTRICTS)]
    board = s.board
    markers = [0] * comp
    for site in range(N_SITES):
        o = board[site]
        if o >= 0:
            w = SITE_WEIGHT[site]
            counts[SITE_DISTRICT[site]][o] += w
            markers[o] += w
    table = rs.district_points if (n >= rs.district_third_from or n == 2) else \
        rs.district_points[:2]
    pts = [0] * n
    for c in counts:
        if any(c):
            for i, v in enumerate(rank_points(c, table)[:n]):
                pts[i] += v
    extra = comp - n
    players = s.players
    wp = rs.worker_points
    for vals in ([p.elves for p in players] + [rs.np_elves] * extra,
                 [p.dwarves for p in players] + [rs.np_dwarves] * extra):
        for i, v in enumerate(rank_points(vals, wp)[:n]):
            pts[i] += v
    gn = [0] * n
    gnomes = s.gnomes
    for seat, p in enumerate(players):
        gn[seat] = sum(gnomes.get(c, 0) for c in p.built)
    for i, v in enumerate(rank_points(gn, wp)):
        pts[i] += v
    return pts, markers[:n]


def card_value(s: GameState, t: int | None) -> float:
    """Units a card of type t in hand is worth now (None: a hidden card, average)."""
    if t is None:
        return CARD_UNITS * 0.8
    if t == GATEHOUSE:
        free = any(s.board[a] < 0 and s.board[a + 1] < 0 for a in SITES_OF_TYPE[GATEHOUSE][::2])
    else:
        free = any(s.board[x] < 0 for x in SITES_OF_TYPE[t])
    if not free:
        return 0.1
    return CARD_UNITS * (1.8 if t == KEEP else 1.0)


def evaluate(s: GameState, learned: bool = True) -> list[float]:
    """Expected final VP of every seat (a list). At the end: the score, plus a tiny share
    of the tie-break so that ties are broken as §11 does. At the start of a round of the
    standard calendar, a linear model fitted on played games (learned.py) refines the
    hand-made estimate below."""
    if s.phase == OVER:
        return [p.score + 0.01 * tiebreak_value(p) for p in s.players]
    weights = _learned_weights(s) if learned else None
    if weights is not None:
        return [sum(w * f for w, f in zip(weights, row)) for row in features(s)]
    return handmade(s)


def _learned_weights(s: GameState) -> tuple[float, ...] | None:
    if s.phase != PLACEMENT or s.step or any(any(p.placed) or p.passed for p in s.players):
        return None
    rs = s.rs
    std = standard_ruleset()        # the weights were fitted on its calendar
    if rs is not std and (rs.rounds != std.rounds or
                          tuple(rs.scoring_rounds) != tuple(std.scoring_rounds)):
        return None
    return WEIGHTS.get((s.n, s.round))


def features(s: GameState) -> list[tuple[float, ...]]:
    """Per seat, what the learned model reads at the start of a round (see FEATURES)."""
    maj, markers = majority_points(s)
    base = handmade(s, (maj, markers))
    rs = s.rs
    plank_y, gnome_y = plank_yield(rs), gnome_yield(rs)
    types, gnomes = s.types, s.gnomes
    out: list[tuple[float, ...]] = []
    for seat, p in enumerate(s.players):
        me, md = s.masters(seat)
        hand = sum(1 for c in p.hand if card_value(s, types[c]) > 0.5)
        income = 0
        yields = 0.0
        gn = 0
        for c in p.built:
            t: int = types[c]  # type: ignore[assignment]  # built: known
            income += rs.card_income[t]
            yields += plank_y.get(t, 0.0)
            g = gnomes.get(c, 0)
            gn += g
            yields += g * gnome_y.get(t, 0.0)
        r = p.res
        out.append((1.0, p.score, maj[seat], markers[seat], r[WOOD] + r[STONE], r[METAL], r[GOLD],
                    p.elves + p.dwarves + me + md, income, hand, gn, yields,
                    rs.tax_for(p.score), base[seat]))
    return out


FEATURES = ("bias", "score", "majority_now", "markers", "wood_stone", "metal", "gold",
            "worker_power", "income", "buildable_cards", "gnomes", "yields", "tax",
            "handmade")


def handmade(s: GameState, majorities: tuple[list[int], list[int]] | None=None) -> list[float]:
    """The hand-made estimate: majorities now for every phase ahead, material priced in
    units. Used mid-round, and as one input of the learned model. `majorities`:
    majority_points(s) when the caller has it already."""
    n = s.n
    pending = pending_scorings(s)
    k = len(pending)
    maj, markers = majorities or majority_points(s)
    prod = production_factor(s)
    rs = s.rs
    plank_y, gnome_y = plank_yield(rs), gnome_yield(rs)
    types, gnomes = s.types, s.gnomes
    cache: dict[int | None, float] = {}
    out = []
    for seat in range(n):
        p = s.players[seat]
        v = p.score + k * (maj[seat] + MARKER_BONUS * markers[seat])
        u = U_RATE * spend_phases(s, seat)
        hand = 0.0
        for c in p.hand:
            t = types[c]
            if t not in cache:
                cache[t] = card_value(s, t)
            hand += cache[t]
        v += u * (units(p.res) + hand) + 0.01 * tiebreak_value(p)
        me, md = s.masters(seat)
        yield_units = WORKER_YIELD * (p.elves + p.dwarves + me + md)
        for c in p.built:
            bt: int = types[c]  # type: ignore[assignment]  # built: known
            yield_units += rs.card_income[bt] + plank_y.get(bt, 0.0)
            g = gnomes.get(c, 0)
            if g:
                yield_units += g * gnome_y.get(bt, 0.0)
        v += prod * yield_units
        # Taxes (§9.7) at every remaining Collection, at the score the seat will have then.
        score = p.score
        first = max(s.round, 1) if s.phase in _BEFORE_COLLECTION else s.round + 1
        tax = 0.0
        for r in range(first, rs.rounds + 1):
            left = sum(1 for x in pending if x >= r)
            tax += rs.tax_for(score) * U_RATE * left
            if r in pending:
                score += maj[seat]
        out.append(v - tax)
    return out


def margin(values: list[float], seat: int) -> float:
    """How far `seat` is ahead of its best opponent."""
    best = max(v for i, v in enumerate(values) if i != seat)
    return values[seat] - best


__all__ = ["rank_points", "evaluate", "features", "FEATURES", "handmade", "margin",
           "majority_points", "units", "U_RATE", "card_value", "plank_yield", "gnome_yield"]
