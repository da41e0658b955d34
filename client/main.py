"""The `belfort` command.

    belfort play [--players N] [--bots K] [--bot LEVEL] [--seed S] [--guilds MODE]
                 [--ruleset FILE] [--name NAME] [--pace SEC] [--log FILE] [--plain] [--learn]
    belfort play --resume [LOG]           continue a game that was left (default: the last)
    belfort tutorial [--plain]            a guided first game against beginner bots
    belfort host|join ADDR|rejoin|bot     networked play: client.netcli starts the lobby
    belfort rules [TOPIC]                 the rules reference
    belfort replay [LOG] [--plain] [--month N | --scoring K | --step N] [--chart FILE]
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import belfort
from net.argtypes import seconds_type

from . import gamelog, rules_text
from .i18n import (LANG_OPTION_HELP, LANGUAGES, UnknownLanguage, _, activate,
                   active_language, canonical_line, cell_width, choose_language)
from .i18n import argparse_text

if TYPE_CHECKING:
    from belfort.errors import RulesetError
    from net.node.node import Node

    from .netdriver import NetDriver

    from .driver import GameDriver

# "beginner" is the level for a first game (belfort.bots, when it has it: see bot_level)
LEVELS = ("beginner", "random", "easy", "normal", "hard")
FIRST_GAME_LEVEL = "beginner"


def engine_levels() -> tuple[str, ...]:
    """The bot levels belfort.bots offers in this installation."""
    try:
        from belfort.bots import LEVELS as levels
    except ImportError:          # pragma: no cover - no bots package: the random bot only
        return ("random",)
    return tuple(levels)


def bot_level(level: str) -> tuple[str, str | None]:
    """(the level to play, a note for the person or None): a level this installation lacks
    (the beginner bot before it exists) falls back to easy, and says so."""
    if level in engine_levels():
        return level, None
    fallback = "easy" if "easy" in engine_levels() else "random"
    return fallback, _("The {level} bots are not in this version: playing against {fallback} "
                       "bots instead.").format(level=level, fallback=fallback)


def first_game() -> bool:
    """No game log yet: this is (very likely) the person's first game."""
    d = gamelog.default_dir()
    try:
        return not any(d.glob("*.jsonl"))
    except OSError:
        return True


def first_game_note(level: str) -> str | None:
    if level in (FIRST_GAME_LEVEL, "random"):
        return None
    return _("First game? 'belfort tutorial' explains each phase as it comes; 'belfort play "
             "--bot beginner' gives bots you can beat; 'help screen' explains this board.")


def _lang_option(p: argparse.ArgumentParser) -> None:
    # read by main() before parsing (so the help is in the chosen language); listed here
    p.add_argument("--lang", default=None, metavar="LANG",
                   help=_(LANG_OPTION_HELP).format(choices=", ".join(LANGUAGES)))


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plain", action="store_true",
                   help=_("line-by-line mode: no full-screen terminal needed (screen readers, "
                          "pipes)"))
    p.add_argument("--no-color", "--no-colour", dest="colour", action="store_false",
                   default=None, help=_("letters only (also: the NO_COLOR environment "
                                        "variable)"))
    p.add_argument("--name", default=None, metavar=_("NAME"), help=_("your name (default: You)"))
    _lang_option(p)


def parser() -> argparse.ArgumentParser:
    fmt = argparse_text.CellWidthHelpFormatter       # Korean help measured in cells
    ap = argparse.ArgumentParser(prog="belfort", formatter_class=fmt,
                                 description=_("Belfort, the board game, in the terminal."))
    sub = ap.add_subparsers(dest="cmd", metavar=_("COMMAND"))
    play = sub.add_parser("play", formatter_class=fmt,
                          help=_("play against bots on this machine (the default)"))
    play.add_argument("--players", type=int, default=None, metavar="N",
                      help=_("players in all, 2–5 (default: bots + 1, so 3)"))
    play.add_argument("--bots", type=int, default=None, metavar="N",
                      help=_("how many bots (default 2, or players − 1)"))
    play.add_argument("--bot", "--level", dest="level", default="normal", choices=LEVELS,
                      metavar=_("LEVEL"),
                      help=_("how well the bots play: beginner (for a first game), random (the "
                             "gentlest: it plays any legal move), easy, normal (the default), "
                             "hard"))
    play.add_argument("--seed", default=None, metavar=_("SEED"),
                      help=_("the game's seed (default: random)"))
    play.add_argument("--guilds", default="normal", metavar=_("GUILDS"),
                      help=_("beginner | normal | advanced | five guild names, comma-separated"))
    play.add_argument("--ruleset", default=None, metavar=_("FILE"),
                      help=_("a ruleset TOML file (default: the standard rules)"))
    play.add_argument("--pace", type=seconds_type(_), default=None, metavar=_("SECONDS"),
                      help=_("seconds between bot moves (default 0.4; 0 in plain mode on a "
                             "pipe)"))
    play.add_argument("--think", type=seconds_type(_), default=0.5, metavar=_("SECONDS"),
                      help=_("seconds a bot may think (default 0.5)"))
    play.add_argument("--log", default=None, metavar=_("FILE"),
                      help=_("write the game log here (default: {dir}/…)").format(
                          dir=gamelog.default_dir()))
    play.add_argument("--no-log", action="store_true", help=_("write no game log"))
    play.add_argument("--resume", nargs="?", const=True, default=None, metavar=_("FILE"),
                      help=_("continue a game you left (its log); default: the last one"))
    play.add_argument("--lan", action="store_true",
                      help=_("run it as a LAN session on this machine: each bot a peer "
                             "process, the deck jointly shuffled and encrypted"))
    play.add_argument("--data-dir", default=None, metavar=_("DIR"),
                      help=_("with --lan: where the session keeps its logs and keys"))
    play.add_argument("--learn", action="store_true",
                      help=_("explain each phase the first time it comes (as belfort "
                             "tutorial)"))
    _common(play)
    tut = sub.add_parser("tutorial", formatter_class=fmt,
                         help=_("a guided first game: each phase explained as it comes, "
                                "against beginner bots"))
    tut.add_argument("--players", type=int, default=3, metavar="N",
                     help=_("players in all, 2–5 (default 3)"))
    tut.add_argument("--bot", "--level", dest="level", default=FIRST_GAME_LEVEL,
                     metavar=_("LEVEL"),
                     choices=LEVELS, help=_("the bots' level (default beginner)"))
    tut.add_argument("--seed", default=None, metavar=_("SEED"),
                     help=_("the game's seed (default: random)"))
    _common(tut)
    # handled by client.netcli (see cmd_network); listed here for --help
    sub.add_parser("host", help=_("host a game on the local network (belfort host --help)"))
    sub.add_parser("join", help=_("join a game: belfort join ADDR (the address the host "
                                  "printed)"))
    sub.add_parser("rejoin", help=_("rejoin an unfinished networked game"))
    sub.add_parser("bot", help=_("add a bot peer to a networked game"))
    hlp = sub.add_parser("help", formatter_class=fmt,
                         help=_("this help, or a topic: belfort help network (playing with a "
                                "friend elsewhere), or a rules topic"))
    hlp.add_argument("topic", nargs="*", metavar=_("TOPIC"))
    _lang_option(hlp)
    rules = sub.add_parser("rules", formatter_class=fmt,
                           help=_("print the rules reference (a phase, card or guild)"))
    rules.add_argument("topic", nargs="*", metavar=_("TOPIC"),
                       help=_("e.g. placement, tower, spies, build"))
    rules.add_argument("--ruleset", default=None, metavar=_("FILE"))
    _lang_option(rules)
    rep = sub.add_parser("replay", formatter_class=fmt, help=_("step through a game's log"))
    rep.add_argument("log", nargs="?", default=None, metavar=_("FILE"),
                     help=_("a game log file (.jsonl); none: choose among the last games "
                            "played here"))
    rep.add_argument("--plain", action="store_true", help=_("print the game as sentences"))
    jump = rep.add_mutually_exclusive_group()
    jump.add_argument("--month", type=int, default=None, metavar="N",
                      help=_("print the table at the start of month N (plain)"))
    jump.add_argument("--scoring", type=int, default=None, metavar="K",
                      help=_("print the table right after the K-th scoring phase (plain)"))
    jump.add_argument("--step", type=int, default=None, metavar="N",
                      help=_("print the table after step N (plain)"))
    rep.add_argument("--chart", default=None, metavar=_("FILE"),
                     help=_("write the score-by-month chart as SVG to FILE"))
    rep.add_argument("--no-color", "--no-colour", dest="colour", action="store_false",
                     default=None)
    _lang_option(rep)
    _lang_option(ap)
    return ap


def fail(msg: str, code: int = 2) -> int:
    print(f"belfort: {msg}", file=sys.stderr)
    return code


def ruleset_message(exc: RulesetError, path: str) -> str:
    """A refused ruleset file, in one sentence naming the file."""
    from .reasons import ruleset_text
    if exc.field == "(file)":
        return ruleset_text(exc.field, exc.reason)   # it names the file: "cannot read x.toml"
    return _("cannot use the ruleset {path}: {error}").format(
        path=path, error=ruleset_text(exc.field, exc.reason))


def cmd_help(args: argparse.Namespace) -> int:
    """``belfort help``: the commands; ``belfort help network``: playing with a friend
    elsewhere; any other topic is the rules reference's (as ``belfort rules TOPIC``)."""
    from .nethelp import TOPICS, network_help
    topic = " ".join(args.topic).strip().lower()
    if not topic:
        parser().print_help()
        return 0
    if topic in TOPICS:
        print(network_help())
        return 0
    return cmd_rules(argparse.Namespace(topic=args.topic, ruleset=None))


def cmd_rules(args: argparse.Namespace) -> int:
    try:
        rs = belfort.load_ruleset(args.ruleset)
    except belfort.RulesetError as exc:
        return fail(ruleset_message(exc, args.ruleset))
    if not args.topic:
        print(rules_text.render_all(rs))
        return 0
    topic = " ".join(args.topic)
    # the topic may be typed in the active language ('tour', 'corps de garde')
    canon = canonical_line("help " + topic, active_language()).split(None, 1)
    found = rules_text.lookup(rs, canon[1] if len(canon) > 1 else topic)
    if found is None:
        print("belfort: " + _("no topic '{topic}'; topics are {topics}, and any card, guild "
                              "or command name").format(
            topic=topic, topics=", ".join(rules_text.main_topics(rs, localized=True))),
              file=sys.stderr)
        return 1
    title, text = found
    print(f"{title}\n{'=' * cell_width(title)}\n{text}")
    return 0


def _guilds(value):
    if value in ("beginner", "normal", "advanced") or "," not in value:
        return value
    names = [g.strip().lower() for g in value.split(",") if g.strip()]
    return names


def _you(name):
    if name:
        return name.strip()[:12] or _("You")
    return _("You")


def cmd_play_lan(args: argparse.Namespace, players: int) -> int:
    """`belfort play --lan`: the same peer-to-peer session as a LAN game, on this machine's
    loopback, with every bot a peer process of its own (hidden deck and all)."""
    from . import termguard
    from .driver import seat_names
    from net.node import node as session
    from net.node.lobby import LobbyError
    ruleset_text = None
    if args.ruleset:
        try:
            belfort.load_ruleset(args.ruleset)          # a clear message for a bad file
            with open(args.ruleset, encoding="utf-8") as f:
                ruleset_text = f.read()
        except belfort.RulesetError as exc:
            return fail(ruleset_message(exc, args.ruleset))
    termguard.log_to_file(termguard.log_path(args.data_dir), logging.ERROR)
    try:
        node = session.host(_you(args.name), players=players,
                            options={"guilds": _guilds(args.guilds)}, ruleset_text=ruleset_text,
                            bind="127.0.0.1", port=0, data_dir=args.data_dir, bots=players - 1,
                            bot_names=seat_names(_you(args.name), players)[1:],
                            bot_level=bot_level(args.level)[0], bot_think=args.think,
                            on_event=lambda ev: None,
                            # the same seed gives the same deal
                            test_secret=None if args.seed is None else str(args.seed))
    except LobbyError as exc:
        return fail(str(exc))
    return play_networked(node, plain=args.plain, colour=args.colour,
                          log_file=termguard.log_path(args.data_dir))


def cmd_resume(args: argparse.Namespace) -> int:
    """`belfort play --resume [LOG]`: the game goes on exactly where it stopped."""
    from .driver import resume_game
    fixed = [flag for flag, given in (
        ("--players", args.players is not None), ("--bots", args.bots is not None),
        ("--seed", args.seed is not None), ("--ruleset", args.ruleset is not None),
        ("--guilds", args.guilds != "normal"), ("--bot", args.level != "normal"),
        ("--think", args.think != 0.5), ("--log", args.log is not None),
        ("--no-log", args.no_log), ("--lan", args.lan), ("--name", args.name is not None),
        ("--learn", getattr(args, "learn", False)), ("--data-dir", args.data_dir is not None))
        if given]
    if fixed:
        return fail(_("--resume continues a game as it was: leave out {options}").format(
            options=", ".join(fixed)))
    path = None if args.resume is True else args.resume
    pace = args.pace
    if pace is None:
        pace = 0.0 if (args.plain and not sys.stdout.isatty()) else 0.4
    if not args.plain and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        return fail(_("the full-screen window needs a terminal; use --plain for pipes"))
    try:
        driver, log_path, notes = resume_game(path, pace=pace)
    except gamelog.LogError as exc:
        return fail(str(exc), 1)
    for note in notes:
        print(note, flush=True)
    v = driver.view()
    when = _("month {m}").format(m=v["round"]) if v["round"] else _("setup")
    print(_("Resuming {log}: {names} — {when}. Seed {seed}.").format(
        log=log_path, names=", ".join(driver.names), when=when, seed=driver.seed), flush=True)
    return _play_window(args, driver, log_path, driver.seed)


def _play_window(args, driver, log_path, seed, notes=(), coach=None):
    if args.plain:
        from .plain import PlainUI
        return PlainUI(driver, log_path=log_path, notes=list(notes), coach=coach).run()
    from .app import BelfortApp
    app = BelfortApp(driver, colour=args.colour, log_path=log_path, notes=list(notes),
                     coach=coach)
    app.run()
    v = driver.view()
    if log_path:
        print(_("Game log: {log}   (belfort replay {log})").format(log=log_path))
    if app.left == "kept":
        print(_("The game is kept: belfort play --resume {log} continues it.").format(
            log=log_path))
    elif app.left == "abandoned":
        print(_("The game is abandoned: --resume will not offer it."))
    if v["phase"] != "over":
        if v["round"]:
            print(_("Left the game in month {m}. Seed {seed}.").format(m=v["round"], seed=seed))
        else:
            print(_("Left the game during setup. Seed {seed}.").format(seed=seed))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .driver import LocalDriver, seat_names
    if args.resume is not None:
        return cmd_resume(args)
    players, bots = args.players, args.bots
    if players is None and bots is None:
        # three players: the board is less crowded at 80x24 and the waits are shorter
        bots = 2
    if players is None:
        players = bots + 1
    if bots is None:
        bots = players - 1
    if not 2 <= players <= 5:
        return fail(_("Belfort is for 2 to 5 players, not {n}").format(n=players))
    if bots != players - 1:
        return fail(_("one person per window: --players {n} needs --bots {bots} (other people "
                      "join with belfort host / join)").format(n=players, bots=players - 1))
    if args.lan:
        if args.learn:
            return fail(_("--learn explains a game on this machine: leave out --lan"))
        return cmd_play_lan(args, players)
    if args.data_dir is not None:
        return fail(_("--data-dir is where a LAN session keeps its files (with --lan); a game "
                      "on this machine is written where --log says"))
    ruleset = None
    if args.ruleset:
        try:
            ruleset = belfort.load_ruleset(args.ruleset)
        except belfort.RulesetError as exc:
            return fail(ruleset_message(exc, args.ruleset))
    level, level_note = bot_level(args.level)
    notes = [level_note] if level_note else []
    if first_game() and not args.learn:
        note = first_game_note(args.level)
        if note:
            notes.append(note)
    coach = None
    if args.learn:
        from .coach import Coach
        coach = Coach(ruleset or belfort.standard_ruleset(), 0)
    seed = args.seed if args.seed is not None else os.urandom(4).hex()
    names = seat_names(_you(args.name), players)
    pace = args.pace
    if pace is None:
        pace = 0.0 if (args.plain and not sys.stdout.isatty()) else 0.4
    if not args.plain and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        return fail(_("the full-screen window needs a terminal; use --plain for pipes"))
    log_path = None
    if not args.no_log:
        log_path = args.log or gamelog.default_path()
        if os.path.lexists(log_path):
            return fail(_("{log} already exists: a game log is never written over (choose "
                          "another --log, or continue it: belfort play --resume {log})"
                          ).format(log=log_path))
    try:
        driver = LocalDriver(names, you=0, options={"guilds": _guilds(args.guilds)}, seed=seed,
                             ruleset=ruleset, bot_level=level, pace=pace,
                             think=args.think, log_path=log_path)
    except belfort.SetupError as exc:
        return fail(str(exc))
    if driver.log is None:
        log_path = None
        for a in driver.alerts:          # e.g. --log names a file that exists already
            print(f"belfort: {a.text}", file=sys.stderr, flush=True)
    if args.plain:
        print(_("Seed {seed}.").format(seed=seed), flush=True)
    return _play_window(args, driver, log_path, seed, notes=notes, coach=coach)


def cmd_tutorial(args: argparse.Namespace) -> int:
    """`belfort tutorial`: `belfort play --learn` against beginner bots."""
    argv = ["play", "--learn", "--players", str(args.players), "--bot", args.level]
    if args.seed is not None:
        argv += ["--seed", args.seed]
    if args.plain:
        argv.append("--plain")
    if args.colour is False:
        argv.append("--no-color")
    if args.name:
        argv += ["--name", args.name]
    return cmd_play(parser().parse_args(argv))


NET_COMMANDS = ("host", "join", "rejoin", "bot")


def check_ruleset_option(argv: Sequence[str]) -> str | None:
    """`belfort host|join --ruleset FILE`: an unusable FILE is refused here with a message
    (before the session starts), never a traceback. The error message, or None."""
    for i, arg in enumerate(argv):
        path = None
        if arg == "--ruleset" and i + 1 < len(argv):
            path = argv[i + 1]
        elif arg.startswith("--ruleset="):
            path = arg.split("=", 1)[1]
        if path is not None:
            try:
                belfort.load_ruleset(path)
            except belfort.RulesetError as exc:
                return ruleset_message(exc, path)
    return None


def cmd_network(argv: list[str]) -> int:
    """`belfort host|join|rejoin|bot …` belong to the networked session: its lobby
    (client.netcli.start) gives a node, played in the window through a NetDriver."""
    from client import netcli as cli

    from . import termguard
    from .netmessages import net_text
    args = cli.parser(tr=_, formatter=argparse_text.CellWidthHelpFormatter).parse_args(
        list(argv))
    # the session's log records go to a file, never over the window (they would shift its rows)
    log_file = termguard.log_path(args.data_dir)
    termguard.log_to_file(log_file, logging.ERROR if args.quiet or args.json else
                          logging.WARNING)
    node = cli.start(args, render=net_text)      # the lobby in the player's language
    if isinstance(node, int):
        return node
    if node.bot is not None:           # a bot seat: no window
        return cli.play_text(node, args, render=net_text)
    return play_networked(node, plain=args.plain, colour=args.colour, log_file=log_file)


def play_networked(node: Node, plain: bool = False, colour: bool | None = None,
                   log_file: str | Path | None = None) -> int:
    """The window (or --plain) on a started networked node; the exit code.  While the
    window is up, standard error goes to ``log_file`` (see client.termguard)."""
    import contextlib

    from client.netdriver import NetDriver

    from . import termguard
    if not plain and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        node.close()
        node.stop_own_bots()
        return fail("the full-screen window needs a terminal; use --plain for pipes")
    driver = NetDriver(node)
    driver.start()
    guard = termguard.stderr_into(log_file) if log_file is not None and not plain else \
        contextlib.nullcontext()
    from .netmessages import net_text
    notes: list[str | None] = []
    try:
        with guard:
            code = open_window(driver, plain=plain, colour=colour)
            while driver.next_game:
                # the same table plays again (net/session/evening.py): a new window on
                # the next game, played by the same node
                driver = NetDriver(node)
                driver.start()
                code = open_window(driver, plain=plain, colour=colour)
        # the window is gone: the terminal is ours again
        notes.append(serve_the_end(driver, lambda text: print(net_text(text), flush=True)))
    finally:
        notes.append(driver.leave())
    for note in notes:        # a seat killed at the very end can get the end from here later
        if note:
            print(net_text(note))
    if driver.left_for_now:
        print(_("You left the game for now: belfort rejoin brings you back where you were "
                "(on this machine, with its files)."))
    elif driver.left_for_good and len(driver.names) >= 3:
        print(_("You left the game for good: a bot plays your seat now."))
    if driver.game_log and not plain:
        print(_("The whole game, every hand included: {log}   (belfort replay {log})").format(
            log=driver.game_log))
    return code


def serve_the_end(driver: NetDriver, say: Callable[[str], object]) -> str | None:
    """After the window closed on a finished game: while a seat that has not finished may
    still fetch the end of the game from us (killed at the very end, rejoining), stay and
    ``say`` so; leave by ourselves once it has finished or the stall time passed.  Ctrl-C
    leaves at once (driver.leave() then gives the hint).  The farewell to print, or None."""
    staying = driver.staying()
    if staying is None:
        return None
    try:
        say(staying)
        return driver.serve_end()
    except KeyboardInterrupt:
        return None


def open_window(driver: GameDriver, plain: bool = False, colour: bool | None = None,
                log_path: str | Path | None = None) -> int:
    """Run the window (or --plain) on any GameDriver until the person leaves; the exit
    code. For the networked session's commands."""
    if plain:
        from .plain import PlainUI
        return PlainUI(driver, log_path=log_path).run()
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        return fail(_("the full-screen window needs a terminal; use --plain for pipes"))
    from .app import BelfortApp
    BelfortApp(driver, colour=colour, log_path=log_path).run()
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from . import replay
    if args.log is None:
        found = replay.recent_logs()
        if not found:
            return fail(_("No game log on this machine yet ({dir}): play a game first, or "
                          "name a log file: belfort replay FILE").format(
                              dir=gamelog.default_dir()), 1)
        args.log = replay.choose_log(found, sys.stdin, sys.stdout)
        if args.log is None:
            return 0
    try:
        if args.chart:
            replay.write_chart(args.log, args.chart)
            print(_("Wrote the score chart to {file}").format(file=args.chart))
            return 0
        jump = (args.month, args.scoring, args.step)
        if args.plain or not sys.stdout.isatty() or any(j is not None for j in jump):
            return replay.run_plain(args.log, month=args.month, scoring=args.scoring,
                                    step=args.step)
        from .app import want_colour
        return replay.run_fullscreen(args.log, colour=want_colour(args.colour))
    except gamelog.LogError as exc:
        return fail(str(exc), 1)


def take_lang_option(argv: list[str]) -> tuple[str | None, list[str]]:
    """(the value of --lang or None, argv without it): --lang works on every command, the
    networked ones included (their parser is net's, which knows nothing of languages)."""
    out, lang, i = [], None, 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--lang" and i + 1 < len(argv):
            lang, i = argv[i + 1], i + 2
            continue
        if arg.startswith("--lang="):
            lang = arg.split("=", 1)[1]
        else:
            out.append(arg)
        i += 1
    return lang, out


def set_language(option: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    """Speak `option` (--lang), else the environment's language; an error message or None."""
    try:
        activate(choose_language(option, environ))
    except UnknownLanguage as exc:
        activate(choose_language(None, environ))
        return str(exc)
    return None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    lang, argv = take_lang_option(argv)
    previous = active_language()
    argparse_text.install()       # argparse's 'usage:' and 'error:' in the language too
    bad_lang = set_language(lang)
    try:
        if bad_lang:
            return fail(bad_lang)
        return _run(argv)
    finally:
        activate(previous)          # main() called again in one process starts afresh


def _run(argv: list[str]) -> int:
    if argv and argv[0] in NET_COMMANDS:
        bad = check_ruleset_option(argv)
        if bad:
            return fail(bad)
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
        if args.cmd == "tutorial":
            return cmd_tutorial(args)
        if args.cmd == "rules":
            return cmd_rules(args)
        if args.cmd == "help":
            return cmd_help(args)
        if args.cmd == "replay":
            return cmd_replay(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_gone()
    return 0


def _reader_gone():
    """The program reading our output stopped (`belfort replay LOG --plain | head`): stop
    quietly. Python would report the broken pipe again when it flushes stdout at exit, so
    stdout is pointed at /dev/null first."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
