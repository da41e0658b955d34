"""Commands a person types that are not game commands: ``handoff SEAT`` (or ``handoff NAME``).

Shared by the plain peer (peer.py) and the LAN game's driver (netdriver.py).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from net.session.handoff import HandoffError
from net.session.msgs import N_, Joined, Msg

if TYPE_CHECKING:
    from net.session.core import SessionPeer


def handoff_command(peer: SessionPeer, text: str, now: float | None = None) -> str:
    """The text command 'handoff SEAT' (or 'handoff NAME'): vote to hand a silent seat
    to a bot.  Returns what to tell the person."""
    arg = text.split(None, 1)[1].strip() if len(text.split(None, 1)) > 1 else ""
    folded = [n.casefold() for n in peer.names]
    seat: int | None
    if arg.isascii() and arg.isdigit():     # only ASCII digits are numbers ('❾' is not)
        seat = int(arg)
    else:
        seat = folded.index(arg.casefold()) if arg.casefold() in folded else None
    if seat is None:
        cands = peer.view.handoff_candidates(time.monotonic() if now is None else now)
        return Msg(N_("usage: handoff SEAT — silent seats now: {seats}"),
                   seats=Joined(", ", [f"{s} ({peer.names[s]})" for s in cands])
                   if cands else Msg(N_("none")))
    try:
        peer.handoff(seat, time.monotonic() if now is None else now)
    except HandoffError as exc:
        return Msg(N_("Refused: {why}"), why=exc.args[0] if exc.args else str(exc))
    return Msg(N_("You voted to hand {name}'s seat to a bot; every other player must agree."),
               name=peer.names[seat])
