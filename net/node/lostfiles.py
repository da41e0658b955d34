"""What to tell a player whose stored game is damaged or gone, and what they can do.

A seat lives in its files: ``secrets.msgpack`` holds its identity and master secret, from
which every secret of its deck work comes, and nobody else has them.  Everything else
(the log, even the config) the other players can give back.  So these texts say plainly
which file is the problem and what is still possible: rejoining from another data
directory, or — with 3 to 5 players — the others handing the seat to a bot.
"""

from __future__ import annotations

from pathlib import Path

from typing import TYPE_CHECKING

from net.node.files import PathArg
from net.session.msgs import N_, Msg

if TYPE_CHECKING:
    from net.session.config import GameConfig


def _what_now(name: str | None, players: int | None) -> str:
    hand = Msg(N_("the other players can hand {name}'s seat to a bot: in their window they "
                  "type `handoff {name}`"), name=name) if name else \
        Msg(N_("the other players can hand your seat to a bot (`handoff NAME` in their window)"))
    if players == 2:
        return Msg(N_("With 2 players the seat cannot be handed to a bot: the game cannot go "
                      "on without these files."))
    if players is None:
        return Msg(N_("With 3 to 5 players, {hand}; with 2 players the game cannot go on."),
                   hand=hand)
    return Msg(N_("With {n} players, {hand}."), n=players, hand=hand)


def lost_secrets(error: BaseException, cfg: GameConfig | None = None,
                 seat: int | None = None) -> str:
    """secrets.msgpack is missing or unusable: the seat cannot be played from here."""
    name = cfg.names[seat] if cfg is not None and seat is not None else None
    return Msg(N_("{error}. That file held this seat's identity key and master secret, which "
                  "exist nowhere else, so this seat cannot be played again from this machine. "
                  "If you have a copy of the game's directory, run `belfort rejoin --dir "
                  "DIRECTORY`. {what_now}"), error=_text(error),
               what_now=_what_now(name, cfg.n if cfg is not None else None))


def nothing_to_rejoin(data_dir: PathArg) -> str:
    data_dir = Path(data_dir)
    if not data_dir.exists():
        where = Msg(N_("the data directory {dir} does not exist (deleted, or another one was "
                       "used?)"), dir=str(data_dir))
    elif not (data_dir / "games").is_dir():
        where = Msg(N_("the data directory {dir} holds no games"), dir=str(data_dir))
    else:
        where = Msg(N_("every game in {dir} is finished"), dir=str(data_dir / "games"))
    return Msg(N_("no unfinished game to rejoin on this machine: {where}. If your files are "
                  "elsewhere, run `belfort rejoin --data-dir DIRECTORY`. Without them your "
                  "seat cannot come back from here. {what_now}"), where=where,
               what_now=_what_now(None, None))


def not_stored(name: str, address: str, data_dir: PathArg, existed: bool, why: str) -> str:
    """The host answers that the game started (or no longer answers), and this machine has
    no stored game from there: the player's files are gone."""
    where = Msg(N_("the data directory {dir} was not there (deleted?)"), dir=str(data_dir)) \
        if not existed else Msg(N_("{dir} holds no game from {address}"),
                                dir=str(Path(data_dir) / "games"), address=address)
    return Msg(N_("{why}. This machine has no stored game from {address}: {where}. If you "
                  "({name}) were playing that game, your seat's files are gone and it cannot "
                  "be played from here; if they are elsewhere, run `belfort rejoin --data-dir "
                  "DIRECTORY`. {what_now}"), why=why, address=address, where=where, name=name,
               what_now=_what_now(name, None))


def _text(error):
    """An error's message as net made it (a `Msg` keeps its template), else its text."""
    first = error.args[0] if isinstance(error, Exception) and len(error.args) == 1 else None
    return first if getattr(first, "template", None) else str(error)
