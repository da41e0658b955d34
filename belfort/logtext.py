"""The canonical text of a game log (docs/logs.md, format version 2).

It lives in the engine, not in the client that reads and writes log files, because both
sides of the layers need the same bytes: the client writes a local game's log, and every
peer of a networked game (`net`, which may not import the client) writes the complete log
after the end-of-game audit. Peers that played the same game must produce byte-identical
text, so everything here is a pure function of the game: no time, no path, no "you".
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .data import CARD_TYPES
from .commands import command_text
from .views import state_hash

if TYPE_CHECKING:
    from .ruleset import Ruleset
    from .state import GameState

FORMAT = "belfort-log"
VERSION = 2


def canonical_line(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def header(names: Sequence[str], options: Mapping[str, Any], seed: bytes | str,
           ruleset: Ruleset, hidden: bool = False,
           cards: Sequence[int | str] | None = None) -> dict[str, Any]:
    """The canonical header of a game. `seed` is the text a local game was started with, or
    the bytes of a networked game's shared seed. `cards` (networked games, after the
    audit): the type of every card id (index or name), id 0 first. Which seat was ours and
    the bots are this machine's notes, not the game's (the client's `local_notes`)."""
    opts = {k: (list(v) if isinstance(v, tuple) else v) for k, v in dict(options).items()}
    head = {"format": FORMAT, "version": VERSION, "players": list(names), "options": opts,
            "ruleset_sha256": ruleset.sha256, "ruleset": ruleset.raw}
    if isinstance(seed, bytes):
        head["seed_hex"] = seed.hex()
    else:
        head["seed"] = str(seed)
    if hidden:
        head["hidden"] = True
    if cards is not None:
        head["cards"] = [c if isinstance(c, str) else CARD_TYPES[c] for c in cards]
    return head


def end_entry(game: GameState) -> dict[str, Any]:
    return {"end": True, "hash": state_hash(game),
            "scores": [p.score for p in game.players],
            "winners": list((game.result or {}).get("winners", []))}


def canonical_text(head: dict[str, Any], steps: Iterable[Sequence[Any]],
                   game: GameState | None = None) -> str:
    """The canonical log of a game as one string: the header, every step — ("cmd", seat,
    command tuple or text) or ("undo", seat, step number) — and, when `game` is over, the
    end line. Peers of a networked game call this after the audit with the same header
    (cards included) and steps, and get byte-identical text."""
    lines = [canonical_line(head)]
    for n, (kind, a, b) in enumerate(steps):
        if kind == "cmd":
            text = b if isinstance(b, str) else command_text(b)
            lines.append(canonical_line({"cmd": text, "n": n, "seat": a}))
        elif kind == "undo":
            lines.append(canonical_line({"n": n, "step": b, "undo": a}))
        else:
            raise ValueError(f"a canonical log holds commands and undos only, not {kind!r}")
    if game is not None and game.is_over():
        lines.append(canonical_line(end_entry(game)))
    return "".join(ln + "\n" for ln in lines)


__all__ = ["FORMAT", "VERSION", "canonical_line", "header", "end_entry", "canonical_text"]
