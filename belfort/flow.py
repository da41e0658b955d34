"""The automatic parts of a round (§4, §5, §7, §10, §12, §15) and moving from one decision
to the next. Nothing here decides for a player: whenever a choice is needed the flow stops
and `legal_commands` takes over.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import scoring
from .data import (AREAS, DISTRICTS, FOREST, GOLDMINE, KIND_IS_ELF, LIBRARY,
                   MARKET, MINE, NOBODY, QUARRY, RESOURCES, guild_site)
from .data import WOOD, STONE, METAL, GOLD
from .prng import Prng
from .state import (ACTIONS, CAMP, NP_TURN, OVER, PLACEMENT, STEP_DISCARD,
                    STEP_NONE, STEP_NP_TAKE)

if TYPE_CHECKING:
    from .commands import Event
    from .state import GameState


# --- the deck (§15) -------------------------------------------------------------------

def draw_id(s: GameState, events: list[Event]) -> int | None:
    """Take the top card of the draw pile, reshuffling the discards first if it is empty.
    Returns None when both piles are empty (the draw does not happen)."""
    if not s.draw:
        if not s.discard:
            return None
        reshuffle(s, events)
    return s.draw.pop()


def reshuffle(s: GameState, events: list[Event]) -> None:
    """§15 Decision: the discard pile becomes a new hidden draw pile under fresh ids.

    The new ids stand for positions in the new pile. A local game orders them with the
    seeded stream; a networked game (hidden) learns nothing until cards are revealed."""
    old = s.discard
    s.discard = []
    s.epoch += 1
    old_types = [s.types[c] for c in old]
    order = list(range(len(old)))
    if not s.hidden:
        Prng(s.seed, "reshuffle", s.epoch).shuffle(order)
    new_ids = list(range(s.next_id, s.next_id + len(old)))
    s.next_id += len(old)
    for pos in range(len(new_ids)):
        s.types.append(None if s.hidden else old_types[order[pos]])
        s.public.append(False)
    # new_ids[0] is the top: the pile is stored with its top at the end.
    s.draw = new_ids[::-1]
    events.append(("reshuffle", s.epoch, tuple(old), tuple(new_ids)))


def make_public(s: GameState, card: int) -> None:
    """A card reaches a face-up place; in a hidden game its type may still need revealing."""
    s.public[card] = True
    if s.types[card] is None:
        s.reveal_queue.append(card)


def refill_pool(s: GameState, events: list[Event]) -> None:
    while len(s.pool) < s.rs.pool_size:
        c = draw_id(s, events)
        if c is None:
            return
        s.pool.append(c)
        make_public(s, c)
        events.append(("pool", c))


def draw_to_hand(s: GameState, seat: int, count: int, events: list[Event]) -> list[int]:
    drawn = []
    for _ in range(count):
        c = draw_id(s, events)
        if c is None:
            break
        s.players[seat].hand.append(c)
        drawn.append(c)
    if drawn:
        events.append(("draw", seat, tuple(drawn)))
    return drawn


def discard_card(s: GameState, card: int) -> None:
    s.discard.append(card)
    make_public(s, card)


# The resource areas in collection order (§7) and what each yields.
_AREA_RESOURCE = ((FOREST, 0), (QUARRY, 1), (MINE, 2), (GOLDMINE, 3))


# --- round structure ---------------------------------------------------------------------

def compute_order(s: GameState) -> None:
    s.order = sorted(range(s.n), key=s.crest.__getitem__)


def start_round(s: GameState, events: list[Event]) -> None:
    """§5 Calendar, then §6 Placement begins with crest 1."""
    s.round += 1
    events.append(("round", s.round))
    for p in s.players:
        p.placed = [0, 0, 0, 0]
        p.passed = False
        p.camp_used = False
    s.crest_down = [False] * (s.n + 1)
    s.desk = [NOBODY] * len(s.desk)
    s.camp = [NOBODY] * len(s.camp)
    s.smith_used = []
    s.phase = PLACEMENT
    s.step = STEP_NONE
    s.turn = 0
    s.current = s.order[0]


def next_placer(s: GameState, events: list[Event]) -> None:
    """§6: the next player in turn order who has not passed; Collection once all have."""
    n, turn, order, players = s.n, s.turn, s.order, s.players
    t = turn
    while True:   # the seats after `turn` in order, `turn` itself last (usually one step)
        t = t + 1 if t + 1 < n else 0
        seat = order[t]
        if not players[seat].passed:
            s.turn = t
            s.current = seat
            return
        if t == turn:
            break
    collect(s, events)


def collect(s: GameState, events: list[Event]) -> None:
    """§7 Collection in its fixed order. Each area reports what each seat there collected
    (`("area", seat, area, resource, collected, bonus)`), then each seat's total."""
    n = s.n
    rs = s.rs
    master, area_bonus = rs.master_collects, rs.area_bonus
    workers = s.area
    gains = [[0, 0, 0, 0] for _ in range(n)]
    for area, res in _AREA_RESOURCE:
        base = area * 4
        # A master counts 1 for the bonus.
        pieces = [v[base] + v[base + 1] + v[base + 2] + v[base + 3] for v in workers]
        best = max(pieces)
        if best == 0:
            continue   # nobody here: no collection, no bonus
        winner = pieces.index(best) if pieces.count(best) == 1 else NOBODY
        area_name, res_name = AREAS[area], RESOURCES[res]
        for seat in range(n):
            if pieces[seat]:
                # 1 Forest, 2 Quarry, 4 Gold mine: each worker collects 1, a master
                # `master`; 3 Mine: metal = pairs of elf and dwarf power.
                v = workers[seat]
                elves, dwarves = v[base] + master * v[base + 1], v[base + 2] + master * v[base + 3]
                got = (elves if elves < dwarves else dwarves) if area == MINE else elves + dwarves
                bonus = area_bonus if seat == winner else 0
                gains[seat][res] += got + bonus
                events.append(("area", seat, area_name, res_name, got, bonus))
        if winner != NOBODY:
            events.append(("bonus", winner, area_name, area_bonus))
    for seat in range(n):
        g = gains[seat]
        if any(g):
            r = s.players[seat].res
            r[WOOD] += g[WOOD]
            r[STONE] += g[STONE]
            r[METAL] += g[METAL]
            r[GOLD] += g[GOLD]
            events.append(("collect", seat, tuple(g)))
        workers[seat] = [0] * 16
    # 5 Recruiter's desk: one more worker of the same kind, from the player's reserve.
    for occ in s.desk:
        if occ != NOBODY:
            seat, kind = divmod(occ, 4)
            gain_worker(s, seat, KIND_IS_ELF[kind], events)
    s.desk = [NOBODY] * len(s.desk)
    # 6 King's camp, in plank order.
    s.camp_queue = [occ // 4 for occ in s.camp if occ != NOBODY]
    s.camp = [NOBODY] * len(s.camp)
    if s.camp_queue:
        s.phase = CAMP
        s.step = STEP_NONE
        s.current = s.camp_queue[0]
    else:
        income_and_taxes(s, events)


def gain_worker(s: GameState, seat: int, elf: bool, events: list[Event]) -> bool:
    p = s.players[seat]
    limit = s.rs.workers_per_colour
    if elf and p.elves < limit:
        p.elves += 1
        events.append(("gain-worker", seat, "elf"))
        return True
    if not elf and p.dwarves < limit:
        p.dwarves += 1
        events.append(("gain-worker", seat, "dwarf"))
        return True
    return False


def after_camp_choice(s: GameState, events: list[Event]) -> None:
    s.camp_queue.pop(0)
    if s.camp_queue:
        s.current = s.camp_queue[0]
        return
    s.crest_down = [False] * (s.n + 1)
    compute_order(s)
    income_and_taxes(s, events)


def income_and_taxes(s: GameState, events: list[Event]) -> None:
    """§7.7: income per built card with a coin, then the tax of the player's level."""
    rs = s.rs
    card_income, types = rs.card_income, s.types
    for seat, p in enumerate(s.players):
        income = 0
        for c in p.built:
            income += card_income[types[c]]  # type: ignore[index]  # built: known
        p.res[GOLD] += income
        tax = rs.tax_for(p.score)
        paid = min(tax, p.res[GOLD])
        p.res[GOLD] -= paid
        short = tax - paid
        lost = min(short * rs.unpaid_tax_vp, p.score)   # never below 0 (§7.7)
        p.score -= lost
        p.taxes_lost += lost
        events.append(("income", seat, income, paid, lost))
    s.phase = ACTIONS
    s.step = STEP_NONE
    s.turn = 0
    start_turn(s, s.order[0])


def start_turn(s: GameState, seat: int) -> None:
    s.current = seat
    p = s.players[seat]
    markets = 0
    for c in p.built:
        if s.types[c] == MARKET:
            markets += s.gnomes.get(c, 0)
    s.t_visits = s.rs.trade_visits + s.rs.lock_market_visits * markets
    s.t_buys = s.t_sells = s.t_exchanges = 0
    s.t_hired = False
    s.t_banks = []


def end_turn(s: GameState, events: list[Event]) -> None:
    """§8 End of turn: Library gnomes draw first, then the hand limit."""
    seat = s.current
    p = s.players[seat]
    gnomes = 0
    if s.gnomes:
        for c in p.built:
            if s.types[c] == LIBRARY:
                gnomes += s.gnomes.get(c, 0)
    if gnomes:
        draw_to_hand(s, seat, gnomes * s.rs.lock_library_draw, events)
    events.append(("end-turn", seat))
    excess = len(p.hand) - s.rs.hand_limit
    if excess > 0:
        s.step = STEP_DISCARD
        s.pending = excess
        s.pending_reason = "hand-limit"
        return
    next_actor(s, events)


def next_actor(s: GameState, events: list[Event]) -> None:
    s.step = STEP_NONE
    s.turn += 1
    if s.turn < s.n:
        start_turn(s, s.order[s.turn])
        return
    if s.n == 2:
        s.phase = NP_TURN
        s.np_index = 0
        start_np_turn(s)
        return
    end_of_round(s, events)


# --- the two non-players (§12) -----------------------------------------------------------

def np_controller(s: GameState, index: int) -> int:
    """NP3 is played by the holder of crest 1, NP4 by the holder of crest 2."""
    return s.crest.index(index + 1)


def start_np_turn(s: GameState) -> None:
    s.step = STEP_NP_TAKE
    s.np_card = NOBODY
    s.current = np_controller(s, s.np_index)


def after_np_turn(s: GameState, events: list[Event]) -> None:
    s.np_index += 1
    if s.np_index < 2:
        start_np_turn(s)
        return
    # Each NP dwarf moves one guild clockwise; its owner gains gold.
    for i, d in enumerate(s.np_dwarf):
        nd = (d + 1) % DISTRICTS
        s.np_dwarf[i] = nd
        owner = s.board[guild_site(nd)]
        events.append(("np-dwarf", s.n + i, nd))
        if 0 <= owner < s.n:
            s.players[owner].res[GOLD] += s.rs.np_guild_gold
    s.step = STEP_NONE
    end_of_round(s, events)


def end_of_round(s: GameState, events: list[Event]) -> None:
    if s.round in s.rs.scoring_rounds:
        record = scoring.score_phase(s)
        # VP lost to unpaid taxes since the previous scoring phase, for the breakdown.
        before = [sum(r["taxes_lost"][seat] for r in s.score_log) for seat in range(s.n)]
        record["taxes_lost"] = [p.taxes_lost - b for p, b in zip(s.players, before)]
        s.score_log = s.score_log + [record]
        for seat in range(s.n):
            s.players[seat].score += record["total"][seat]
        events.append(("scoring", s.round))
    if s.round >= s.rs.rounds:
        s.phase = OVER
        s.step = STEP_NONE
        s.current = NOBODY
        s.result = scoring.final_result(s)
        events.append(("game-over",))
        return
    start_round(s, events)

