"""The end of a game when not every peer sees it together.

A peer killed at the very end may have sent everything the others need, so they finish
and audit, while it never saw their last messages.  Three rules make its rejoin finish
like the others:

* a finished peer stays reachable (answering heartbeats, relaying) for a seat it heard
  since its (re)start that has not said it finished, up to the stall time — never for a
  seat that said so, so a game where every seat finishes ends at once (``keeps``);
* a peer leaving with such a seat still unfinished says so, and how that seat gets the
  end later (``farewell``);
* a rejoined peer that lacks the end and hears nobody says plainly what it lacks and how
  to get it (``lacking``), rather than only "paused".

Any peer of the game can give the end: ``belfort rejoin --game ID`` also restarts a
finished game's peer, which then serves the late one until it finishes (node.rejoin).
"""

from __future__ import annotations

from collections.abc import Callable

from .config import Timing
from .liveness import clock
from .msgs import N_, Joined, Msg


def keeps(quiet: float, heard: bool, ended: bool, has_ours: bool, timing: Timing) -> bool:
    """Does this other seat keep a finished peer here?  ``ended``: it said it finished
    (or the game stopped); ``has_ours``: it reported holding every envelope of ours."""
    if ended and has_ours:
        return False
    limit = timing.timeout if heard and not ended else timing.disconnected
    return quiet <= limit


def rejoin_command(game_id: str) -> str:
    return f"belfort rejoin --game {game_id[:12]}"


def farewell(names: list, seats: list[int], quiet: Callable[[int], float],
             game_id: str) -> str | None:
    """A finished peer leaves while ``seats`` (heard, silent past the stall time) have not
    finished: what they can do."""
    if not seats:
        return None
    who = Joined(", ", [Msg(N_("{name} (silent {time})"), name=names[s], time=clock(quiet(s)))
                        for s in seats])
    return Msg(N_("The game is over here, but {who} did not finish it with us. When they "
                  "rejoin, `{command}` on this machine at the same time gives them the end "
                  "of the game."), who=who, command=rejoin_command(game_id))


def staying(names: list, seats: list[int], at_most: float) -> str | None:
    """The window closed on a finished game while ``seats`` (heard, not finished) may still
    fetch its end from us: we stay, at most ``at_most`` seconds, and say so."""
    if not seats:
        return None
    who = Joined(", ", [names[s] for s in seats])
    return Msg(N_("The game is over. Staying until {who} also has the end of the game (at "
                  "most {time}; they may be rejoining) — Ctrl-C leaves now."),
               who=who, time=clock(at_most))


def lacking(names: list, seats: list[int], over: bool, since: float, game_id: str) -> str:
    """A rejoined peer that has heard nobody since: what it lacks, and how to get it."""
    who = Joined(", ", [names[s] for s in seats])
    what = Msg(N_("the deck audit of {who}"), who=who) if over \
        else Msg(N_("the next messages of {who}"), who=who)
    return Msg(N_("Nobody has answered since this peer rejoined {time} ago, and this "
                  "machine lacks {what} to finish the game. If the others finished and left, "
                  "their machines hold the end: `{command}` on one of them, while this one "
                  "runs, gives it; otherwise `belfort rejoin` on each machine continues the "
                  "game."), time=clock(since), what=what, command=rejoin_command(game_id))
