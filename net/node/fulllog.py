"""The complete log of a networked game, written by every peer after the end-of-game audit.

While the game runs, the order of the draw pile and the other hands are secrets. Once
the audit has published every seat's deck secrets, every peer knows the physical card at
every position of every deck (the first and each reshuffle's), so it can write the whole
game in the format `belfort replay` reads (docs/logs.md, "What a LAN peer writes after the
audit"): the header with every card id's type, every step the lockstep applied (commands
and take-backs, table.undo.steps) and the end line with the final state hash.

Everything in it is public and agreed, and none of it depends on the machine, so the
peers of one game write byte-identical files. The file is new (`write`), beside the
peer's other files of the game.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from belfort.logtext import canonical_text, header
from net.node.files import PathArg

from net.session.config import card_type

if TYPE_CHECKING:
    from net.session.core import SessionPeer
    from net.session.table import GameTable

FILE_NAME = "game.jsonl"


def card_types(table: GameTable) -> list[int] | None:
    """The type of every engine card id 0 .. next_id-1, from the audit; None while some
    epoch's audit is incomplete."""
    g = table.game
    assert g is not None, "asked only of a game that is over, hence begun"
    types = []
    for c in range(g.next_id):
        e, pos = table.locate(c)
        rep = table.decks[e].audit_report if e < len(table.decks) else None
        card = rep.cards[pos] if rep is not None and rep.ok and pos < len(rep.cards) else None
        if card is None:
            return None
        types.append(card_type(card, table.per))
    return types


def complete_text(peer: SessionPeer) -> str | None:
    """The complete log of `peer`'s game (a core.SessionPeer) once it is over and its deck
    audit passed; None before (or when the audit failed: its cards cannot be trusted)."""
    table = peer.table
    # (a game that ended early because a player left it for good is over too: its table
    # as it stood, departure.py)
    over = table.game is not None and (table.game.is_over() or table.status == "over")
    if not over or not peer.audit_result or not peer.audit_result[0]:
        return None
    cards = card_types(table)
    if cards is None:
        return None
    assert table.seed is not None, "begin() set it with the game"
    head = header(peer.names, peer.cfg.options, table.seed, table.ruleset, hidden=True,
                  cards=cards)
    return canonical_text(head, table.undo.steps, table.game)


def write(directory: PathArg, text: str) -> Path:
    """Write `text` as the game's log in `directory`; the path. A file already there
    (a peer that finished, was restarted and finished again) is kept when it holds the
    same text and never written over: a different one raises OSError."""
    path = Path(directory) / FILE_NAME
    data = text.encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        if path.read_bytes() == data:
            return path
        raise OSError(f"{path} already exists and holds another game") from None
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    return path


__all__ = ["FILE_NAME", "card_types", "complete_text", "write"]
