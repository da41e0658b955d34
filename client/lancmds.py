"""The commands of a LAN game, in the window and in --plain alike: ``say TEXT`` (a signed
chat line to everyone), ``handoff SEAT`` (vote to hand a silent player's seat to a bot),
``waiting`` (who the game waits for, and how long they have been silent), ``again``
(another game at this table once this one is over) and ``evening`` (the evening's
results at this table).  The Controller adds them when its driver is networked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .i18n import L_, _
from .netmessages import net_text
from .reply import ReplyKind

if TYPE_CHECKING:
    from .driver import GameDriver
    from .i18n.catalog import LazyString
    from .words import Namer

    # (name, run, usage, hint, aliases); run(args) answers (reply kind, text)
    LanCommand = tuple[str, Callable[[list[str]], tuple[ReplyKind, str]], str | LazyString,
                       LazyString, tuple[str, ...]]


def commands(driver: GameDriver) -> list[LanCommand]:
    """[(name, run, usage, hint, aliases)] of the LAN commands ([] for a local game);
    ``run(args)`` answers (reply kind, text).  The Controller makes them its own."""
    if not driver.networked:
        return []

    def say(args: list[str]) -> tuple[ReplyKind, str]:
        try:
            driver.say(" ".join(args))
        except ValueError as exc:          # chat.ChatError: nothing to say
            return ReplyKind.ERROR, net_text(exc.args[0] if exc.args else str(exc))
        return ReplyKind.INFO, _("Said to the table.")

    def handoff(args: list[str]) -> tuple[ReplyKind, str]:
        answer = driver.text_command("handoff " + " ".join(args)) or ""
        return (ReplyKind.ERROR if answer.startswith(("Refused", "usage")) else ReplyKind.INFO), \
            net_text(answer)

    def waiting(args: list[str]) -> tuple[ReplyKind, str]:
        return ReplyKind.INFO, waiting_sentence(driver)

    def again(args: list[str]) -> tuple[ReplyKind, str]:
        return ReplyKind.INFO, net_text(driver.again())

    def evening(args: list[str]) -> tuple[ReplyKind, str]:
        return ReplyKind.INFO, net_text(driver.evening_text())

    return [("say", say, L_("say TEXT"), L_("a line to everyone at the table"), ("chat",)),
            ("handoff", handoff, L_("handoff SEAT"),
             L_("vote to hand a silent player's seat to a bot (3–5 players)"), ()),
            ("waiting", waiting, "waiting",
             L_("who the game waits for, and how long they have been silent"), ()),
            ("again", again, "again",
             L_("once the game is over: another game at this table, no new lobby"), ()),
            ("evening", evening, "evening",
             L_("the evening's results at this table: games, wins, points"), ())]


def waiting_sentence(driver: GameDriver) -> str:
    text = net_text(driver.waiting())
    if not text:
        return _("Nobody is waited for just now.")
    return text[0].upper() + text[1:] + "."


def stalled_sentence(driver: GameDriver) -> str:
    """'Waiting for Bo (disconnected 12 s)' when a player the game waits for is away,
    else ''."""
    if not driver.networked:
        return ""
    text = driver.waiting()
    if "disconnected" not in text and "left for now" not in text:
        return ""
    text = net_text(text)
    return text[0].upper() + text[1:]


class ChatFeed:
    """The chat lines not shown yet, as (seat, text)."""

    def __init__(self, driver: GameDriver) -> None:
        self.driver = driver
        self.count = 0

    def take(self) -> list[tuple[int, str]]:
        self.count, lines = self.driver.chat_since(self.count)
        return lines

    def take_shown(self, namer: Namer) -> list[tuple[int, str]]:
        """The new lines as they are shown: [(seat, "Bo says: “…”")], never like an
        alert whatever the words (net.session.text.chat_line)."""
        from net.session.text import chat_line      # a LAN game only: net is loaded
        return [(seat, net_text(chat_line(namer.name(seat), text)))
                for seat, text in self.take()]
