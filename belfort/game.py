"""Creating a game (§3 Setup) and the setup steps before round 1."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .data import (CARD_TYPE_ID, CARD_TYPES, CATEGORIES, DISTRICTS, GUILD_ID, GUILDS, NOBODY,
                   WIZARDS)
from .errors import BelfortError
from .flow import compute_order, refill_pool, start_round
from .prng import Prng
from .ruleset import Ruleset, standard_ruleset
from .state import (KEEP, NP_SETUP, GameState, Player, STEP_NONE, new_board)

if TYPE_CHECKING:
    from .commands import Event
    from .ruleset import Ruleset
    from .state import GameState


class SetupError(BelfortError, ValueError):
    """Game options that cannot start a game."""


GUILD_MODES = ("beginner", "normal", "advanced")


def new_game(seats: Sequence[str] | int, options: Mapping[str, Any] | None = None,
             seed: bytes | str | int = b"", ruleset: Ruleset | None = None,
             deck: Sequence[str | int] | None = None, hidden: bool = False) -> GameState:
    """A new game, set up as §3 says, waiting for the players' keep-3 choices.

    seats    number of players (2–5) or a list of their names
    options  {"guilds": "beginner" | "normal" | "advanced" | [five guild names],
              "crests": [crest of seat 0, ...]}  (crests: for scenarios; default random)
    seed     bytes, str or int: the shared seed for public random choices (guilds, crests,
             and in a local game the deck order)
    ruleset  a Ruleset (default: the standard one shipped with the game)
    deck     for tests and scenarios: the 50 card types from the top of the deck down
    hidden   True in a networked game: card types are unknown until revealed or learned
    """
    rs = ruleset if ruleset is not None else standard_ruleset()
    if not isinstance(rs, Ruleset):
        raise SetupError("ruleset must be a Ruleset (see belfort.load_ruleset)")
    if isinstance(seats, bool):
        raise SetupError("seats is a number of players or a list of their names")
    if isinstance(seats, int):
        names = tuple(f"Player {i + 1}" for i in range(seats))
    else:
        names = tuple(seats)
        if not all(isinstance(x, str) and x.strip() for x in names):
            raise SetupError("seat names must be non-empty strings")
    n = len(names)
    if not 2 <= n <= 5:
        raise SetupError(f"Belfort is for 2 to 5 players, not {n} (§1)")
    if isinstance(seed, int) and not isinstance(seed, bool):
        seed = str(seed).encode()
    elif isinstance(seed, str):
        seed = seed.encode()
    elif not isinstance(seed, bytes):
        raise SetupError("seed must be bytes, str or int")
    options = dict(options or {})
    unknown = set(options) - {"guilds", "crests"}
    if unknown:
        raise SetupError(f"unknown option(s): {', '.join(sorted(unknown))}")
    if hidden and deck is not None:
        raise SetupError("a hidden (networked) game has no known deck order")

    s = GameState.__new__(GameState)
    s.rs = rs
    s.n = n
    s.names = names
    s.seed = seed
    s.hidden = bool(hidden)
    s.guilds = tuple(choose_guilds(rs, n, options.get("guilds", "normal"), seed))
    s.options = {"guilds": options.get("guilds", "normal") if isinstance(
        options.get("guilds", "normal"), str) else tuple(options["guilds"])}
    s.crest = deal_crests(n, options.get("crests"), seed)
    s.crest_down = [False] * (n + 1)
    compute_order(s)
    s.players = [Player(rs.start, rs.workers_start) for _ in range(n)]
    s.board = new_board()
    s.np_dwarf = []
    s.desk = [NOBODY] * rs.desk_planks[n]
    s.camp = [NOBODY] * rs.camp_planks[n]
    s.guild_plank = [NOBODY] * DISTRICTS
    s.card_plank = {}
    s.area = [[0] * 16 for _ in range(n)]
    s.owner = {}
    s.gnomes = {}
    s.gnome_supply = rs.gnomes[n]

    total = rs.cards_per_type * len(CARD_TYPES)
    if hidden:
        s.types = [None] * total
    else:
        s.types = list(deck_types(rs, deck, seed))
    s.public = [False] * total
    s.draw = list(range(total))[::-1]   # id 0 is the top card
    s.pool = []
    s.discard = []
    s.next_id = total
    s.epoch = 0
    s.reveal_queue = []
    s.t_visits = s.t_buys = s.t_sells = s.t_exchanges = 0
    s.t_hired = False
    s.t_banks = []
    s.smith_used = []
    s.pending = 0
    s.pending_reason = ""
    s.spy = NOBODY
    s.spies_waiting = []
    s.spies_shown = {}
    s.keep_choice = {}
    s.spread_kinds = []
    s.camp_queue = []
    s.np_card = NOBODY
    s.np_index = 0
    s.score_log = []
    s.result = None
    s.version = 0
    s.changed()
    s.round = 0
    s.turn = 0
    s.current = NOBODY
    s.phase = KEEP
    s.step = STEP_NONE
    # §3.3: deal 5 to each player, seat 0 first (ids 0-4 to seat 0, and so on).
    for seat in range(n):
        for _ in range(rs.deal):
            s.players[seat].hand.append(s.draw.pop())
    return s


def choose_guilds(rs: Ruleset, n: int, mode: Sequence[str] | str, seed: bytes) -> list[int]:
    """§3.1 (and §12 for two players): the guild of each district, district 0 first."""
    allowed = [g for g in range(len(GUILDS))
               if not (n == 2 and CATEGORIES[rs.guild_category[g]] == "interactive"
                       and g != WIZARDS)]
    if isinstance(mode, (list, tuple)):
        if len(mode) != DISTRICTS:
            raise SetupError(f"an agreed guild list needs exactly {DISTRICTS} guilds")
        ids = []
        for name in mode:
            if name not in GUILD_ID:
                raise SetupError(f"unknown guild {name!r}; guilds are {', '.join(GUILDS)}")
            if GUILD_ID[name] in ids:
                raise SetupError(f"guild {name!r} is listed twice")
            if GUILD_ID[name] not in allowed:
                raise SetupError(f"{name} cannot be used with 2 players: the only interactive "
                                 "guild allowed is wizards (§12)")
            ids.append(GUILD_ID[name])
        return ids   # Decision: an agreed list is placed in its order, district 0 first
    if mode not in GUILD_MODES:
        raise SetupError(f"unknown guild mode {mode!r}; use beginner, normal, advanced or a list")
    rng = Prng(seed, "guilds")
    if mode == "advanced":
        chosen = rng.sample(allowed, DISTRICTS)
    else:
        counts = list(rs.guild_modes[mode])
        if n == 2:
            # Only Wizards among the interactive guilds (§12); Decision: any further
            # interactive slot is filled by a random basic or resource guild.
            spare = max(0, counts[2] - 1)
            counts[2] = min(counts[2], 1)
        else:
            spare = 0
        chosen = []
        for cat, k in enumerate(counts):
            pool = [g for g in allowed if rs.guild_category[g] == cat]
            chosen += rng.sample(pool, k)
        if spare:
            rest = [g for g in allowed if g not in chosen and rs.guild_category[g] != 2]
            chosen += rng.sample(rest, spare)
    return rng.shuffle(chosen)


def deal_crests(n: int, crests: Sequence[int] | None, seed: bytes) -> list[int]:
    if crests is None:
        order = Prng(seed, "crests").shuffle(list(range(1, n + 1)))
        return order
    crests = list(crests)
    if sorted(crests) != list(range(1, n + 1)):
        raise SetupError(f"crests must be a permutation of 1..{n}")
    return crests


def deck_types(rs: Ruleset, deck: Sequence[str | int] | None, seed: bytes) -> list[int]:
    per = rs.cards_per_type
    if deck is None:
        types = [t for t in range(len(CARD_TYPES)) for _ in range(per)]
        return Prng(seed, "deck").shuffle(types)
    types = []
    for i, t in enumerate(deck):
        if isinstance(t, str):
            if t not in CARD_TYPE_ID:
                raise SetupError(f"deck[{i}]: unknown card type {t!r}")
            t = CARD_TYPE_ID[t]
        if not isinstance(t, int) or not 0 <= t < len(CARD_TYPES):
            raise SetupError(f"deck[{i}]: unknown card type {t!r}")
        types.append(t)
    if sorted(types) != [t for t in range(len(CARD_TYPES)) for _ in range(per)]:
        raise SetupError(f"deck must hold exactly {per} cards of each of the 10 types")
    return types


def finish_keep(s: GameState, events: list[Event]) -> None:
    """All keep choices are in (§3.3 Decision: revealed together): discards go face up,
    the pool is dealt, then the NPs' setup (2 players) or round 1."""
    from .flow import discard_card
    for seat in range(s.n):
        kept, dropped = s.keep_choice[seat]
        hand = s.players[seat].hand
        for c in dropped[0::2]:
            hand.remove(c)
            discard_card(s, c)
        events.append(("keep", seat, tuple(dropped[0::2])))
    s.keep_choice = {}
    refill_pool(s, events)
    if s.n == 2:
        s.phase = NP_SETUP
        s.np_index = 0
        s.current = s.crest.index(1)
        return
    start_round(s, events)
