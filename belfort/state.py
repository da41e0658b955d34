"""The game state: plain mutable objects with slots, copied and serialized by hand.

A state holds every card as an id. `types[id]` is what *this* engine knows of the card's type
(None when unknown: another seat's hand, or the hidden draw pile of a networked game);
`public[id]` says whether the type is common knowledge (pool, discards, built, revealed).
Views and the state hash read only public types and the viewer's own hand, so they never
depend on what this engine happens to know.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from .data import GARDENS, N_SITES, NOBODY, PUB

if TYPE_CHECKING:
    from .commands import Command
    from .ruleset import Ruleset

# Phases (§4) and the steps inside them.
KEEP = "keep"              # §3.3 simultaneous keep-3
NP_SETUP = "np-setup"      # §12 NP dwarves onto guilds
PLACEMENT = "placement"    # §6
CAMP = "camp"              # §7.6 King's camp choices
ACTIONS = "actions"        # §8
NP_TURN = "np-turn"        # §12
OVER = "over"              # §11

# Steps inside a phase that wait for one seat's extra decision.
STEP_NONE = ""
STEP_SPREAD = "spread"          # §6 after passing
STEP_DISCARD = "discard"        # §8 hand limit, Librarians, Library
STEP_SPIES_SHOW = "spies-show"  # §14 Spies: others reveal (simultaneous)
STEP_SPIES_TAKE = "spies-take"  # §14 Spies: the spy takes one
STEP_NP_TAKE = "np-take"        # §12
STEP_NP_MARK = "np-mark"        # §12



# The phases where only the current seat decides (outside the Spies' simultaneous step).
_ONE_SEAT_PHASES = frozenset((NP_SETUP, PLACEMENT, CAMP, ACTIONS, NP_TURN))


class ScoreRecord(TypedDict):
    """One scoring phase (§10), as `scoring.score_phase` writes it and the state's score log
    keeps it; points by seat."""
    round: int
    districts: list[list[int]]
    elves: list[int]
    dwarves: list[int]
    gnomes: list[int]
    total: list[int]
    taxes_lost: NotRequired[list[int]]   # added by the flow: VP lost to taxes since


class Player:
    __slots__ = ("res", "score", "elves", "dwarves", "hand", "built", "placed", "waiting",
                 "camp_used", "passed", "taxes_lost")

    def __init__(self, start_res: Sequence[int], workers_start: int) -> None:
        self.res = list(start_res)          # wood, stone, metal, gold
        self.score = 0
        self.elves = workers_start          # in play (the rest are in the common reserve)
        self.dwarves = workers_start
        self.hand: list[int] = []                      # card ids
        self.built: list[int] = []                     # card ids, in building order
        self.placed = [0, 0, 0, 0]  # this round, by kind (elf, m-elf, dwarf, m-dwarf)
        self.waiting: list[int] = []  # planks with this player's worker to activate
        self.camp_used = False
        self.passed = False
        self.taxes_lost = 0                 # VP lost to unpaid tax, for the final breakdown

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.res = self.res[:]
        p.score = self.score
        p.elves = self.elves
        p.dwarves = self.dwarves
        p.hand = self.hand[:]
        p.built = self.built[:]
        p.placed = self.placed[:]
        p.waiting = self.waiting[:]
        p.camp_used = self.camp_used
        p.passed = self.passed
        p.taxes_lost = self.taxes_lost
        return p

    _FIELDS = ("res", "score", "elves", "dwarves", "hand", "built", "placed", "waiting",
               "camp_used", "passed", "taxes_lost")

    def to_dict(self) -> dict[str, list[int] | int | bool]:
        return {k: (list(v) if isinstance(v, list) else v)
                for k, v in ((f, getattr(self, f)) for f in self._FIELDS)}

    @classmethod
    def from_dict(cls, d: dict[str, list[int] | int | bool]) -> Player:
        p = cls.__new__(cls)
        for f in cls._FIELDS:
            v = d[f]
            setattr(p, f, list(v) if isinstance(v, list) else v)
        return p


class GameState:
    """Everything about one game. Mutated in place by `apply`; use `copy()` to branch."""

    __slots__ = (
        "rs", "n", "names", "seed", "options", "hidden",
        "phase", "step", "round", "turn", "current",
        "players", "crest", "crest_down", "order",
        "board", "guilds", "np_dwarf",
        "desk", "camp", "guild_plank", "card_plank", "area",
        "owner", "gnomes", "gnome_supply",
        "types", "public", "draw", "pool", "discard", "next_id", "epoch", "reveal_queue",
        "t_visits", "t_buys", "t_sells", "t_exchanges", "t_hired", "t_banks", "smith_used",
        "pending", "pending_reason", "spy", "spies_waiting", "spies_shown",
        "keep_choice", "spread_kinds", "camp_queue", "np_card", "np_index",
        "score_log", "result", "version", "_legal",
    )

    rs: Ruleset
    n: int
    names: tuple[str, ...]
    seed: bytes
    options: dict[str, Any]             # as given to new_game: str or tuple values (frozen)
    hidden: bool
    phase: str
    step: str
    round: int
    turn: int
    current: int
    players: list[Player]
    crest: list[int]
    crest_down: list[bool]
    order: list[int]
    board: list[int]
    guilds: tuple[int, ...]
    np_dwarf: list[int]
    desk: list[int]
    camp: list[int]
    guild_plank: list[int]
    card_plank: dict[int, int]
    area: list[list[int]]
    owner: dict[int, int]
    gnomes: dict[int, int]
    gnome_supply: int
    types: list[int | None]
    public: list[bool]
    draw: list[int]
    pool: list[int]
    discard: list[int]
    next_id: int
    epoch: int
    reveal_queue: list[int]
    t_visits: int
    t_buys: int
    t_sells: int
    t_exchanges: int
    t_hired: bool
    t_banks: list[int]
    smith_used: list[int]
    pending: int
    pending_reason: str
    spy: int
    spies_waiting: list[int]
    spies_shown: dict[int, int]
    keep_choice: dict[int, tuple[tuple[int, ...], tuple[Any, ...]]]
    spread_kinds: list[int]
    camp_queue: list[int]
    np_card: int
    np_index: int
    score_log: list[ScoreRecord]
    result: dict[str, Any] | None
    version: int
    _legal: tuple[int, int, list[Command]] | None

    def copy(self) -> GameState:
        s = GameState.__new__(GameState)
        s.rs = self.rs
        s.n = self.n
        s.names = self.names
        s.seed = self.seed
        s.options = self.options
        s.hidden = self.hidden
        s.phase = self.phase
        s.step = self.step
        s.round = self.round
        s.turn = self.turn
        s.current = self.current
        s.players = [p.copy() for p in self.players]
        s.crest = self.crest[:]
        s.crest_down = self.crest_down[:]
        s.order = self.order[:]
        s.board = self.board[:]
        s.guilds = self.guilds
        s.np_dwarf = self.np_dwarf[:]
        s.desk = self.desk[:]
        s.camp = self.camp[:]
        s.guild_plank = self.guild_plank[:]
        s.card_plank = dict(self.card_plank)
        s.area = [a[:] for a in self.area]
        s.owner = dict(self.owner)
        s.gnomes = dict(self.gnomes)
        s.gnome_supply = self.gnome_supply
        s.types = self.types[:]
        s.public = self.public[:]
        s.draw = self.draw[:]
        s.pool = self.pool[:]
        s.discard = self.discard[:]
        s.next_id = self.next_id
        s.epoch = self.epoch
        s.reveal_queue = self.reveal_queue[:]
        s.t_visits = self.t_visits
        s.t_buys = self.t_buys
        s.t_sells = self.t_sells
        s.t_exchanges = self.t_exchanges
        s.t_hired = self.t_hired
        s.t_banks = self.t_banks[:]
        s.smith_used = self.smith_used[:]
        s.pending = self.pending
        s.pending_reason = self.pending_reason
        s.spy = self.spy
        s.spies_waiting = self.spies_waiting[:]
        s.spies_shown = dict(self.spies_shown)
        s.keep_choice = dict(self.keep_choice)
        s.spread_kinds = self.spread_kinds[:]
        s.camp_queue = self.camp_queue[:]
        s.np_card = self.np_card
        s.np_index = self.np_index
        s.score_log = self.score_log  # append-only list of finished records; replaced, not mutated
        s.result = self.result
        s.version = self.version
        s.changed()
        return s

    def changed(self) -> None:
        """The one way to say "this state changed": drops every cache derived from its
        fields (today the legal-list cache, `_legal`), so the next question is answered from
        the fields. The engine calls it at every mutation; code that changes a state's fields
        by hand must call it too."""
        self._legal = None

    # --- small derived facts used everywhere -------------------------------------------
    def masters(self, seat: int) -> tuple[int, int]:
        """(master elves, master dwarves): §13 Decision, derived from Gardens/Pubs with a gnome."""
        p = self.players[seat]
        gardens = pubs = 0
        types, gnomes = self.types, self.gnomes
        for c in p.built:
            if gnomes.get(c):
                t = types[c]
                if t == GARDENS:
                    gardens += 1
                elif t == PUB:
                    pubs += 1
        if not (gardens or pubs):
            return 0, 0
        mm = self.rs.max_masters
        return min(gardens, p.elves, mm), min(pubs, p.dwarves, mm)

    def unplaced(self, seat: int) -> list[int]:
        """Unplaced workers this round by kind: [elf, master-elf, dwarf, master-dwarf]."""
        p = self.players[seat]
        pl = p.placed
        if p.built and self.gnomes:
            me, md = self.masters(seat)
            return [p.elves - me - pl[0], me - pl[1], p.dwarves - md - pl[2], md - pl[3]]
        return [p.elves - pl[0], -pl[1], p.dwarves - pl[2], -pl[3]]

    def guild_owner(self, district: int) -> int:
        return self.board[district * 12 + 11]

    def competitors(self) -> int:
        """Seats that hold markers: the players, plus NP3 and NP4 in a 2-player game (§12)."""
        return self.n + (2 if self.n == 2 else 0)

    def waiting_for(self) -> list[Any | int]:
        """The seats whose decision the game waits for now (several in simultaneous steps)."""
        if self.phase in _ONE_SEAT_PHASES and self.step != STEP_SPIES_SHOW \
                and not self.reveal_queue:
            return [self.current]   # the usual case, tested first
        if self.reveal_queue or self.phase == OVER:
            return []
        if self.phase == KEEP:
            return [s for s in range(self.n) if s not in self.keep_choice]
        if self.step == STEP_SPIES_SHOW:
            return [s for s in self.spies_waiting if s not in self.spies_shown]
        return [self.current]

    def is_over(self) -> bool:
        return self.phase == OVER

    def known_hand(self, seat: int) -> bool:
        return all(self.types[c] is not None for c in self.players[seat].hand)

    # --- serialization -----------------------------------------------------------------
    _PLAIN = ("n", "names", "hidden", "phase", "step", "round", "turn", "current",
              "crest", "crest_down", "order", "board", "guilds", "np_dwarf", "desk", "camp",
              "guild_plank", "area", "gnome_supply", "types", "draw", "pool", "discard",
              "next_id", "epoch", "reveal_queue", "t_visits", "t_buys", "t_sells",
              "t_exchanges", "t_hired", "t_banks", "smith_used", "pending", "pending_reason",
              "spy", "spies_waiting", "spread_kinds", "camp_queue", "np_card", "np_index",
              "score_log", "result", "version")
    _INT_MAPS = ("card_plank", "owner", "gnomes", "spies_shown")

    def to_dict(self) -> dict[str, Any]:
        """Everything this engine holds, as JSON-able plain data (lists, ints, strs, None)."""
        d = {k: _plain(getattr(self, k)) for k in self._PLAIN}
        d["format"] = 1
        d["ruleset"] = self.rs.raw
        d["seed"] = self.seed.hex()
        d["options"] = _plain(self.options)
        d["players"] = [p.to_dict() for p in self.players]
        d["public"] = [bool(x) for x in self.public]
        for k in self._INT_MAPS:
            d[k] = sorted([int(a), _plain(b)] for a, b in getattr(self, k).items())
        d["keep_choice"] = sorted([s, _plain(v)] for s, v in self.keep_choice.items())
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any], ruleset: Ruleset | None = None) -> GameState:
        from .ruleset import Ruleset
        if not isinstance(d, dict) or d.get("format") != 1:
            raise ValueError("not a serialized Belfort state (format 1)")
        s = cls.__new__(cls)
        s.rs = ruleset if ruleset is not None else Ruleset(d["ruleset"])
        for k in cls._PLAIN:
            setattr(s, k, _unplain(d[k]))
        s.names = tuple(d["names"])
        s.guilds = tuple(d["guilds"])
        s.seed = bytes.fromhex(d["seed"])
        s.options = _freeze(d["options"])
        s.players = [Player.from_dict(p) for p in d["players"]]
        s.public = [bool(x) for x in d["public"]]
        for k in cls._INT_MAPS:
            setattr(s, k, {a: _unplain(b) for a, b in d[k]})
        s.keep_choice = {a: _unplain(b) for a, b in d["keep_choice"]}
        s.score_log = list(d["score_log"])
        s.changed()
        return s


def _plain(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return v


def _unplain(v: Any) -> Any:   # JSON values
    # Lists stay lists; tuples inside commands-like values are restored where the engine
    # relies on them being hashable (keep choices, result).
    if isinstance(v, list):
        return [_unplain(x) for x in v]
    return v


def _freeze(v: Any) -> Any:   # JSON values
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return {k: _freeze(x) for k, x in v.items()}
    return v


def new_board() -> list[int]:
    return [NOBODY] * N_SITES
