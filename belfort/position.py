"""Setting up a position (puzzles, tests, tutorials): `set_up(position)` builds a game at the
start of a round's Placement or of its Actions phase from a plain description, checking
that it is one the rules can reach in kind — card counts, symbols, locks, workers — and
refusing it with a `PositionError` naming the field otherwise. See docs/engine.md.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .data import (CARD_TYPE_ID, CARD_TYPES, GUILD_ID, N_SITES, NOBODY, RESOURCES, SITE_ID,
                   SITE_NAME, SITE_TYPE)
from .flow import start_round, start_turn
from .game import SetupError, new_game
from .prng import Prng
from .ruleset import Ruleset, standard_ruleset
from .state import ACTIONS, PLACEMENT, STEP_NONE

if TYPE_CHECKING:
    from .ruleset import Ruleset
    from .state import GameState

PHASES = (PLACEMENT, ACTIONS)
_PLAYER_FIELDS = {"name", "crest", "score", "elves", "dwarves", "hand", "built"} | set(RESOURCES)
_FIELDS = {"players", "guilds", "np_dwarves", "board", "round", "phase", "pool", "discard",
           "deck", "seed"}


class PositionError(SetupError):
    """A position that cannot be set up; `.field` names the part at fault."""

    def __init__(self, field: str, reason: str) -> None:
        self.field = field
        self.reason = reason
        super().__init__(f"position {field}: {reason}")


def set_up(position: dict[str, Any], ruleset: Ruleset | None = None) -> GameState:
    """A new local game in the described position (see docs/engine.md, "Setting up a
    position"). Raises PositionError naming the field when the position is inconsistent."""
    rs = ruleset if ruleset is not None else standard_ruleset()
    if not isinstance(rs, Ruleset):
        raise PositionError("ruleset", "expected a Ruleset (see belfort.load_ruleset)")
    if not isinstance(position, dict):
        raise PositionError("(position)", "expected a dict")
    for key in position:
        if key not in _FIELDS:
            raise PositionError(str(key), f"unknown field; fields are {', '.join(sorted(_FIELDS))}")
    players = _list(position.get("players"), "players")
    n = len(players)
    if not 2 <= n <= 5:
        raise PositionError("players", f"Belfort is for 2 to 5 players, not {n} (§1)")
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            raise PositionError(f"players[{i}]", "expected a dict")
        for key in p:
            if key not in _PLAYER_FIELDS:
                raise PositionError(f"players[{i}].{key}", "unknown field")
    names = [p.get("name", f"Player {i + 1}") for i, p in enumerate(players)]
    crests = [p.get("crest", i + 1) for i, p in enumerate(players)]
    seed = position.get("seed", "position")
    if "guilds" not in position:
        raise PositionError("guilds", "name the five guilds, district 0 first")
    try:
        s = new_game(names, {"guilds": list(_list(position["guilds"], "guilds")),
                             "crests": crests}, seed=seed, ruleset=rs)
    except PositionError:
        raise
    except SetupError as exc:
        field = "guilds" if "guild" in str(exc) else "players" if "crest" not in str(exc) \
            else "players[].crest"
        raise PositionError(field, str(exc)) from None

    rnd = _int(position.get("round", 1), "round", 1, rs.rounds)
    phase = position.get("phase", PLACEMENT)
    if phase not in PHASES:
        raise PositionError("phase", f"expected {' or '.join(PHASES)}, got {phase!r}")

    # Cards: every card of the deck is somewhere; ids are given in this order.
    left = {t: rs.cards_per_type for t in range(len(CARD_TYPES))}
    types: list[int] = []

    def take(name: object, field: str) -> int:
        t = _card_type(name, field)
        if left[t] == 0:
            raise PositionError(field, f"more than the {rs.cards_per_type} {name} cards there "
                                       "are (§1)")
        left[t] -= 1
        types.append(t)
        return len(types) - 1

    board = [NOBODY] * N_SITES
    competitors = n + (2 if n == 2 else 0)
    gnomes = {}
    gatehouses = set()     # gatehouses (by their first symbol) holding a gatehouse card
    for seat, spec in enumerate(players):
        where = f"players[{seat}]"
        p = s.players[seat]
        p.res = [_int(spec.get(r, rs.start[i]), f"{where}.{r}", 0, 10**4)
                 for i, r in enumerate(RESOURCES)]
        p.score = _int(spec.get("score", 0), f"{where}.score", 0, 10**4)
        p.elves = _int(spec.get("elves", rs.workers_start), f"{where}.elves", 0,
                       rs.workers_per_colour)
        p.dwarves = _int(spec.get("dwarves", rs.workers_start), f"{where}.dwarves", 0,
                         rs.workers_per_colour)
        p.hand = [take(t, f"{where}.hand[{i}]")
                  for i, t in enumerate(_list(spec.get("hand", []), f"{where}.hand"))]
        p.built = []
        for i, b in enumerate(_list(spec.get("built", []), f"{where}.built")):
            bw = f"{where}.built[{i}]"
            if not isinstance(b, dict) or set(b) - {"type", "site", "gnomes"}:
                raise PositionError(bw, "expected {'type': ..., 'site': ..., 'gnomes': ...}")
            c = take(b.get("type"), bw + ".type")
            site = _site(b.get("site"), bw + ".site")
            t = types[c]
            if SITE_TYPE[site] != t:
                raise PositionError(bw + ".site", f"{SITE_NAME[site]} is not a "
                                                  f"{CARD_TYPES[t]} symbol (§2)")
            _mark(board, site, seat, bw + ".site")
            if t == CARD_TYPE_ID["gatehouse"]:
                if site & ~1 in gatehouses:
                    raise PositionError(bw + ".site", "two gatehouse cards on one gatehouse "
                                                      "(§8: built where both symbols are free)")
                gatehouses.add(site & ~1)
            s.owner[c] = seat
            k = _int(b.get("gnomes", 0), bw + ".gnomes", 0, rs.locks[t])
            if k:
                gnomes[c] = k
            p.built.append(c)
    if sum(gnomes.values()) > rs.gnomes[n]:
        raise PositionError("players[].built[].gnomes", f"{sum(gnomes.values())} gnomes, but "
                                                        f"the supply has {rs.gnomes[n]} (§1)")

    extra = position.get("board", {})
    if not isinstance(extra, dict):
        raise PositionError("board", "expected {symbol: seat}")
    for name, owner in extra.items():
        field = f"board[{name!r}]"
        site = _site(name, field)
        _mark(board, site, _int(owner, field, 0, competitors - 1), field)

    pool = [take(t, f"pool[{i}]") for i, t in
            enumerate(_list(position.get("pool", []), "pool"))] if "pool" in position else None
    discard = [take(t, f"discard[{i}]")
               for i, t in enumerate(_list(position.get("discard", []), "discard"))]
    top = [take(t, f"deck[{i}]") for i, t in enumerate(_list(position.get("deck", []), "deck"))]
    rest = [t for t in range(len(CARD_TYPES)) for _ in range(left[t])]
    Prng(s.seed, "position-deck").shuffle(rest)
    for t in rest:
        types.append(t)
    draw = top + list(range(len(types) - len(rest), len(types)))
    if pool is None:
        pool, draw = draw[:rs.pool_size], draw[rs.pool_size:]
    elif len(pool) > rs.pool_size:
        raise PositionError("pool", f"the pool holds at most {rs.pool_size} cards (§15)")
    elif len(pool) < rs.pool_size and draw:
        raise PositionError("pool", f"the pool is refilled to {rs.pool_size} while the draw "
                                    "pile has cards (§15)")

    s.types = list(types)
    s.public = [False] * len(types)
    for c in pool + discard:
        s.public[c] = True
    for p in s.players:
        for c in p.built:
            s.public[c] = True
    s.pool, s.discard = pool, discard
    s.draw = draw[::-1]                  # stored with the top at the end
    s.next_id = len(types)
    s.board = board
    s.gnomes = gnomes
    s.gnome_supply = rs.gnomes[n] - sum(gnomes.values())
    s.keep_choice = {}

    if n == 2:
        nps = _list(position.get("np_dwarves"), "np_dwarves")
        if len(nps) != 2 or len(set(nps)) != 2:
            raise PositionError("np_dwarves", "two different guilds: NP3's dwarf and NP4's "
                                              "(§12)")
        s.np_dwarf = []
        for i, g in enumerate(nps):
            if g not in GUILD_ID or GUILD_ID[g] not in s.guilds:
                raise PositionError(f"np_dwarves[{i}]", f"{g!r} is not a guild of this game")
            s.np_dwarf.append(s.guilds.index(GUILD_ID[g]))
    elif "np_dwarves" in position:
        raise PositionError("np_dwarves", "only a 2-player game has non-players (§12)")

    s.round = rnd - 1
    start_round(s, [])
    if phase == ACTIONS:
        s.phase, s.step, s.turn = ACTIONS, STEP_NONE, 0
        start_turn(s, s.order[0])
    s.version = 0
    s.changed()
    return s


def _mark(board: list[int], site: int, owner: int, field: str) -> None:
    if board[site] != NOBODY:
        raise PositionError(field, f"{SITE_NAME[site]} is marked twice")
    board[site] = owner


def _list(value: object, field: str) -> Sequence[Any]:
    if not isinstance(value, (list, tuple)):
        raise PositionError(field, f"expected a list, got {value!r}")
    return value


def _int(value: object, field: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PositionError(field, f"expected an integer from {low} to {high}, got {value!r}")
    return value


def _card_type(name: object, field: str) -> int:
    if not isinstance(name, str) or name not in CARD_TYPE_ID:
        raise PositionError(field, f"unknown card type {name!r}; types are "
                                   f"{', '.join(CARD_TYPES)}")
    return CARD_TYPE_ID[name]


def _site(name: object, field: str) -> int:
    if not isinstance(name, str) or name not in SITE_ID:
        raise PositionError(field, f"unknown symbol {name!r}; symbols look like tower@3, "
                                   "keep@1, wall@2a, guild@4, gate4@0")
    return SITE_ID[name]


__all__ = ["set_up", "PositionError", "PHASES"]
