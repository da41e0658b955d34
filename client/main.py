"""The `belfort` command.

    belfort play [--players N] [--bots K] [--bot LEVEL] [--seed S] [--guilds MODE]
                 [--ruleset FILE] [--name NAME] [--pace SEC] [--log FILE] [--plain]
    belfort host|join ADDR|rejoin|bot     networked play: net.session.cli starts the lobby
    belfort rules [TOPIC]                 the rules reference
    belfort replay LOG [--plain]          step through a finished game's log
"""

from __future__ import annotations

import argparse
import os
import sys

import belfort

from . import gamelog, rules_text

LEVELS = ("random", "easy", "normal", "hard")


def _common(p):
    p.add_argument("--plain", action="store_true",
                   help="line-by-line mode: no full-screen terminal needed (screen readers, pipes)")
    p.add_argument("--no-color", "--no-colour", dest="colour", action="store_false",
                   default=None, help="letters only (also: the NO_COLOR environment variable)")
    p.add_argument("--name", default=None, help="your name (default: You)")


def parser():
    ap = argparse.ArgumentParser(prog="belfort",
                                 description="Belfort, the board game, in the terminal.")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")
    play = sub.add_parser("play", help="play against bots on this machine (the default)")
    play.add_argument("--players", type=int, default=None,
                      help="players in all, 2–5 (default: bots + 1, so 4)")
    play.add_argument("--bots", type=int, default=None,
                      help="how many bots (default 3, or players − 1)")
    play.add_argument("--bot", "--level", dest="level", default="normal", choices=LEVELS,
                      help="how well the bots play (default normal)")
    play.add_argument("--seed", default=None, help="the game's seed (default: random)")
    play.add_argument("--guilds", default="normal",
                      help="beginner | normal | advanced | five guild names, comma-separated")
    play.add_argument("--ruleset", default=None, metavar="FILE",
                      help="a ruleset TOML file (default: the standard rules)")
    play.add_argument("--pace", type=float, default=None,
                      help="seconds between bot moves (default 0.4; 0 in plain mode on a pipe)")
    play.add_argument("--think", type=float, default=0.5,
                      help="seconds a bot may think (default 0.5)")
    play.add_argument("--log", default=None, metavar="FILE",
                      help=f"write the game log here (default: {gamelog.default_dir()}/…)")
    play.add_argument("--no-log", action="store_true", help="write no game log")
    play.add_argument("--lan", action="store_true",
                      help="run it as a LAN session on this machine: each bot a peer process, "
                           "the deck jointly shuffled and encrypted")
    play.add_argument("--data-dir", default=None,
                      help="with --lan: where the session keeps its logs and keys")
    _common(play)
    # handled by net.session.cli (see cmd_network); listed here for --help
    sub.add_parser("host", help="host a game on the local network (belfort host --help)")
    sub.add_parser("join", help="join a game: belfort join ADDR (the address the host printed)")
    sub.add_parser("rejoin", help="rejoin an unfinished networked game")
    sub.add_parser("bot", help="add a bot peer to a networked game")
    rules = sub.add_parser("rules", help="print the rules reference (a phase, card or guild)")
    rules.add_argument("topic", nargs="*", help="e.g. placement, tower, spies, build")
    rules.add_argument("--ruleset", default=None, metavar="FILE")
    rep = sub.add_parser("replay", help="step through a finished game's log")
    rep.add_argument("log", help="a game log file (.jsonl)")
    rep.add_argument("--plain", action="store_true", help="print the game as sentences")
    rep.add_argument("--no-color", "--no-colour", dest="colour", action="store_false",
                     default=None)
    return ap


def fail(msg, code=2):
    print(f"belfort: {msg}", file=sys.stderr)
    return code


def cmd_rules(args):
    try:
        rs = belfort.load_ruleset(args.ruleset)
    except belfort.RulesetError as exc:
        return fail(str(exc))
    if not args.topic:
        print(rules_text.render_all(rs))
        return 0
    topic = " ".join(args.topic)
    found = rules_text.lookup(rs, topic)
    if found is None:
        print(f"No rules topic {topic!r}. Topics: " + ", ".join(rules_text.topic_names(rs)),
              file=sys.stderr)
        return 1
    title, text = found
    print(f"{title}\n{'=' * len(title)}\n{text}")
    return 0


def _guilds(value):
    if value in ("beginner", "normal", "advanced") or "," not in value:
        return value
    names = [g.strip().lower() for g in value.split(",") if g.strip()]
    return names


def _you(name):
    if name:
        return name.strip()[:12] or "You"
    return "You"


def cmd_play_lan(args, players):
    """`belfort play --lan`: the same peer-to-peer session as a LAN game, on this machine's
    loopback, with every bot a peer process of its own (hidden deck and all)."""
    import logging

    from net.session import node as session
    from net.session.lobby import LobbyError
    ruleset_text = None
    if args.ruleset:
        try:
            belfort.load_ruleset(args.ruleset)          # a clear message for a bad file
        except belfort.RulesetError as exc:
            return fail(str(exc))
        with open(args.ruleset, encoding="utf-8") as f:
            ruleset_text = f.read()
    logging.basicConfig(level=logging.ERROR, format="%(name)s: %(message)s")
    try:
        node = session.host(_you(args.name), players=players, options={"guilds": _guilds(args.guilds)},
                            ruleset_text=ruleset_text, bind="127.0.0.1", port=0,
                            data_dir=args.data_dir, bots=players - 1, bot_level=args.level,
                            bot_think=args.think, on_event=lambda ev: None,
                            # the same seed gives the same deal
                            test_secret=None if args.seed is None else str(args.seed))
    except LobbyError as exc:
        return fail(str(exc))
    return play_networked(node, plain=args.plain, colour=args.colour)


def cmd_play(args):
    from .driver import LocalDriver, seat_names
    players, bots = args.players, args.bots
    if players is None and bots is None:
        bots = 3
    if players is None:
        players = bots + 1
    if bots is None:
        bots = players - 1
    if not 2 <= players <= 5:
        return fail(f"Belfort is for 2 to 5 players, not {players}")
    if bots != players - 1:
        return fail(f"one person per window: --players {players} needs --bots {players - 1} "
                    "(other people join with belfort host / join)")
    if args.lan:
        return cmd_play_lan(args, players)
    ruleset = None
    if args.ruleset:
        try:
            ruleset = belfort.load_ruleset(args.ruleset)
        except belfort.RulesetError as exc:
            return fail(str(exc))
    seed = args.seed if args.seed is not None else os.urandom(4).hex()
    names = seat_names(_you(args.name), players)
    pace = args.pace
    if pace is None:
        pace = 0.0 if (args.plain and not sys.stdout.isatty()) else 0.4
    log_path = None
    if not args.no_log:
        log_path = args.log or gamelog.default_path()
    try:
        driver = LocalDriver(names, you=0, options={"guilds": _guilds(args.guilds)}, seed=seed,
                             ruleset=ruleset, bot_level=args.level, pace=pace,
                             think=args.think, log_path=log_path)
    except belfort.SetupError as exc:
        return fail(str(exc))
    if driver.log is None:
        log_path = None
    if args.plain:
        from .plain import PlainUI
        print(f"Seed {seed}.", flush=True)
        return PlainUI(driver, log_path=log_path).run()
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return fail("the full-screen window needs a terminal; use --plain for pipes")
    from .app import BelfortApp
    app = BelfortApp(driver, colour=args.colour, log_path=log_path)
    app.run()
    v = driver.view()
    if log_path:
        print(f"Game log: {log_path}   (belfort replay {log_path})")
    if v["phase"] != "over":
        when = f"in month {v['round']}" if v["round"] else "during setup"
        print(f"Left the game {when}. Seed {seed}.")
    return 0


NET_COMMANDS = ("host", "join", "rejoin", "bot")


def cmd_network(argv):
    """`belfort host|join|rejoin|bot …` belong to the networked session: its lobby
    (net.session.cli.start) gives a node, played in the window through a NetDriver."""
    from net.session import cli
    args = cli.parser().parse_args(list(argv))
    node = cli.start(args)
    if isinstance(node, int):
        return node
    if node.bot is not None:           # a bot seat: no window
        return cli.play_text(node, args)
    return play_networked(node, plain=args.plain, colour=args.colour)


def play_networked(node, plain=False, colour=None):
    """The window (or --plain) on a started networked node; the exit code."""
    from net.session.driver import NetDriver
    driver = NetDriver(node)
    driver.start()
    try:
        return open_window(driver, plain=plain, colour=colour)
    finally:
        driver.leave()


def open_window(driver, plain=False, colour=None, log_path=None):
    """Run the window (or --plain) on any GameDriver until the person leaves; the exit
    code. For the networked session's commands."""
    if plain:
        from .plain import PlainUI
        return PlainUI(driver, log_path=log_path).run()
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return fail("the full-screen window needs a terminal; use --plain for pipes")
    from .app import BelfortApp
    BelfortApp(driver, colour=colour, log_path=log_path).run()
    return 0


def cmd_replay(args):
    from . import replay
    try:
        if args.plain or not sys.stdout.isatty():
            return replay.run_plain(args.log)
        from .app import want_colour
        return replay.run_fullscreen(args.log, colour=want_colour(args.colour))
    except gamelog.LogError as exc:
        return fail(str(exc), 1)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in NET_COMMANDS:
        try:
            return cmd_network(argv)
        except KeyboardInterrupt:
            return 130
    args = parser().parse_args(argv)
    if args.cmd is None:
        args = parser().parse_args(["play"] + argv)
    try:
        if args.cmd == "play":
            return cmd_play(args)
        if args.cmd == "rules":
            return cmd_rules(args)
        if args.cmd == "replay":
            return cmd_replay(args)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
