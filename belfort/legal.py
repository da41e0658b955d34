"""`legal_commands(state, seat)`: the single source of truth for what may be done (§3–§14),
and `check_legal`, which holds a command against it.

Commands are plain tuples `(verb, *args)` of strings and ints (see `commands.py` for the
text form). The client's completion, the bots and the network all use this list, and
`apply` / `execute` accept exactly its members. When a command is refused, `explain.py`
says why afterwards; it never decides legality itself.

The list is cached on the state (`state._legal`) for its version and seat. Whoever changes
a state's fields other than through the engine must call `state.changed()`, which drops it.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from .commands import command_text, normalize
from .data import (BANK, BANKERS, BLACKSMITH, CAMP, CARD_PLANK, CARD_TYPES, DESK, DISTRICTS,
                   GUILD_PLANK, GUILD_SITES, GUILDS, HAS_PLANK, LIBRARIANS, MASONS, MERCHANTS,
                   MINERS, N_SITES, NOBODY, PLANK_BEHIND_LOCK, SAWYERS, SITE_TYPE, SPIES,
                   WALL_SITES)
from .data import GOLD
from .errors import BelfortError, IllegalCommandError
from .explain import why_illegal
from .state import (ACTIONS, CAMP as PH_CAMP, KEEP as PH_KEEP, NP_SETUP, NP_TURN, OVER,
                    PLACEMENT, STEP_DISCARD, STEP_NONE, STEP_NP_MARK, STEP_NP_TAKE,
                    STEP_SPIES_SHOW, STEP_SPIES_TAKE, STEP_SPREAD)
# architect_*, discount_options and gatehouse_second_markers are re-exported for the bots.
from .targets import (activation_options, architect_cost,  # noqa: F401
                      architect_sites, discount_options, free_build_sites,
                      gatehouse_second_markers, gnome_targets, resource_caps)

if TYPE_CHECKING:
    from .commands import Command
    from .ruleset import Ruleset
    from .state import GameState

    # The legal commands of one decision.
    Generator = Callable[[GameState, int], list[Command]]
    # What a holding of (wood, stone, metal, gold) pays for (see _paying).
    Paying = tuple[frozenset[int], bool, tuple[bool, ...], tuple[Command, ...],
                   tuple[Command, ...], tuple[Command, ...], bool, bool, bool]
    # (district, guild site, guild id, `guild` command, guild plank)
    GuildRow = tuple[int, int, int, Command, int]
    # A claim of a command about a card's type, (card, type), as the command gives them.
    Claim = tuple[Any, Any]

_T = TypeVar("_T")


def legal_commands(state: GameState, seat: int) -> list[Command]:
    """Every command `seat` may give now, in a fixed order. Empty when it is not their turn."""
    cache = state._legal
    if cache is not None and cache[0] == state.version and cache[1] == seat:
        return cache[2]
    # Is it `seat`'s decision? (state.waiting_for() without building its list.) The usual
    # case first: the current seat, outside the simultaneous steps (where `current` is not
    # the one deciding) and the game's end (no generator).
    phase, step = state.phase, state.step
    if seat == state.current and phase != PH_KEEP and step != STEP_SPIES_SHOW \
            and not state.reveal_queue:
        generate = _GENERATORS.get((phase, step))
    else:
        generate = _simultaneous_generator(state, seat)
    cmds = generate(state, seat) if generate is not None else []
    state._legal = (state.version, seat, cmds)
    return cmds


def _simultaneous_generator(state: GameState, seat: int) -> Generator | None:
    """The generator of `seat`'s decision in the keep-3 choice or the Spies' showing (where
    several seats decide at once), or None when `seat` has no decision to make."""
    if state.reveal_queue:
        return None
    if state.phase == PH_KEEP:
        ours = type(seat) is int and 0 <= seat < state.n and seat not in state.keep_choice
    elif state.step == STEP_SPIES_SHOW:
        ours = seat in state.spies_waiting and seat not in state.spies_shown
    else:
        return None
    return _GENERATORS.get((state.phase, state.step)) if ours else None


# --- checking a command ---------------------------------------------------------------------

def check_legal(s: GameState, command: object,
                seat: int | None = None) -> tuple[Command, int]:
    """Raise CommandSyntaxError or IllegalCommandError unless `command` is legal now for
    `seat` (default: the only seat the game waits for). Returns (normalized command, seat),
    which `execute` carries out without checking again. The state is left unchanged."""
    if seat is None:
        waiting = s.waiting_for()
        seat = waiting[0] if len(waiting) == 1 else None
    if type(command) is tuple and type(seat) is int:
        found = listed(s, command, seat)
        if found is not None:
            return found, seat
    cmd = normalize(command)
    if seat is not None and (type(seat) is not int or not 0 <= seat < s.n):
        raise IllegalCommandError(command_text(cmd), seat, "§1",
                                  f"there is no seat {seat!r} in a {s.n}-player game", where(s))
    undo = apply_claims(s, cmd, seat)
    if undo:
        s.changed()   # §15: the claimed types change what is legal; drop a stale list
    try:
        if undo is not None and seat is not None:
            cmds = legal_commands(s, seat)
            if cmd in cmds:
                return cmds[cmds.index(cmd)], seat
        rule, reason = why_illegal(s, cmd, seat, impossible_claim=undo is None)
        raise IllegalCommandError(command_text(cmd), seat, rule, reason, where(s))
    finally:
        if undo:
            for c in undo:
                s.types[c] = None
            s.changed()


def listed(s: GameState, command: object, seat: int) -> Command | None:
    """The engine's own tuple `command` when it is in the cached legal list of `seat` for
    this version (the usual case: a command picked from `legal_commands`), else None.
    Identity, not equality: ("place", True, 0) == ("place", 1, 0) in Python, and such a
    value must go through `normalize`."""
    cache = s._legal
    if cache is None or cache[1] != seat or cache[0] != s.version:
        return None
    for cmd in cache[2]:
        if cmd is command:
            return command
    return None


def is_legal(state: GameState, command: object, seat: int | None = None) -> bool:
    """True when `check_legal` accepts the command. Only the engine's own errors mean
    'not legal'; any other exception is a fault and is not hidden."""
    try:
        check_legal(state, command, seat)
    except BelfortError:
        return False
    return True


def where(s: GameState) -> str:
    """Where the game stands, for error messages: 'round 3, actions/discard'."""
    if s.phase == OVER:
        return "game over"
    return f"round {s.round}, {s.phase}" + (f"/{s.step}" if s.step else "")


# --- claims: hand cards a command names with their type (§15) --------------------------------

CLAIM_VERBS = frozenset(("build", "discard", "show", "keep"))


def command_claims(cmd: Command) -> list[Claim]:
    """The (card, type) pairs a normalized command asserts about cards in the actor's hand:
    `keep` its dropped cards, `build` the card (its type is the symbol's), `discard` and
    `show` the card. [] for a command of any other shape (legality is decided elsewhere).
    The network layer checks these against the deck before accepting a command."""
    verb = cmd[0] if isinstance(cmd, tuple) and cmd else None
    if verb not in CLAIM_VERBS or len(cmd) != 3:
        return []
    a, b = cmd[1], cmd[2]
    if verb == "build":
        if type(b) is int and 0 <= b < len(SITE_TYPE) and type(SITE_TYPE[b]) is int:
            return [(a, SITE_TYPE[b])]
        return []
    if verb == "keep":
        if type(b) is tuple and len(b) % 2 == 0:
            return [(b[i], b[i + 1]) for i in range(0, len(b), 2)]
        return []
    return [(a, b)]


def unknown_claims(s: GameState, cmd: Command, seat: int) -> list[Claim]:
    """The claims of `cmd` about cards of `seat`'s hand whose type this engine does not
    know (another seat's hidden cards in a networked game): what a peer must see proven
    before it accepts the command."""
    if type(seat) is not int or not 0 <= seat < s.n:
        return []
    hand, types = s.players[seat].hand, s.types
    return [(c, t) for c, t in command_claims(cmd) if c in hand and types[c] is None]


def apply_claims(s: GameState, cmd: Command, seat: int | None) -> list[int] | None:
    """Give this engine the types `cmd` claims for `seat`'s unknown hand cards. Returns the
    cards changed (for the caller to undo), or None when a claim is impossible (nothing
    changed then). A cached legal list is dropped when a type was given: the claimed types
    change what is legal, so `legal_commands` afterwards lists with them."""
    if cmd[0] not in CLAIM_VERBS or seat is None:
        return []
    undo: list[int] = []
    for card, t in unknown_claims(s, cmd, seat):
        if type(t) is not int or not 0 <= t < len(CARD_TYPES) or \
                known_count(s, t) >= s.rs.cards_per_type:
            for c in undo:
                s.types[c] = None
            return None
        s.types[card] = t
        undo.append(card)
    if undo:
        s.changed()
    return undo


def known_count(s: GameState, t: int) -> int:
    """How many live cards this engine already knows to be of type t."""
    types = s.types
    count = 0
    for pile in (s.draw, s.pool, s.discard):
        count += sum(1 for c in pile if types[c] == t)
    for p in s.players:
        count += sum(1 for c in p.hand if types[c] == t)
        count += sum(1 for c in p.built if types[c] == t)
    if s.np_card != NOBODY and types[s.np_card] == t and s.np_card not in s.discard:
        count += 1
    return count


# --- the generators, one per decision --------------------------------------------------------

def _keeps(s: GameState, seat: int) -> list[Command]:
    hand = sorted(s.players[seat].hand)
    keep = s.rs.keep
    if keep > len(hand):
        return []
    types = s.types
    out = []
    # The cards dropped with each kept choice, in hand order: combinations of the others,
    # which come in the reverse order of the kept ones (the complement of the i-th
    # combination of k cards is the i-th from last of n - k).
    drops = list(combinations(hand, len(hand) - keep))
    drops.reverse()
    for kept, drop in zip(combinations(hand, keep), drops):
        dropped: list[int] = []
        for c in drop:
            t = types[c]
            if t is None:
                break
            dropped += (c, t)
        else:
            out.append(("keep", kept, tuple(dropped)))
    return out


def _np_dwarves(s: GameState, seat: int) -> list[Command]:
    taken = s.np_dwarf
    return [("np-dwarf", s.guilds[d]) for d in range(DISTRICTS) if d not in taken]


def _placements(s: GameState, seat: int) -> list[Command]:
    """§6: one worker on a free plank, or pass."""
    p = s.players[seat]
    placed = p.placed
    # s.unplaced(seat), written out (a placement is a third of all decisions)
    me, md = s.masters(seat) if p.built and s.gnomes else (0, 0)
    kinds: Sequence[int]
    if not (me or md):   # no masters (the usual case): elves and dwarves only
        if p.elves > placed[0]:
            kinds = _ELF_DWARF if p.dwarves > placed[2] else _ELF
        else:
            kinds = _DWARF if p.dwarves > placed[2] else ()
    else:
        kinds = []
        if p.elves - me > placed[0]:
            kinds.append(0)
        if me > placed[1]:
            kinds.append(1)
        if p.dwarves - md > placed[2]:
            kinds.append(2)
        if md > placed[3]:
            kinds.append(3)
    if not kinds:
        return [_PASS]
    rs = s.rs
    gold = p.res[GOLD]
    planks = []
    if gold >= rs.fee_recruiter_desk and NOBODY in s.desk:
        planks.append(DESK)
    if not p.camp_used and NOBODY in s.camp:
        planks.append(CAMP)
    # (Loops rather than comprehensions here and below: over a few items a comprehension
    # costs more to set up than it saves.)
    guild_plank, np_dwarf = s.guild_plank, s.np_dwarf
    rows = _GUILD_ROWS.get(s.guilds) or _guild_rows(s.guilds)
    if gold >= rs.fee_guild_plank:
        for d, _, _, _, plank in rows:
            if guild_plank[d] == NOBODY and d not in np_dwarf:
                planks.append(plank)
    else:   # only the guilds the seat owns are free of the fee
        board = s.board
        for d, x, _, _, plank in rows:
            if guild_plank[d] == NOBODY and d not in np_dwarf and board[x] == seat:
                planks.append(plank)
    if p.built:
        types, gnomes, card_plank = s.types, s.gnomes, s.card_plank
        locked_ok = gold >= rs.fee_property_plank
        for c in p.built:
            t = types[c]
            if t in HAS_PLANK and c not in card_plank:
                if t in PLANK_BEHIND_LOCK and not (locked_ok and gnomes.get(c)):
                    continue
                planks.append(CARD_PLANK + c)
    out = []
    for k in kinds:
        for pl in planks:
            out.append(("place", k, pl))
    out.append(_PASS)
    return out


_ELF_DWARF, _ELF, _DWARF = (0, 2), (0,), (2,)


def _spread(s: GameState, seat: int) -> list[Command]:
    """§6 after passing: every remaining worker of one kind over its three areas."""
    kind = s.spread_kinds[0]
    p = s.players[seat]
    if p.built and s.gnomes:
        total = s.unplaced(seat)[kind]
    else:   # no masters: s.unplaced(seat)[kind], written out
        total = (p.elves, 0, p.dwarves, 0)[kind] - p.placed[kind]
    by_total = _SPREADS[kind]
    spreads = by_total.get(total)
    if spreads is None:
        spreads = by_total[total] = tuple(
            ("spread", kind, a, b, total - a - b)
            for a in range(total, -1, -1) for b in range(total - a, -1, -1))
    return list(spreads)


# Commands are immutable tuples, so those with few possible arguments are made once and
# shared by every list (the spreads: by kind, then number of workers, filled as met).
_SPREADS: tuple[dict[int, tuple[Command, ...]], ...] = ({}, {}, {}, {})
_PASS: Command = ("pass",)
_END: Command = ("end",)
_BUY_TOP: Command = ("buy-card", NOBODY)
_CRESTS: tuple[Command, ...] = tuple(("crest", k) for k in range(8))
_WALLS: tuple[Command | None, ...] = tuple(("wall", x) if x in WALL_SITES else None
                                           for x in range(N_SITES))
_GUILDS: tuple[Command, ...] = tuple(("guild", g) for g in range(len(GUILDS)))
_BUYS: tuple[Command, ...] = tuple(("buy", r) for r in range(3))
_SELLS: tuple[Command, ...] = tuple(("sell", r) for r in range(3))
_EXCHANGES: tuple[Command, ...] = (("exchange", 0), ("exchange", 1))
# The guild planks whose activation has no choice (activation_options gives the bare command).
_BARE_ACTIVATIONS: dict[int, Command] = {GUILD_PLANK + g: ("activate", GUILD_PLANK + g)
                     for g in (MERCHANTS, LIBRARIANS, SAWYERS, MINERS, BANKERS, MASONS, SPIES)}


def _crests(s: GameState, seat: int) -> list[Command]:
    down = s.crest_down
    out = []
    for k in range(1, s.n + 1):
        if not down[k]:
            out.append(_CRESTS[k])
    return out


def _actions(s: GameState, seat: int) -> list[Command]:
    """§8, §13, §14: one action of the Actions turn."""
    p = s.players[seat]
    # What the seat can pay for depends on its resources alone (given the ruleset): looked
    # up once in the ruleset's table instead of comparing costs command by command.
    rs = s.rs
    w, st, m, gold = p.res
    try:
        paying = _PAYING[rs][w][st][m][gold]
    except (KeyError, IndexError):   # a new ruleset, or a resource past the table's span
        paying = _paying_capped(rs, p.res)
    affordable, walls, guilds_paid, buys, sells, exchanges, can_hire, can_smith, can_buy_card = \
        paying
    out: list[Command] = []
    waiting = p.waiting
    if len(waiting) == 1:
        plank = waiting[0]
        bare = _BARE_ACTIVATIONS.get(plank)
        out = [bare] if bare else activation_options(s, seat, plank)[:]
    elif waiting:
        seen = []
        for plank in waiting:
            if plank not in seen:
                seen.append(plank)
                bare = _BARE_ACTIVATIONS.get(plank)
                if bare:
                    out.append(bare)
                else:
                    out += activation_options(s, seat, plank)
    board = s.board
    types = s.types
    if affordable:
        free: dict[int, list[int]] = {}
        for c in p.hand:
            t = types[c]
            if t in affordable:
                sites = free.get(t)
                if sites is None:
                    sites = free[t] = free_build_sites(board, t)
                for x in sites:
                    out.append(("build", c, x))
    if walls:
        # A wall site's entry is its command.
        out += [_WALLS[x] for x in WALL_SITES if board[x] == NOBODY]  # type: ignore[misc]
    if guilds_paid:
        for _, x, g, cmd, _ in _GUILD_ROWS.get(s.guilds) or _guild_rows(s.guilds):
            if board[x] == NOBODY and guilds_paid[g]:
                out.append(cmd)
    visits = s.t_visits
    if s.t_buys < visits:
        out += buys
    if s.t_sells < visits:
        out += sells
    if s.t_exchanges > 0:
        out += exchanges
    if can_hire and not s.t_hired and s.gnome_supply > 0:
        out += gnome_targets(s, seat, "hire")
    gnomes = s.gnomes
    if gnomes:
        for c in p.built:
            if gnomes.get(c):
                t = types[c]
                if t == BANK:
                    if c not in s.t_banks:
                        out.append(("bank", c))
                elif t == BLACKSMITH:
                    if can_smith and c not in s.smith_used:
                        out.append(("smith", c))
    if not waiting:
        out.append(_END)
        if can_buy_card:
            for c in s.pool:
                out.append(("buy-card", c))
            if s.draw or s.discard:
                out.append(_BUY_TOP)
    return out


# ruleset -> what each holding pays for, as nested lists: _PAYING[rs][wood][stone][metal]
# [gold]. A player holding more of a resource than any price asks (the ruleset's cap) pays for
# nothing more, so past its cap each level repeats the cap's entry, up to _PAYING_SPAN - 1 of
# each resource; a larger holding is capped first (_paying_capped). Worked out in full when a
# ruleset is first met (with the standard caps, 300 holdings); rulesets are not changed once
# read, so an entry never goes stale. A ruleset whose caps reach the span gets an empty table
# and every holding goes through _paying_capped. (Resources are never negative.)
_PAYING: dict[Ruleset, list[list[list[list[Paying]]]]] = {}
_PAYING_SPAN = 32


def _paying_capped(rs: Ruleset, res: Sequence[int]) -> Paying:
    caps = resource_caps(rs)
    if rs not in _PAYING:
        _paying_table(rs, caps)
    return _paying_memo(rs, tuple(min(r, cap) for r, cap in zip(res, caps)))


@lru_cache(maxsize=4096)
def _paying_memo(rs: Ruleset, capped: tuple[int, ...]) -> Paying:
    """What a capped holding pays for (see _paying), once per ruleset and holding."""
    return _paying(rs, capped)


def _paying_table(rs: Ruleset, caps: tuple[int, ...]) -> None:
    if len(_PAYING) > 64:
        _PAYING.clear()
    if max(caps) >= _PAYING_SPAN:
        _PAYING[rs] = []
        return

    def level(cap: int, entry: Callable[[int], _T]) -> list[_T]:
        """The entries for 0..cap of a resource, then the cap's up to the span."""
        entries = [entry(k) for k in range(cap + 1)]
        return entries + [entries[cap]] * (_PAYING_SPAN - cap - 1)

    cw, cs, cm, cg = caps
    _PAYING[rs] = level(cw, lambda w: level(cs, lambda st: level(cm, lambda m: level(
        cg, lambda gold: _paying(rs, (w, st, m, gold))))))


def _paying(rs: Ruleset, res: Sequence[int]) -> Paying:
    """For `_actions`: the card types a player with `res` can build (a frozenset, empty when
    none), whether a wall is affordable, whether each guild (by id) is (empty when none is),
    the buy / sell / exchange commands, and whether the gold pays for a hire, a Blacksmith
    lock and a card purchase."""
    w, st, m, gold = res

    def pays(cost: tuple[int, ...]) -> bool:
        cw, cs, cm, cg = cost
        return w >= cw and st >= cs and m >= cm and gold >= cg

    bw, bs, bm = rs.trade_buy
    found = (
        frozenset(t for t, cost in enumerate(rs.card_cost) if pays(cost)),
        pays(rs.wall_cost),
        tuple(pays(cost) for cost in rs.guild_cost) if any(map(pays, rs.guild_cost)) else (),
        tuple(cmd for cmd, ok in zip(_BUYS, (gold >= bw, gold >= bs, gold >= bm)) if ok),
        tuple(cmd for cmd, ok in zip(_SELLS, (w >= 1, st >= 1, m >= 1)) if ok),
        tuple(cmd for cmd, ok in zip(_EXCHANGES, (w >= 1, st >= 1)) if ok),
        gold >= rs.fee_gnome_hire,
        gold >= rs.lock_blacksmith_gold,
        gold >= rs.fee_card_purchase,
    )
    return found


# guild layout -> for each district: (district, guild site, guild id, `guild` command, guild
# plank), for `_actions` and `_placements`. Made of the layout alone: never stale.
# Hand-rolled rather than functools.lru_cache: read at every Placement and Actions decision,
# and the inline `_GUILD_ROWS.get(guilds)` measured 133 ns against 224 ns for a call through
# lru_cache (timeit, Python 3.11, this project's machine).
_GUILD_ROWS: dict[tuple[int, ...], tuple[GuildRow, ...]] = {}


def _guild_rows(guilds: tuple[int, ...]) -> tuple[GuildRow, ...]:
    if len(_GUILD_ROWS) > 4096:
        _GUILD_ROWS.clear()
    rows = _GUILD_ROWS[guilds] = tuple((d, x, g, _GUILDS[g], GUILD_PLANK + g)
                                       for d, (x, g) in enumerate(zip(GUILD_SITES, guilds)))
    return rows


def _hand_cards(verb: str) -> Callable[[GameState, int], list[Command]]:
    def generate(s: GameState, seat: int) -> list[Command]:
        types = s.types
        out = []
        for c in sorted(s.players[seat].hand):
            if types[c] is not None:
                out.append((verb, c, types[c]))
        return out
    return generate


def _spy_takes(s: GameState, seat: int) -> list[Command]:
    return [("take", c) for c in sorted(s.spies_shown.values())]


# --- the non-players (§12) -------------------------------------------------------------------

def _np_takes(s: GameState, seat: int) -> list[Command]:
    board = s.board
    # The pool's cards are public: their types are known.
    placeable = [c for c in s.pool
                 if free_build_sites(board, s.types[c])]  # type: ignore[arg-type]
    offer = placeable if placeable else list(s.pool)
    out = [("np-take", c) for c in offer]
    if s.draw or s.discard:
        out.append(("np-take", NOBODY))
    return out or [("np-skip",)]  # nothing left anywhere: the NP does nothing


def _np_marks(s: GameState, seat: int) -> list[Command]:
    sites = free_build_sites(s.board, s.types[s.np_card])  # type: ignore[arg-type]  # public
    # §12 Decision: a card with no legal symbol places nothing and is discarded.
    return [("np-mark", x) for x in sites] or [("np-mark", NOBODY)]


# One generator per row of the decisions table (phases.DECISIONS), the game's end aside.
_GENERATORS = {
    (PH_KEEP, STEP_NONE): _keeps,
    (NP_SETUP, STEP_NONE): _np_dwarves,
    (PLACEMENT, STEP_NONE): _placements,
    (PLACEMENT, STEP_SPREAD): _spread,
    (PH_CAMP, STEP_NONE): _crests,
    (ACTIONS, STEP_NONE): _actions,
    (ACTIONS, STEP_DISCARD): _hand_cards("discard"),
    (ACTIONS, STEP_SPIES_SHOW): _hand_cards("show"),
    (ACTIONS, STEP_SPIES_TAKE): _spy_takes,
    (NP_TURN, STEP_NP_TAKE): _np_takes,
    (NP_TURN, STEP_NP_MARK): _np_marks,
}

__all__ = ["legal_commands", "check_legal", "is_legal", "command_claims", "unknown_claims",
           "apply_claims", "known_count", "where", "architect_cost", "architect_sites",
           "free_build_sites", "gatehouse_second_markers", "discount_options"]
