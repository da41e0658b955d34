"""What to tell a player whose stored game is damaged or gone, and what they can do.

A seat lives in its files: ``secrets.msgpack`` holds its identity and master secret, from
which every secret of its deck work comes, and nobody else has them.  Everything else
(the log, even the config) the other players can give back.  So these texts say plainly
which file is the problem and what is still possible: rejoining from another data
directory, or — with 3 to 5 players — the others handing the seat to a bot.
"""

from __future__ import annotations

from pathlib import Path


def _what_now(name: str | None, players: int | None) -> str:
    who = name or "your seat"
    hand = (f"the other players can hand {who}'s seat to a bot: in their window they type "
            f"`handoff {name}`" if name else "the other players can hand your seat to a bot "
            "(`handoff NAME` in their window)")
    if players == 2:
        return ("With 2 players the seat cannot be handed to a bot: the game cannot go on "
                "without these files.")
    if players is None:
        return f"With 3 to 5 players, {hand}; with 2 players the game cannot go on."
    return f"With {players} players, {hand}."


def lost_secrets(error, cfg=None, seat: int | None = None) -> str:
    """secrets.msgpack is missing or unusable: the seat cannot be played from here."""
    name = cfg.names[seat] if cfg is not None and seat is not None else None
    return (f"{error}. That file held this seat's identity key and master secret, which exist "
            f"nowhere else, so this seat cannot be played again from this machine. If you have "
            f"a copy of the game's directory, run `belfort rejoin --dir DIRECTORY`. "
            + _what_now(name, cfg.n if cfg is not None else None))


def nothing_to_rejoin(data_dir) -> str:
    data_dir = Path(data_dir)
    if not data_dir.exists():
        where = f"the data directory {data_dir} does not exist (deleted, or another one was used?)"
    elif not (data_dir / "games").is_dir():
        where = f"the data directory {data_dir} holds no games"
    else:
        where = f"every game in {data_dir / 'games'} is finished"
    return (f"no unfinished game to rejoin on this machine: {where}. If your files are "
            f"elsewhere, run `belfort rejoin --data-dir DIRECTORY`. Without them your seat "
            f"cannot come back from here. " + _what_now(None, None))


def not_stored(name: str, address: str, data_dir, existed: bool, why: str) -> str:
    """The host answers that the game started (or no longer answers), and this machine has
    no stored game from there: the player's files are gone."""
    where = (f"the data directory {data_dir} was not there (deleted?)" if not existed else
             f"{Path(data_dir) / 'games'} holds no game from {address}")
    return (f"{why}. This machine has no stored game from {address}: {where}. If you "
            f"({name}) were playing that game, your seat's files are gone and it cannot be "
            f"played from here; if they are elsewhere, run `belfort rejoin --data-dir "
            f"DIRECTORY`. " + _what_now(name, None))
