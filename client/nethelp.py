"""``belfort help network``: playing with a friend who is not in the room, in a few
lines (the same as the README's section, in the person's language)."""

from __future__ import annotations

from .i18n import _

TOPICS = ("network", "lan", "vpn", "internet", "remote", "ipv6")


def network_help() -> str:
    """The text, in the active language."""
    title = _("Playing with a friend elsewhere")
    paragraphs = [
        _("No server is needed: every laptop runs the whole game and talks to the others "
          "directly. They only have to reach each other."),
        _("Any VPN that gives each laptop an address the others can reach does that "
          "(Tailscale, ZeroTier, WireGuard, a company VPN). belfort host lists every address "
          "of this machine with its interface's name, e.g. tailscale0: read out the VPN's "
          "line. IPv6 works as well: belfort join '[2001:db8::20]:5555' (keep the quotes)."),
        _("Games are announced only on the local network: from another network, belfort "
          "join without an address finds nothing; type the address the host printed."),
        _("Without a VPN: on the host's home router, forward TCP ports 5555 and 5556 (the "
          "lobby and the players' connection) to the host's laptop and start belfort host "
          "--advertise PUBLIC-ADDRESS. Every player must be reachable by every other: a "
          "joiner behind a router of their own forwards a port too and joins with --port "
          "PORT."),
        _("On a network you do not own, someone in between could pretend to be the host. "
          "The host's window shows each joiner's key fingerprint and each joiner's shows the "
          "host's: compare them aloud (on the phone) before the game starts. When they "
          "match, nobody in between can read your hand or change a move: every message is "
          "encrypted and signed with those keys."),
        _("Distance only slows each move by the time it takes to travel (80 ms between "
          "continents); no time-out in the game is near that."),
    ]
    return "\n".join([title, "=" * len(title), ""] + [p + "\n" for p in paragraphs]).rstrip()
