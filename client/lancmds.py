"""The commands of a LAN game, in the window and in --plain alike (issue 11, "At the
table"): ``say TEXT`` (a signed chat line to everyone), ``handoff SEAT`` (vote to hand a
silent player's seat to a bot) and ``waiting`` (who the game waits for, and how long
they have been silent).  Installed on the Controller only when the driver is networked.
"""

from __future__ import annotations


def networked(driver):
    return callable(getattr(driver, "say", None)) and callable(getattr(driver, "waiting", None))


def install(ctl):
    """Add the LAN commands to ``ctl`` (a client.controller.Controller) if its driver
    plays over the network."""
    from .controller import ClientCommand, Reply
    driver = ctl.driver
    if not networked(driver):
        return

    def say(args):
        text = " ".join(args)
        try:
            driver.say(text)
        except ValueError as exc:          # chat.ChatError: nothing to say
            return Reply("error", str(exc))
        return Reply("info", "Said to the table.")

    def handoff(args):
        answer = driver.text_command("handoff " + " ".join(args))
        kind = "error" if answer.startswith(("Refused", "usage")) else "info"
        return Reply(kind, answer)

    def waiting(args):
        return Reply("info", waiting_sentence(driver))

    for cc in (ClientCommand("say", say, "say TEXT", "a line to everyone at the table",
                             ("chat",)),
               ClientCommand("handoff", handoff, "handoff SEAT",
                             "vote to hand a silent player's seat to a bot (3–5 players)"),
               ClientCommand("waiting", waiting, "waiting",
                             "who the game waits for, and how long they have been silent")):
        ctl.add_command(cc)


def waiting_sentence(driver):
    text = driver.waiting()
    if not text:
        return "Nobody is waited for just now."
    return text[0].upper() + text[1:] + "."


def stalled_sentence(driver):
    """'Waiting for Bo (disconnected 12 s)' when a player the game waits for is away,
    else ''."""
    if not networked(driver):
        return ""
    text = driver.waiting()
    if "disconnected" not in text:
        return ""
    return text[0].upper() + text[1:]


class ChatFeed:
    """The chat lines not shown yet, as (seat, text)."""

    def __init__(self, driver):
        self.driver = driver
        self.count = 0

    def take(self):
        since = getattr(self.driver, "chat_since", None)
        if since is None:
            return []
        self.count, lines = since(self.count)
        return lines
