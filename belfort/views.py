"""What each seat may see, and the hash every honest peer agrees on.

`public_view` and `seat_view` are plain dicts (JSON-able) for clients, bots and logs.
`state_hash` is SHA-256 over a canonical encoding of the public state only: the same on
every peer whatever private cards each one knows.
"""
from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from .data import AREAS, CARD_TYPES, GUILDS, KINDS, N_SITES, NOBODY, SITE_NAME
from .data import WOOD, STONE, METAL, GOLD
from .commands import plank_text
from .phases import decision_view
from .state import KEEP, STEP_SPIES_SHOW

if TYPE_CHECKING:
    from .state import GameState


def _type_if_public(s: GameState, c: int) -> str | None:
    return CARD_TYPES[t] if s.public[c] and (t := s.types[c]) is not None else None


def _occupant(occ: int) -> dict[str, int | str] | None:
    return None if occ == NOBODY else {"seat": occ // 4, "worker": KINDS[occ % 4]}


def public_view(s: GameState) -> dict[str, Any]:
    """Everything every seat knows, as plain data."""
    players = []
    for seat, p in enumerate(s.players):
        me, md = s.masters(seat)
        # A built card's type is public, so never None here.
        built = [{"card": c, "type": CARD_TYPES[s.types[c]],  # type: ignore[index]
                  "gnomes": s.gnomes.get(c, 0),
                  "locks": s.rs.locks[s.types[c]],  # type: ignore[index]
                  "plank": _occupant(s.card_plank.get(c, NOBODY))} for c in p.built]
        players.append({
            "seat": seat, "name": s.names[seat], "crest": s.crest[seat],
            "score": p.score, "tax": s.rs.tax_for(p.score),
            "wood": p.res[WOOD], "stone": p.res[STONE], "metal": p.res[METAL], "gold": p.res[GOLD],
            "elves": p.elves, "dwarves": p.dwarves, "master_elves": me, "master_dwarves": md,
            "reserve_elves": s.rs.workers_per_colour - p.elves,
            "reserve_dwarves": s.rs.workers_per_colour - p.dwarves,
            "unplaced": dict(zip(KINDS, s.unplaced(seat))) if s.phase != KEEP else None,
            "hand_size": len(p.hand),
            "hand_revealed": {str(c): CARD_TYPES[t] for c in p.hand
                              if s.public[c] and (t := s.types[c]) is not None},
            "built": built, "gnomes": sum(s.gnomes.get(c, 0) for c in p.built),
            "waiting": [plank_text(x) for x in p.waiting],
            "passed": p.passed, "taxes_lost": p.taxes_lost,
            "areas": {AREAS[a]: {KINDS[k]: s.area[seat][a * 4 + k] for k in range(4)
                                 if s.area[seat][a * 4 + k]} for a in range(4)},
        })
    board = {SITE_NAME[x]: s.board[x] for x in range(N_SITES) if s.board[x] != NOBODY}
    return {
        "players": players,
        "non_players": (["NP3", "NP4"] if s.n == 2 else []),
        "phase": s.phase, "step": s.step, "round": s.round, "rounds": s.rs.rounds,
        "scoring_rounds": list(s.rs.scoring_rounds),
        "waiting_for": s.waiting_for(),
        "current": s.current if s.current != NOBODY else None,
        "decision": decision_view(s),
        "order": list(s.order),
        "crests_face_down": [k for k in range(1, s.n + 1) if s.crest_down[k]],
        "board": board,
        "guilds": [{"district": d, "guild": GUILDS[g], "owner": s.board[d * 12 + 11]
                    if s.board[d * 12 + 11] != NOBODY else None,
                    "plank": _occupant(s.guild_plank[d]),
                    "np_dwarf": (s.n + s.np_dwarf.index(d)) if d in s.np_dwarf else None}
                   for d, g in enumerate(s.guilds)],
        "recruiters_desk": [_occupant(o) for o in s.desk],
        "kings_camp": [_occupant(o) for o in s.camp],
        "camp_queue": list(s.camp_queue),
        "pool": [{"card": c, "type": _type_if_public(s, c)} for c in s.pool],
        "discard": [{"card": c, "type": _type_if_public(s, c)} for c in s.discard],
        "draw_size": len(s.draw),
        "gnome_supply": s.gnome_supply,
        "pending_reveals": list(s.reveal_queue),
        "turn": {"visits": s.t_visits, "buys": s.t_buys, "sells": s.t_sells,
                 "exchanges": s.t_exchanges, "hired": s.t_hired} if s.phase == "actions" else None,
        "pending_discards": s.pending if s.step == "discard" else 0,
        "spies": ({"spy": s.spy, "waiting": [q for q in s.spies_waiting
                                             if q not in s.spies_shown]}
                  if s.step == STEP_SPIES_SHOW else None),
        "keep_submitted": sorted(s.keep_choice) if s.phase == KEEP else [],
        "np_card": ({"card": s.np_card, "type": _type_if_public(s, s.np_card)}
                    if s.np_card != NOBODY else None),
        "score_log": s.score_log,
        "result": s.result,
        "ruleset": s.rs.sha256,
    }


def seat_view(s: GameState, seat: int) -> dict[str, Any]:
    """The public view plus what `seat` alone knows: its own hand (and its pending choices)."""
    v = public_view(s)
    p = s.players[seat]
    v["seat"] = seat
    v["hand"] = [{"card": c, "type": CARD_TYPES[t] if (t := s.types[c]) is not None else None}
                 for c in p.hand]
    if seat in s.keep_choice:
        v["my_keep"] = [list(s.keep_choice[seat][0]), list(s.keep_choice[seat][1][0::2])]
    if seat in s.spies_shown:
        v["my_shown"] = s.spies_shown[seat]
    return v


def _public_tuple(s: GameState) -> list[Any]:
    """A fixed-order encoding of the public state for hashing: ints, strs, None and lists."""
    types, public = s.types, s.public

    def pub(c: int) -> int | None:
        return types[c] if public[c] else NOBODY

    players = []
    for p in s.players:
        players.append([p.res, p.score, p.elves, p.dwarves, [[c, pub(c)] for c in p.hand],
                        [[c, types[c], s.gnomes.get(c, 0)] for c in p.built],
                        p.placed, p.waiting, p.camp_used, p.passed, p.taxes_lost])
    return [
        1, s.rs.sha256, s.n, list(s.names), s.phase, s.step, s.round, s.turn, s.current,
        s.crest, s.crest_down, s.board, list(s.guilds), s.np_dwarf, s.desk, s.camp,
        s.guild_plank, sorted(s.card_plank.items()), s.area, s.gnome_supply,
        [[c, pub(c)] for c in s.pool], [[c, pub(c)] for c in s.discard], s.draw,
        s.next_id, s.epoch, s.reveal_queue,
        [s.t_visits, s.t_buys, s.t_sells, s.t_exchanges, s.t_hired, s.t_banks, s.smith_used],
        [s.pending, s.pending_reason, s.spy, s.spies_waiting, sorted(s.spies_shown)],
        sorted(s.keep_choice), s.spread_kinds, s.camp_queue,
        [s.np_card, pub(s.np_card) if s.np_card != NOBODY else NOBODY, s.np_index],
        players, s.score_log, s.result,
    ]


def state_hash(s: GameState) -> str:
    """SHA-256 (hex) of the canonical public state."""
    data = _CANONICAL.encode(_public_tuple(s))
    return hashlib.sha256(data.encode()).hexdigest()


# The encoding json.dumps(value, separators=(",", ":"), sort_keys=True) gives, made once
# instead of at every call. The public tuple is plain nested data and never circular, so
# the encoder need not track the containers it is inside (the output is the same).
_CANONICAL = json.JSONEncoder(separators=(",", ":"), sort_keys=True, check_circular=False)


__all__ = ["public_view", "seat_view", "state_hash"]
