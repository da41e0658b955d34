"""Our envelopes on their way out: logged, seen by our own parts, handed back to be sent.

Every envelope our seat signs goes through ``keep``: into the message log (a rejoin that
makes one again byte for byte finds it already there, and one that comes out different
is an alert), then through ``seen`` to the parts that keep a transcript of our own
messages as of anyone's (the deck's, the commit-reveal rounds'); the peer sends its bytes
unless we replay our log.  An envelope a rejoin adopted instead of making it again is
``seen`` the same way.  ``hosted`` takes an envelope of the seat we play for a bot into
our own session, as if it had come from that seat.

The peer owns where the bytes go (the mesh at once, or its outbox).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from net.crypto import encode_envelope, wire

from .effects import Out, Steps
from .msgs import N_, Msg

if TYPE_CHECKING:
    from .departure import Departure
    from .handoff import Handoff
    from .intake import Intake
    from .msglog import MessageLog
    from .rounds import Rounds
    from .table import GameTable


class Outgoing:
    def __init__(self, *, log: MessageLog, table: GameTable, rounds: Rounds, intake: Intake,
                 handoffs: Handoff, departure: Departure) -> None:
        """``handoffs``: read only, the bot we host (if any)."""
        self.log, self.table, self.rounds, self.intake = log, table, rounds, intake
        self.handoffs, self.departure = handoffs, departure

    def keep(self, env: dict) -> tuple[bytes, dict, Out | None]:
        """One of our envelopes into the log: its bytes (to send), its body (to be
        ``seen``), and the alert if a rejoin made it again differently."""
        data = encode_envelope(env)
        body = wire.unpack(env["body"], "x")
        if self.log.add_ours(data):
            return data, body, None
        return data, body, Out().alert("error", Msg(N_("our message {type} (seq {seq}) made "
                                                       "again after the rejoin differs from "
                                                       "the one the others hold"),
                                                    type=body["type"], seq=body["seq"]),
                                       key=("ours-differ",))

    def seen(self, body: dict) -> None:
        """One of our envelopes, made or adopted: where our parts keep the transcript."""
        t = body["type"]
        if t.startswith("deck/") and body.get("epoch", -1) < len(self.table.deck_log):
            self.table.deck_log[body["epoch"]].append(body)
            bot = self.handoffs.bot
            if bot is not None:
                bot.absorb(body)
        elif t.startswith("commit/"):
            self.rounds.on_message(body)        # our own choices go through the same checks
        elif t == "sess/leave":
            self.departure.own(body)

    def hosted(self, env: dict) -> Steps[bytes]:
        """An envelope of the seat we host for a bot: into our session; its bytes, to send
        to everyone."""
        data = encode_envelope(env)
        bot = self.handoffs.bot
        assert bot is not None, "only the seat we host for a bot sends hosted envelopes"
        yield self.intake.take(bot.seat, data, self.intake.verifier.verify(data))
        return data
