"""`apply(state, command, seat)`: carry out one legal command (§3–§14) and run the automatic
steps that follow, up to the next decision. Illegal or malformed input raises and changes
nothing. Returns the list of events (plain tuples) for logs and the network layer.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .data import (ARCHITECTS, BANDITS, BANKERS, BLACKSMITH, CAMP, CARD_PLANK, CARD_TYPES,
                   DESK, GATE_BASE, GUILD_PLANK, GUILD_SITES, INN, LIBRARIANS, LIBRARY, MARKET,
                   MASONS, MERCHANTS, MINERS, NOBODY, RECRUITERS, SAWYERS, SPIES, SPREAD_AREAS,
                   THIEVES, TOWER, WIZARDS, guild_site)
from .data import WOOD, STONE, METAL, GOLD
from .errors import IllegalCommandError
from .flow import (after_camp_choice, after_np_turn, discard_card, draw_id, draw_to_hand,
                   end_turn, gain_worker, make_public, next_actor, next_placer, refill_pool,
                   start_round)
from .game import finish_keep
from .legal import CLAIM_VERBS, apply_claims, check_legal, known_count, listed, where
from .state import (STEP_DISCARD, STEP_NONE, STEP_NP_MARK, STEP_SPIES_SHOW, STEP_SPIES_TAKE,
                    STEP_SPREAD)
from .targets import architect_cost, received

if TYPE_CHECKING:
    from .commands import Command, Event
    from .state import GameState, Player


def apply(s: GameState, command: Command | str, seat: int | None = None) -> list[Event]:
    """Carry out `command` (a tuple, a list from the wire, or text) for `seat` (default: the
    only seat the game waits for). Mutates `s`; returns a list of events."""
    if type(seat) is not int or listed(s, command, seat) is None:
        command, seat = check_legal(s, command, seat)
        if command[0] in CLAIM_VERBS:
            apply_claims(s, command, seat)   # keep the types the command revealed (§15)
    # else: a listed command claims only cards whose types are known (the generators list no
    # other), so there is nothing to apply. The rest is _run, written out: the hottest path.
    events = [("command", seat, command)]
    # A listed command is one of the legal tuples.
    _EXECUTE[command[0]](s, seat, command, events)  # type: ignore[arg-type]
    s.version += 1
    s.changed()
    return events


def execute(s: GameState, cmd: tuple[str, bool, int] | Command, seat: int) -> list[Event]:
    """Carry out a command that `check_legal(s, ...)` has just returned as `(cmd, seat)`,
    without parsing or checking it again (a sender checks before it sends, then executes).

    Guarded, never trusting: the command must be the very tuple `check_legal` returned,
    still in the legal list cached for this seat and version. Anything else — the state
    changed since, another value — goes through the full check, as `apply` would."""
    if type(seat) is not int or listed(s, cmd, seat) is None:
        cmd, seat = check_legal(s, cmd, seat)
    return _run(s, cmd, seat)


def _run(s: GameState, cmd: Command, seat: int) -> list[Command]:
    if cmd[0] in CLAIM_VERBS:
        apply_claims(s, cmd, seat)   # keep the types the command revealed (§15)
    events = [("command", seat, cmd)]
    _EXECUTE[cmd[0]](s, seat, cmd, events)
    s.version += 1
    s.changed()
    return events


# --- hidden information: reveals and private knowledge -----------------------------------

def reveal(s: GameState, card: int, t: int) -> list[Command]:
    """A card waiting in `s.reveal_queue` is revealed to all (network deck protocol, §15)."""
    if card not in s.reveal_queue:
        raise IllegalCommandError(f"reveal #{card}", None, "§15",
                                  f"card #{card} is not waiting to be revealed", where(s))
    if not isinstance(t, int) or not 0 <= t < len(CARD_TYPES) or \
            known_count(s, t) >= s.rs.cards_per_type:
        raise IllegalCommandError(f"reveal #{card}", None, "§15",
                                  f"card #{card} cannot be a {t!r}: all are accounted for",
                                  where(s))
    s.types[card] = t
    s.reveal_queue.remove(card)
    s.version += 1
    s.changed()
    return [("revealed", card, t)]


def learn(s: GameState, card: int, t: int) -> None:
    """This peer privately learns the type of a card in its own hand (a private deal)."""
    if not isinstance(t, int) or not 0 <= t < len(CARD_TYPES):
        raise ValueError(f"not a card type: {t!r}")
    if not 0 <= card < len(s.types):
        raise ValueError(f"no card #{card}")
    if s.types[card] is not None and s.types[card] != t:
        raise ValueError(f"card #{card} is already known as "
                         f"{CARD_TYPES[s.types[card]]}")  # type: ignore[index]
    s.types[card] = t
    s.changed()


# --- the commands ----------------------------------------------------------------------------

def _keep(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    s.keep_choice[seat] = (cmd[1], cmd[2])
    if len(s.keep_choice) == s.n:
        finish_keep(s, events)


def _np_dwarf(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    d = s.guilds.index(cmd[1])
    s.np_dwarf.append(d)
    events.append(("np-dwarf", s.n + len(s.np_dwarf) - 1, d))
    if len(s.np_dwarf) == 1:
        s.current = s.crest.index(2)
    else:
        start_round(s, events)


def _place(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    _, kind, plank = cmd
    p = s.players[seat]
    rs = s.rs
    occ = seat * 4 + kind
    p.placed[kind] += 1
    if plank == DESK:
        s.desk[s.desk.index(NOBODY)] = occ
        p.res[GOLD] -= rs.fee_recruiter_desk
    elif plank == CAMP:
        s.camp[s.camp.index(NOBODY)] = occ
        p.camp_used = True
    elif plank >= CARD_PLANK:
        c = plank - CARD_PLANK
        s.card_plank[c] = occ
        if s.types[c] in (TOWER, INN):
            p.res[GOLD] -= rs.fee_property_plank
        p.waiting.append(plank)
    else:
        d = s.guilds.index(plank - GUILD_PLANK)
        s.guild_plank[d] = occ
        owner = s.board[GUILD_SITES[d]]
        if owner != seat:
            p.res[GOLD] -= rs.fee_guild_plank
            if 0 <= owner < s.n:
                s.players[owner].res[GOLD] += rs.fee_guild_plank
        p.waiting.append(plank)
    events.append(("place", seat, kind, plank))
    next_placer(s, events)


def _pass(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    s.players[seat].passed = True
    events.append(("pass", seat))
    kinds = []
    for k, v in enumerate(s.unplaced(seat)):
        if v > 0:
            kinds.append(k)
    if kinds:
        s.step = STEP_SPREAD
        s.spread_kinds = kinds
    else:
        next_placer(s, events)


def _spread(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    _, kind, a, b, c = cmd
    x, y, z = _SPREAD_SLOTS[kind]
    v = s.area[seat]
    v[x] += a
    v[y] += b
    v[z] += c
    s.players[seat].placed[kind] += a + b + c
    events.append(("spread", seat, kind, (a, b, c)))
    s.spread_kinds.pop(0)
    if not s.spread_kinds:
        s.step = STEP_NONE
        next_placer(s, events)


# Where each kind's spread counts go in a seat's area row (area * 4 + kind).
_SPREAD_SLOTS = tuple(tuple(area * 4 + kind for area in SPREAD_AREAS[kind]) for kind in range(4))


def _crest(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    k = cmd[1]
    holder = s.crest.index(k)
    if holder != seat:
        s.crest[holder], s.crest[seat] = s.crest[seat], k
    s.crest_down[k] = True
    events.append(("crest", seat, k, holder))
    after_camp_choice(s, events)


def _pay(p: Player, cost: tuple[int, ...]) -> None:
    r = p.res
    r[WOOD] -= cost[WOOD]
    r[STONE] -= cost[STONE]
    r[METAL] -= cost[METAL]
    r[GOLD] -= cost[GOLD]


def _build(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    _, c, site = cmd
    p = s.players[seat]
    t = s.types[c]
    _pay(p, s.rs.card_cost[t])  # type: ignore[index]  # in its owner's hand: known
    p.hand.remove(c)
    p.built.append(c)
    s.owner[c] = seat
    s.public[c] = True
    s.board[site] = seat
    events.append(("build", seat, c, t, site))


def _wall(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    _pay(s.players[seat], s.rs.wall_cost)
    s.board[cmd[1]] = seat
    events.append(("wall", seat, cmd[1]))


def _guild(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    g = cmd[1]
    _pay(s.players[seat], s.rs.guild_cost[g])
    s.board[guild_site(s.guilds.index(g))] = seat
    events.append(("guild", seat, g))


def _buy(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    r = cmd[1]
    p = s.players[seat]
    p.res[GOLD] -= s.rs.trade_buy[r]
    p.res[r] += 1
    s.t_buys += 1
    events.append(("buy", seat, r))


def _sell(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    r = cmd[1]
    p = s.players[seat]
    p.res[r] -= 1
    p.res[GOLD] += s.rs.trade_sell[r]
    s.t_sells += 1
    events.append(("sell", seat, r))


def _exchange(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    p = s.players[seat]
    p.res[cmd[1]] -= 1
    p.res[METAL] += 1
    s.t_exchanges -= 1
    events.append(("exchange", seat, cmd[1]))


def place_gnome(s: GameState, seat: int, card: int, gate_site: int, events: list[Event]) -> None:
    s.gnome_supply -= 1
    s.gnomes[card] = s.gnomes.get(card, 0) + 1
    events.append(("gnome", seat, card))
    if s.types[card] == MARKET and seat == s.current:
        s.t_visits += s.rs.lock_market_visits   # §8/§13: unlocked at once, this turn too
    if gate_site != NOBODY:
        s.board[gate_site] = seat
        events.append(("second-marker", seat, gate_site))


def _hire(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    s.players[seat].res[GOLD] -= s.rs.fee_gnome_hire
    s.t_hired = True
    place_gnome(s, seat, cmd[1], cmd[2], events)


def _bank(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    gold = s.rs.lock_bank_gold
    s.players[seat].res[GOLD] += gold
    s.t_banks.append(cmd[1])
    events.append(("bank", seat, cmd[1], gold))


def _smith(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    p = s.players[seat]
    gold, metal = s.rs.lock_blacksmith_gold, s.rs.lock_blacksmith_metal
    p.res[GOLD] -= gold
    p.res[METAL] += metal
    s.smith_used.append(cmd[1])
    events.append(("smith", seat, cmd[1], gold, metal))


def _buy_card(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    c = cmd[1]
    p = s.players[seat]
    p.res[GOLD] -= s.rs.fee_card_purchase
    if c == NOBODY:
        draw_to_hand(s, seat, 1, events)
        events.append(("buy-card", seat, NOBODY))
    else:
        s.pool.remove(c)
        p.hand.append(c)
        events.append(("buy-card", seat, c))
        refill_pool(s, events)
    end_turn(s, events)


def _end(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    end_turn(s, events)


def _discard(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    p = s.players[seat]
    p.hand.remove(cmd[1])
    discard_card(s, cmd[1])
    events.append(("discard", seat, cmd[1], cmd[2]))
    s.pending -= 1
    if s.pending > 0 and p.hand:
        return
    s.pending = 0
    if s.pending_reason == "hand-limit":
        next_actor(s, events)
    else:
        s.step = STEP_NONE


def _start_discard(s: GameState, seat: int, count: int, reason: str) -> None:
    count = min(count, len(s.players[seat].hand))
    if count > 0:
        s.step = STEP_DISCARD
        s.pending = count
        s.pending_reason = reason


def _show(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    s.spies_shown[seat] = cmd[1]
    if len(s.spies_shown) < len(s.spies_waiting):
        return
    for q in s.spies_waiting:  # Decision (§3.3, §14): simultaneous, revealed together
        c = s.spies_shown[q]
        s.public[c] = True
        events.append(("show", q, c, s.types[c]))
    s.step = STEP_SPIES_TAKE
    s.current = s.spy


def _take(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    c = cmd[1]
    for q, shown in s.spies_shown.items():
        if shown == c:
            s.players[q].hand.remove(c)
            s.players[seat].hand.append(c)
            events.append(("take", seat, c, q))
            break
    s.spies_shown = {}
    s.spies_waiting = []
    s.spy = NOBODY
    s.step = STEP_NONE


def _np_take(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    c = cmd[1]
    if c == NOBODY:
        c = draw_id(s, events)
        make_public(s, c)  # type: ignore[arg-type]  # legal only while there is a card
    else:
        s.pool.remove(c)
    s.np_card = c
    s.step = STEP_NP_MARK
    events.append(("np-take", s.n + s.np_index, c))


def _np_mark(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    site = cmd[1]
    np_seat = s.n + s.np_index
    if site != NOBODY:
        s.board[site] = np_seat
    events.append(("np-mark", np_seat, s.np_card, site))
    discard_card(s, s.np_card)
    s.np_card = NOBODY
    refill_pool(s, events)
    after_np_turn(s, events)


def _np_skip(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    events.append(("np-skip", s.n + s.np_index))
    after_np_turn(s, events)


# --- activations (§13, §14) --------------------------------------------------------------------

def _activate(s: GameState, seat: int, cmd: Command, events: list[Event]) -> None:
    plank = cmd[1]
    args = cmd[2:]
    p = s.players[seat]
    p.waiting.remove(plank)
    events.append(("activate", seat, plank, args))
    if plank >= CARD_PLANK:
        c = plank - CARD_PLANK
        del s.card_plank[c]
        t = s.types[c]
        if t == TOWER:
            if args:
                place_gnome(s, seat, args[1], args[2], events)
        elif t == INN:
            if args:
                gain_worker(s, seat, args[0] == "elf", events)
        elif t == BLACKSMITH:
            p.res[METAL] += s.rs.blacksmith_metal
        elif t == MARKET:
            p.res[GOLD] += s.rs.market_gold
        elif t == LIBRARY:
            draw_to_hand(s, seat, s.rs.library_draw, events)
            _start_discard(s, seat, s.rs.library_discard, "library")
        return
    g = plank - GUILD_PLANK
    s.guild_plank[s.guilds.index(g)] = NOBODY
    rs = s.rs
    if g == MERCHANTS:
        s.t_exchanges += rs.merchants_exchanges
        s.t_visits += rs.merchants_extra_visits
    elif g == LIBRARIANS:
        draw_to_hand(s, seat, rs.librarians_draw, events)
        _start_discard(s, seat, rs.librarians_discard, "librarians")
    elif g == ARCHITECTS:
        if args:
            site, code = args
            cost = architect_cost(s, site)
            dw, ds, dm = rs.discounts[code]
            _pay(p, (cost[WOOD] - dw, cost[STONE] - ds, cost[METAL] - dm, cost[GOLD]))
            s.board[site] = seat
            events.append(("architects", seat, site))
    elif g == RECRUITERS:
        if args:
            if args[0] == "gnome":
                place_gnome(s, seat, args[1], args[2], events)
            else:
                gain_worker(s, seat, args[0] == "elf", events)
    elif g in (SAWYERS, MINERS, BANKERS, MASONS):
        y = rs.guild_yield[g]
        for i in range(4):
            p.res[i] += y[i]
    elif g == THIEVES:
        if args:
            if args[0] == "from":
                victim = s.players[args[1]]
                take = min(rs.thieves_one, victim.res[GOLD])
                _transfer(s, args[1], seat, 3, take, events)
            else:
                for q in args[1:]:
                    take = min(rs.thieves_each, s.players[q].res[GOLD])
                    _transfer(s, q, seat, 3, take, events)
    elif g == BANDITS:
        if args:
            if args[0] == "from" and args[2:] == (2,):     # metal, up to bandits_metal
                victim = args[1]
                take = min(rs.bandits_metal, s.players[victim].res[METAL])
                _transfer(s, victim, seat, 2, take, events)
            elif args[0] == "from":                         # one unit of wood/stone each
                for r in args[2:]:
                    _transfer(s, args[1], seat, r, 1, events)
            else:
                rest = args[1:]
                for i in range(0, len(rest), 2):
                    q, r = rest[i], rest[i + 1]
                    take = min(rs.bandits_each, s.players[q].res[r])
                    _transfer(s, q, seat, r, take, events)
    elif g == WIZARDS:
        if args:
            a, b, ra, rb = args
            _wizards(s, a, b, ra, rb, events)
    elif g == SPIES:
        others = [q for q in range(s.n) if q != seat and s.players[q].hand]
        if others:
            s.step = STEP_SPIES_SHOW
            s.spy = seat
            s.spies_waiting = others
            s.spies_shown = {}


def _transfer(s: GameState, src: int, dst: int, r: int, amount: int, events: list[Event]) -> None:
    if amount > 0:
        s.players[src].res[r] -= amount
        s.players[dst].res[r] += amount
        events.append(("steal", dst, src, r, amount))


def _wizards(s: GameState, a: int, b: int, ra: int, rb: int, events: list[Event]) -> None:
    board = s.board
    if a >= GATE_BASE:
        ma = (board[a], board[a + 1])
        mb = (board[b], board[b + 1])
        board[a], board[a + 1] = received(mb, a, ra)
        board[b], board[b + 1] = received(ma, b, rb)
    else:
        board[a], board[b] = board[b], board[a]
    events.append(("swap", a, b))


_EXECUTE = {
    "keep": _keep, "np-dwarf": _np_dwarf, "place": _place, "pass": _pass, "spread": _spread,
    "crest": _crest, "build": _build, "wall": _wall, "guild": _guild, "buy": _buy,
    "sell": _sell, "exchange": _exchange, "hire": _hire, "bank": _bank, "smith": _smith,
    "buy-card": _buy_card, "end": _end, "discard": _discard, "show": _show, "take": _take,
    "np-take": _np_take, "np-mark": _np_mark, "np-skip": _np_skip, "activate": _activate,
}
