"""Peer processes without the terminal client:

    python -m client.peer host --name Ana [--players 3] [--bots 2] [--bind IP] [--port 5555]
                          [--advertise HOST[:PORT]]
    python -m client.peer join tcp://192.168.1.20:5555 --name Bo
    python -m client.peer bot --join tcp://192.168.1.20:5555 [--level random]
    python -m client.peer rejoin [--game GAMEID] [--data-dir DIR]

A human seat reads commands from standard input (plain text, e.g. ``place elf desk``);
``--level`` makes any seat a bot.  With ``--json`` every event is one line
``@ {json}`` on standard output (tests read these; ``{"event": "phase", "round", "phase",
"version"}`` marks each phase reached); the last is ``{"event": "result", ...}``.
Exit status: 0 game over and audit passed, 1 the game stopped (desync, cheat, audit
failure), 2 lobby failure (refused, unreachable), 3 timeout (``--timeout``), 4 the game
is paused (everyone else away past the stall time, or left for now, or this machine's
game log cannot be written: a full disk; ``rejoin`` continues it), 5 our seat was handed
to a bot (status ``handed``, the notice in ``stop_reason``), 130/143 we left for now
(Ctrl-C, SIGTERM: the others are told, and wait).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import belfort
from belfort.ruleset import shipped_rulesets
from belfort.undo import UndoRefused

from net.argtypes import seconds_type

from net.session.config import Timing
from net.node.lobby import LobbyError, kind_word
from net.session.msgs import N_, Joined, Msg
from net.session.takeback import RefusalText
from net.session.text import chat_line
from net.session.departure import LeaveRefused
from .textcmd import handoff_command

if TYPE_CHECKING:
    from net.node.node import Node
    from net.session.core import SessionPeer

IDLE_POLL_MS = 100     # nothing to do: a poll ends on a frame, a typed line or a due decision


def _options(args: argparse.Namespace) -> dict[str, Any]:
    if args.guild_list:
        return {"guilds": [g.strip() for g in args.guild_list.split(",")]}
    return {"guilds": args.guilds}


def build_parser(prog: str = "python -m client.peer", tr: Callable[[str], str] | None = None,
                 formatter: type[argparse.HelpFormatter] | None = None
                 ) -> argparse.ArgumentParser:
    """The parser of the four subcommands; ``tr`` translates its help texts (the client's
    `_`: they are marked for its catalog), ``formatter`` lays the help out (the client's
    measures terminal cells)."""
    t = tr or str
    fmt: dict[str, Any] = {"formatter_class": formatter} if formatter is not None else {}
    ap = argparse.ArgumentParser(prog=prog, description=t(N_("A Belfort peer on the LAN.")),
                                 **fmt)
    sub = ap.add_subparsers(dest="mode", required=True)
    secs = t(N_("SECONDS"))
    seconds, positive = seconds_type(tr), seconds_type(tr, positive=True)

    def common(p):
        p.add_argument("--data-dir", metavar=t(N_("DIR")),
                       help=t(N_("where games are stored (default ~/.local/share/belfort)")))
        p.add_argument("--json", action="store_true", help=t(N_("events as '@ {json}' lines")))
        p.add_argument("--quiet", action="store_true", help=t(N_("print only the result")))
        p.add_argument("--level", metavar=t(N_("LEVEL")),
                       help=t(N_("play this seat with a bot of this level")))
        p.add_argument("--think", type=seconds, default=0.0, metavar=secs,
                       help=t(N_("bot thinking time (s)")))
        p.add_argument("--pace", type=seconds, default=0.0, metavar=secs,
                       help=t(N_("bots: wait this long per decision")))
        p.add_argument("--timeout", type=positive, default=None, metavar=secs,
                       help=t(N_("give up after this many s")))
        p.add_argument("--heartbeat", type=positive, default=None, metavar=secs,
                       help=t(N_("send a heartbeat this often (default 0.4 s)")))
        p.add_argument("--stall-timeout", "--peer-timeout", dest="peer_timeout", type=positive,
                       default=None, metavar=secs,
                       help=t(N_("a seat silent this long stalls the game no longer: it may "
                                 "be handed to a bot (3-5 players) or the game pauses "
                                 "(default 180 s)")))
        p.add_argument("--step-deadline", type=positive, default=None, metavar=secs,
                       help=t(N_("an automatic protocol step owed this long names its seat "
                                 "(default 15 s)")))
        p.add_argument("--auto-handoff", type=seconds, default=None, metavar=secs,
                       help=t(N_("3-5 players: vote to hand a seat silent this long to a bot")))
        p.add_argument("--again", type=int, default=0, metavar="N",
                       help=t(N_("play up to N games in a row at this table, asking for the "
                                 "next one by itself (a person types again)")))
        # shown, not hidden: whoever reads this knows what such a game gives away
        p.add_argument("--test-secret", metavar="S",
                       help=t(N_("tests and benchmarks: this peer's secrets drawn from S, so a "
                                 "game can be played again identically; anyone who knows S "
                                 "sees every hand")))
        p.add_argument("--latency-out", metavar=t(N_("FILE")),
                       help=t(N_("benchmarks: write when each command was applied here, as "
                                 "JSON")))
        p.add_argument("--plain", action="store_true", help=t(N_("line-based window (client)")))
        p.add_argument("--colour", metavar=t(N_("MODE")),
                       help=t(N_("colour mode of the window (client)")))

    def name(p, **kw):
        p.add_argument("--name", metavar=t(N_("NAME")), **kw)

    h = sub.add_parser("host", help=t(N_("host a game")), **fmt)
    name(h, required=True, help=t(N_("your name, as the other players see it")))
    h.add_argument("--bind", default="*", metavar="IP",
                   help=t(N_("interface to listen on (default: all)")))
    h.add_argument("--port", type=int, default=5555, metavar=t(N_("PORT")),
                   help=t(N_("lobby port (0: any free port); the players connect to the "
                             "next one too")))
    h.add_argument("--advertise", metavar=t(N_("ADDRESS")),
                   help=t(N_("HOST[:PORT] the others reach this machine at, which it cannot "
                             "see itself (a port forwarded on a home router): put first in "
                             "the join command and the LAN announcement")))
    h.add_argument("--players", type=int, default=2, metavar="N",
                   help=t(N_("seats, 2-5 (default 2)")))
    h.add_argument("--bots", type=int, default=0, metavar="N",
                   help=t(N_("bot peers to start on this machine")))
    h.add_argument("--bot-level", default="normal", metavar=t(N_("LEVEL")),
                   help=t(N_("level of the bots started here: random, easy, normal or hard")))
    h.add_argument("--guilds", default="normal", metavar=t(N_("GUILDS")),
                   help=t(N_("beginner | normal | advanced")))
    h.add_argument("--guild-list", metavar=t(N_("LIST")),
                   help=t(N_("an agreed list of 5 guilds, comma-separated")))
    h.add_argument("--ruleset", metavar=t(N_("FILE")), help=t(N_("a ruleset TOML file")))
    h.add_argument("--start-after", type=seconds, default=None, metavar=secs,
                   help=t(N_("start after this many s with whoever joined (empty seats: bots)")))
    h.add_argument("--no-announce", dest="announce", action="store_false",
                   help=t(N_("do not announce the game on the LAN (mDNS); joiners then type "
                             "the printed address")))
    h.add_argument("--auto-start", action="store_true",
                   help=t(N_("start as soon as every seat is taken (scripts); otherwise the "
                             "person hosting types start once the players and their keys are "
                             "right")))
    common(h)

    j = sub.add_parser("join", help=t(N_("join a game")), **fmt)
    j.add_argument("address", nargs="?", default=None, metavar=t(N_("ADDRESS")),
                   help=t(N_("HOST:PORT the host printed; without it, the games announced on "
                             "the LAN are listed to choose from")))
    name(j, required=True, help=t(N_("your name, as the other players see it")))
    j.add_argument("--host", dest="host_name", default=None, metavar=t(N_("NAME")),
                   help=t(N_("without an address: join the game NAME hosts on the LAN")))
    j.add_argument("--bind", default="*", metavar="IP")
    j.add_argument("--port", type=int, default=0, metavar=t(N_("PORT")),
                   help=t(N_("the port the other players connect to (default: any free one; "
                             "forward it on your router when you are not on a VPN)")))
    j.add_argument("--ruleset", metavar=t(N_("FILE")),
                   help=t(N_("refuse a host whose ruleset is not this file")))
    common(j)

    b = sub.add_parser("bot", help=t(N_("a bot seat as its own process")), **fmt)
    b.add_argument("--join", required=True, dest="address", metavar=t(N_("ADDRESS")))
    name(b, default=None, help=t(N_("the bot's name (default: bot-XXXX)")))
    b.add_argument("--bind", default="*", metavar="IP")
    b.add_argument("--port", type=int, default=0, metavar=t(N_("PORT")),
                   help=t(N_("the port the other players connect to (default: any free one; "
                             "forward it on your router when you are not on a VPN)")))
    common(b)

    r = sub.add_parser("rejoin", help=t(N_("rejoin an unfinished game after a crash")), **fmt)
    r.add_argument("--game", metavar="ID",
                   help=t(N_("game id (default: the most recent unfinished one)")))
    r.add_argument("--dir", metavar=t(N_("DIR")), help=t(N_("the game's directory")))
    common(r)
    return ap


class Printer:
    """Prints events; ``render`` (the client's translation of a `msgs.Msg`) turns each
    human-readable line into what the person reads."""

    def __init__(self, as_json: bool, quiet: bool,
                 render: Callable[[str], Any] | None = None) -> None:
        self.as_json, self.quiet = as_json, quiet
        self.render = render or str
        self.lock = threading.Lock()

    def __call__(self, ev: dict[str, Any]) -> None:
        with self.lock:
            if self.as_json:
                print("@ " + json.dumps(ev, default=str), flush=True)
            elif not self.quiet or ev.get("event") == "result":
                print(self.render(human_text(ev)), flush=True)

    def say(self, text: str) -> None:
        """A line for the person typing commands (a prompt, an answer)."""
        with self.lock:
            print(self.render(text), flush=True)


# what `[kind] text` lines call each kind of alert (--plain, bot peers without a window)
ALERT_KINDS = {"desync": N_("desync"), "cheat": N_("cheat"), "disconnect": N_("disconnect"),
               "reconnect": N_("reconnect"), "error": N_("error"), "info": N_("info")}
STATUS = {"over": N_("Game over."), "stopped": N_("Game stopped."),
          "handed": N_("Your seat is played by a bot now."),
          "paused": N_("Game paused."), "left": N_("You left the game for good."),
          "playing": N_("Game playing."),
          "setup": N_("Game setup.")}


def human_text(ev: dict[str, Any]) -> str:
    e = ev.get("event")
    if e == "lobby":
        joins = ev.get("joins") or [ev["join"]]
        # each with the interface it is on (a VPN's, the Wi-Fi's): which one to read out
        names = list(ev.get("interfaces") or [])
        shown = [f"{j}    ({names[i]})" if i < len(names) and names[i] else j
                 for i, j in enumerate(joins)]
        more = Msg(N_("\n(or, on another network of this machine:\n{joins})\n"),
                   joins="\n".join(f"    {j}" for j in shown[1:])) if len(shown) > 1 else ""
        text = Msg(N_("Hosting. The others type:\n\n    {join}\n{more}\n"
                      "Read this key fingerprint aloud: {fingerprint}"),
                   join=shown[0], more=more, fingerprint=ev["fingerprint"])
        ports = ev.get("ports") or []
        if ev.get("advertised") and len(ports) == 2:
            # what the router must forward for the advertised address to lead here
            return Joined("\n", [text, Msg(N_("The router must forward TCP ports {lobby} and "
                                               "{mesh} to this machine."),
                                            lobby=ports[0], mesh=ports[1])])
        return text
    if e in ("lobby-change", "lobby-confirm"):
        return ev["text"]
    if e == "games":
        if not ev["games"]:
            return ""
        return Msg(N_("Games on the LAN:\n{games}"), games=Joined("\n", [
            Msg(N_("  {n}. {game}"), n=i, game=g["line"]) for i, g in enumerate(ev["games"], 1)]))
    if e == "welcome":
        return Msg(N_("Joined {host}'s game as seat {seat}. The host's key fingerprint is "
                      "{host_fingerprint} — check it with them. Yours is {fingerprint}."),
                   host=ev["host"], seat=ev["seat"], host_fingerprint=ev["host_fingerprint"],
                   fingerprint=ev["fingerprint"])
    if e == "roster":
        return Msg(N_("Players: {roster}"), roster=Joined(", ", [
            Msg(N_("{name} ({kind})"), name=r["name"], kind=kind_word(r["kind"]))
            for r in ev["roster"]]))
    if e == "started":
        return Msg(N_("The game starts: {roster}. You are seat {seat}."),
                   roster=", ".join(ev["roster"]), seat=ev["seat"])
    if e == "profile":
        return Msg(N_("Another belfort on this machine plays from {base}: this one plays as "
                      "another player, with its own key and files in {dir}."),
                   base=ev["base"], dir=ev["dir"])
    if e == "rejoined":
        return Msg(N_("Rejoined the game as seat {seat}; catching up from the others."),
                   seat=ev["seat"])
    if e == "rejoin":
        return Msg(N_("The host's lobby does not answer ({why}); rejoining the game this "
                      "machine was in ({game})."), why=ev["why"], game=ev["game"])
    if e == "bots":
        # the bots this machine started for the game (host --bots, play --lan)
        restarted, running = ev.get("restarted", 0), len(ev.get("running") or [])
        if restarted and running:
            return Msg(N_("Bots of this game restarted on this machine: {n}; still running: "
                          "{m}."), n=restarted, m=running)
        if restarted:
            return Msg(N_("Bots of this game restarted on this machine: {n}."), n=restarted)
        return Msg(N_("Bots of this game still running on this machine: {m}."), m=running)
    if e == "moved":
        return Msg(N_("This machine's address changed ({was} -> {endpoint}): the others are "
                      "told the new one."), was=ev["was"], endpoint=ev["endpoint"])
    if e == "alert":
        kind = ALERT_KINDS.get(ev["kind"])
        return Msg(N_("[{kind}] {text}"), kind=Msg(kind) if kind else ev["kind"], text=ev["text"])
    if e == "chat":
        return chat_line(ev["name"], ev["text"])
    if e in ("left", "evening", "evening-over"):
        return ev["text"]
    if e == "game-over":
        return Msg(N_("Game {number} of the evening is over."), number=ev.get("number", 1))
    if e == "next-game":
        return Msg(N_("Game {number} of the evening starts: {roster}. You are seat {seat}."),
                   number=ev["number"], roster=", ".join(ev["roster"]), seat=ev["seat"])
    if e == "result":
        status = STATUS.get(ev["status"])
        lines = [Msg(status) if status else Msg(N_("Game {status}."), status=ev["status"])]
        if ev.get("scores"):
            lines.append(Msg(N_("Scores: {scores}"), scores=", ".join(
                f"{n} {s}" for n, s in zip(ev.get("names", []), ev["scores"]))))
        if ev.get("audit"):
            ok, text = ev["audit"]
            lines.append(Msg(N_("Audit passed: {text}") if ok else N_("AUDIT FAILED: {text}"),
                             text=text))
        if ev.get("ended"):
            lines.append(ev["ended"])       # the game ended early: a player left for good
        if ev.get("stop_reason"):
            lines.append(ev["stop_reason"])
        if ev.get("log"):
            lines.append(Msg(N_("The whole game, every hand included, is in {log} (belfort "
                                "replay {log})"), log=ev["log"]))
        return Joined("\n", lines)
    if e == "error":
        return Msg(N_("Error: {text}"), text=ev["text"])
    return json.dumps(ev, default=str)


def undo_text(peer: SessionPeer) -> str:
    """Take back our last action (typed `undo`); what to tell the person."""
    try:
        cmd = peer.take_back(time.monotonic())
    except UndoRefused as exc:
        return Msg(N_("Cannot undo: {why}."), why=RefusalText(exc.refusal, peer.names))
    return Msg(N_("Taken back: {command}"), command=belfort.command_text(cmd))


def leave_command(node: Node, text: str) -> str:
    """`leave for good` typed (`leave` alone, or Ctrl-C, leaves for now); the answer."""
    if text.split() != ["leave", "for", "good"]:
        return Msg(N_("Type `leave for good` to leave this game for good (3-5 players: a bot "
                      "takes your seat at once; 2 players: the game ends here), or Ctrl-C to "
                      "leave it for now (`belfort rejoin` continues it)."))
    try:
        node.leave_for_good()
    except LeaveRefused as exc:
        return Msg(N_("Refused: {why}"), why=exc)
    if node.peer.n >= 3:
        return Msg(N_("You left the game for good: a bot plays your seat now."))
    return Msg(N_("You left the game for good: it ends here."))


def chat_events(peer: SessionPeer, count: int) -> tuple[int, list[dict[str, Any]]]:
    """The chat lines said since the first ``count``, as events of their own (a line of
    chat is never an alert, whatever it says); with the count to give next time."""
    count, lines = peer.chat.count, peer.chat.since(count)
    return count, [{"event": "chat", "seat": seat,
                    "name": peer.names[seat] if 0 <= seat < len(peer.names) else str(seat),
                    "text": text} for seat, text in lines]


def _stdin_lines(wake: Callable[[], object]) -> queue.Queue[str]:
    """Lines typed on standard input; each one ends the node's poll at once."""
    q: queue.Queue = queue.Queue()

    def reader():
        for line in sys.stdin:
            q.put(line.strip())
            wake()
    threading.Thread(target=reader, daemon=True).start()
    return q


def run_node(node: Node, args: argparse.Namespace, out: Printer) -> int:
    peer = node.peer
    lines = _stdin_lines(node.wake) if node.bot is None and not args.quiet and sys.stdin and \
        sys.stdin.isatty() else None
    node.set_pace(args.pace)
    node.play_again_until(getattr(args, "again", 0) or 0)
    game_id, reported = peer.cfg.game_id, set()
    if args.auto_handoff is not None:
        peer.configure_handoff(auto=args.auto_handoff)
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    shown_alerts = 0
    shown_chat = 0
    prompted = -1
    phase = None
    while not node.done():
        if deadline is not None and time.monotonic() > deadline:
            out({"event": "error", "text": Msg(N_("timed out")), **node.summary()})
            node.close()
            return 3
        node.step(IDLE_POLL_MS)
        while node.moves:        # this machine's address changed: told the others
            out(node.moves.pop(0))
        if peer.finished and peer.status == "over" and peer.cfg.game_id not in reported:
            reported.add(peer.cfg.game_id)
            out({"event": "game-over", **node.summary(), "names": peer.names})
        while node.news:         # the evening: its table, the next game
            out(node.news.pop(0))
        if node.peer.cfg.game_id != game_id:      # the next game of the evening began
            peer, game_id = node.peer, node.peer.cfg.game_id
            shown_alerts = shown_chat = 0
            prompted, phase = -1, None
        paused = peer.view.pause_reason(time.monotonic(), bot=node.bot is not None)
        if paused:
            # nobody to play with until they rejoin: stop here, the game stays resumable
            out({"event": "result", **node.summary(), "status": "paused", "stop_reason": paused,
                 "names": peer.names})
            node.leave_for_now()       # the others pause at once too, rather than a stall later
            node.close()
            return 4
        for a in peer.alerts[shown_alerts:]:
            out({"event": "alert", "kind": a.kind, "text": a.text, "seat": a.seat})
        shown_alerts = len(peer.alerts)
        shown_chat, said = chat_events(peer, shown_chat)
        for ev in said:
            out(ev)
        g = peer.game
        if args.json and g is not None and (g.round, g.phase) != phase:
            phase = (g.round, g.phase)     # for scripts and tests: how far the game is
            out({"event": "phase", "round": g.round, "phase": g.phase, "version": g.version})
        if lines is not None and not lines.empty() and lines.queue[0].startswith("handoff"):
            text = lines.get_nowait()
            out.say(handoff_command(peer, text))
        if lines is not None and not lines.empty() and lines.queue[0].startswith("leave"):
            out.say(leave_command(node, lines.get_nowait()))
            continue
        if lines is not None and not lines.empty() and lines.queue[0] in ("again", "evening"):
            word = lines.get_nowait()
            out.say(node.ask_again() if word == "again" else node.evening.text())
            continue
        if lines is not None and peer.decision_needed():
            g = peer.game
            if prompted != g.version:
                prompted = g.version
                legal = [belfort.command_text(c) for c in belfort.legal_commands(g, peer.seat)]
                out.say(Msg(N_("Your decision ({n} legal), e.g. {examples}"), n=len(legal),
                            examples=", ".join(legal[:6])))
            try:
                text = lines.get_nowait()
            except queue.Empty:
                continue
            if text == "undo":
                out.say(undo_text(peer))
                continue
            try:
                peer.submit(text, time.monotonic())
            except (belfort.BelfortError, RuntimeError) as exc:
                out.say(Msg(N_("Refused: {why}"), why=exc))
    for a in peer.alerts[shown_alerts:]:      # (a farewell: endgame.py)
        out({"event": "alert", "kind": a.kind, "text": a.text, "seat": a.seat})
    if peer.log_failed is not None:
        # our log cannot be written (a full disk): the others were told we left for now,
        # the alert said what to do (free space, `rejoin`); our bots play on
        out({"event": "result", **node.summary(), "names": peer.names})
        node.close()
        return 4
    summary = node.summary()
    summary["names"] = peer.names
    if args.latency_out:
        with open(args.latency_out, "w") as f:
            json.dump({"seat": peer.seat, "apply": [[s, v, t] for (s, v), t in
                                                   peer.apply_times.items()],
                       "sent": [[s, v, t] for (s, v), t in peer.sent_times.items()],
                       "t_session": node.t_session, "t_lobby_close": node.t_lobby_close,
                       "t_first_place": peer.t_first_place, "t_over": peer.t_over,
                       "cpu_session": node.cpu_session, "cpu_over": node.cpu_over,
                       "hash": summary["hash"], "history": len(peer.history),
                       "steps": node.steps}, f)
    out({"event": "result", **summary})
    node.close()
    # the bots we started are detached peers: once the game is over each leaves by its
    # own end-of-game rule (endgame.py), possibly later than us, serving a late rejoiner
    # (a seat handed to a bot leaves its bots playing with the others)
    for p in getattr(node, "procs", []) if peer.status != "over" and \
            not peer.handoffs.ours_handed and not node.left_for_good else []:
        try:
            p.wait(timeout=10)
        except Exception:
            p.kill()
    if peer.status == "over" and peer.audit_result and peer.audit_result[0]:
        return 0
    if node.left_for_good and peer.n >= 3 and (peer.status != "stopped"
                                                or peer.handoffs.ours_handed):
        return 0        # we left for good: a bot plays the seat now
    if peer.handoffs.ours_handed:
        return 5        # our seat was handed to a bot: the notice said so; no failure
    return 1


def read_ruleset(path: str) -> str | Msg:
    """The text of the ruleset ``--ruleset`` names, checked; or why it cannot be used (a
    message naming the file).  A name of a ruleset shipped with the game (``standard``,
    ``ten-space-taxes``) with no such file here is that ruleset, as for ``belfort play``."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        if path in shipped_rulesets():
            # the shipped ruleset itself: the same merged rules, so the same hash
            return f'based_on = "{path}"\n'
        return Msg(N_("cannot use the ruleset {file}: there is no such file"), file=path)
    except IsADirectoryError:
        return Msg(N_("cannot use the ruleset {file}: it is a directory"), file=path)
    except OSError as exc:
        return Msg(N_("cannot use the ruleset {path}: {error}"), path=path,
                   error=exc.strerror or str(exc))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Msg(N_("cannot use the ruleset {file}: it is not UTF-8 text"), file=path)
    try:
        belfort.parse_ruleset(text, path)
    except belfort.RulesetError as exc:
        return Msg(N_("bad ruleset {file}: {error}"), file=path, error=str(exc))
    return text


def start_node(args: argparse.Namespace, out: Printer) -> Node | int:
    """The lobby the arguments ask for (host, join, bot or rejoin): the started Node, or
    the exit code if it failed (the reason went to ``out``)."""
    given = {"heartbeat": args.heartbeat, "timeout": args.peer_timeout,
             "step_deadline": getattr(args, "step_deadline", None)}
    timing = Timing(**{name: value for name, value in given.items() if value})
    from net.node import node as nodemod
    ruleset_text = None
    if getattr(args, "ruleset", None):
        ruleset_text = read_ruleset(args.ruleset)
        if isinstance(ruleset_text, Msg):
            out({"event": "error", "text": ruleset_text})
            return 2
    try:
        if args.mode == "host":
            if not 2 <= args.players <= 5:
                out({"event": "error", "text": Msg(N_("--players must be 2 to 5"))})
                return 2
            if not 0 <= args.bots < args.players:
                # the host's own seat is a person's: bots fill at most the others
                out({"event": "error", "text": Msg(
                    N_("--bots {bots} does not fit --players {n}: the host is one of the "
                       "players, so 0 to {most} bots"),
                    bots=args.bots, n=args.players, most=args.players - 1)})
                return 2
            confirm = None
            if args.level is None and not args.auto_start and args.start_after is None:
                from .confirm import StartConfirmation
                confirm = StartConfirmation(out)     # a person hosts: they start it
            node = nodemod.host(args.name, players=args.players, options=_options(args),
                                should_start=confirm, announce=args.announce,
                                ruleset_text=ruleset_text, bind=args.bind, port=args.port,
                                data_dir=args.data_dir, bots=args.bots, bot_level=args.bot_level,
                                bot_think=args.think, start_after=args.start_after,
                                advertise=args.advertise, on_event=out, timing=timing,
                                level=args.level, test_secret=args.test_secret,
                                bot_args=(["--heartbeat", str(args.heartbeat)] if args.heartbeat
                                          else []) +
                                         (["--auto-handoff", str(args.auto_handoff)]
                                          if args.auto_handoff is not None else []))
        elif args.mode == "join":
            address, announced = args.address, None
            if address is None:
                from .choose import choose_game
                game = choose_game(out, host=args.host_name)
                if game is None:
                    return 2
                address = game.address
                announced = (game.host, game.fingerprint)    # the lobby must prove this key
            node = nodemod.join(address, args.name, data_dir=args.data_dir, bind=args.bind,
                                level=args.level, bot_think=args.think, ruleset_text=ruleset_text,
                                on_event=out, timing=timing, test_secret=args.test_secret,
                                announced=announced, mesh_port=args.port)
        elif args.mode == "bot":
            import secrets
            name = args.name or f"bot-{secrets.token_hex(2)}"
            node = nodemod.join(args.address, name, data_dir=args.data_dir, bind=args.bind,
                                kind="bot", level=args.level or "normal", bot_think=args.think,
                                on_event=out, timing=timing, test_secret=args.test_secret,
                                mesh_port=args.port)
        else:
            node = nodemod.rejoin(args.dir, data_dir=args.data_dir, on_event=out, timing=timing,
                                  game_id=args.game)
    except LobbyError as exc:
        # args[0]: the msgs.Msg itself (str(exc) would drop its template)
        out({"event": "error", "text": exc.args[0] if exc.args else str(exc)})
        return 2
    except KeyboardInterrupt:
        return 130
    return node


def setup_logging(args: argparse.Namespace) -> None:
    logging.basicConfig(level=logging.ERROR if args.quiet or args.json else logging.WARNING,
                        format="%(name)s: %(message)s")


def main(argv: Sequence[str] | None = None, prog: str = "python -m client.peer") -> int:
    args = build_parser(prog).parse_args(argv)
    setup_logging(args)
    out = Printer(args.json, args.quiet)
    node = start_node(args, out)
    if isinstance(node, int):
        return node
    signal.signal(signal.SIGTERM, _leaving)
    try:
        return run_node(node, args, out)
    except (KeyboardInterrupt, Leaving) as exc:
        return leave_for_now(node, out, 143 if isinstance(exc, Leaving) else 130)


class Leaving(BaseException):
    """SIGTERM: leave for now, as Ctrl-C does (a BaseException, like KeyboardInterrupt, so
    that nothing catching Exception swallows it)."""


def _leaving(signum, frame):
    raise Leaving()


def leave_for_now(node: Node, out: Printer, code: int) -> int:
    """Stopped (Ctrl-C, SIGTERM) before the end: tell the others we left for now, so they
    wait for our rejoin instead of reporting a disconnection."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if not node.closed and not node.peer.finished:
        node.leave_for_now()
        out({"event": "left", "text": Msg(N_("you left the game for now; `belfort rejoin` "
                                             "continues it")),
             **node.summary()})
    node.close()
    return code


if __name__ == "__main__":
    if os.environ.get("BELFORT_PROFILE"):
        import cProfile
        cProfile.run("rc = main()", os.environ["BELFORT_PROFILE"] + f".{os.getpid()}")
        sys.exit(0)
    sys.exit(main())
