"""Where the game comes from: the `GameDriver` interface and the local (bots) driver.

The terminal program never touches a game state directly. It talks to a driver, an object
with every member of `GameDriver` (below): the window, plain mode and the Controller call
them plainly, never probing for one. `LocalDriver` is the engine and the bots in this
process; a networked session (`net/`) provides `NetDriver` with the same members; see
docs/client.md. A local game answers the LAN-only members with what fits a game nobody
else is at: no chat, nobody waited for, no stall, no seat to hand to a bot.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import belfort
from belfort import events as belfort_events
from belfort.undo import UndoStack
from net.alerts import Alert

from . import chart, gamelog
from .i18n import _
from .words import initials

if TYPE_CHECKING:
    from belfort.bots import Bot
    from belfort.commands import Command, Event
    from belfort.undo import Refusal


@runtime_checkable
class GameDriver(Protocol):
    """Every member the window (app.py), plain mode (plain.py) and the Controller use."""

    seat: int                   # our seat
    names: list[str]            # every seat's name, seat order
    ruleset: belfort.Ruleset    # the ruleset in force (help texts read their numbers here)
    alerts: list[Alert]         # desync, cheat, disconnect, reconnect, error, info
    seed: str | None            # the seed to show in the welcome (None: not shown)
    networked: bool             # a LAN game: the Controller adds say / handoff / waiting

    @property
    def can_keep(self) -> bool:
        """Leaving now can keep the game for `belfort play --resume`."""

    @property
    def game_log(self) -> str | None:
        """The complete game's log file once written, or None."""

    @property
    def handed(self) -> bool:
        """Our seat was handed to a bot: the game ended there for us."""

    def view(self) -> dict[str, Any]:
        """belfort.seat_view of the current state for our seat: a plain dict."""

    def legal(self) -> list[Command]:
        """Our legal command tuples; [] when no decision of ours is awaited."""

    def submit(self, command: Command | str) -> list[Event] | None:
        """Give a command (tuple or text) for our seat; raises belfort.CommandSyntaxError /
        belfort.IllegalCommandError at once when refused, and never blocks."""

    def subscribe(self, fn: Callable[[list[Event]], None]) -> None:
        """fn(events) is called in the event loop's thread after every change."""

    def past_events(self) -> list[Event]:
        """The events from before the window opened (a resumed or rejoined game)."""

    def peers(self) -> list[dict[str, Any]]:
        """[{"seat", "name", "kind", "state"}] of every seat."""

    def audit(self) -> tuple[bool, str] | None:
        """None while the game runs; at the end (ok: bool, text)."""

    async def run(self) -> None:
        """The background work (bots, network); returns when the game ends or on close."""

    def close(self) -> None:
        """Stop the background work."""

    def undo(self) -> Command:
        """Take back our last action, returning its command; raises
        belfort.undo.UndoRefused (its .refusal says why) when not allowed."""

    def undo_refusal(self) -> Refusal | None:
        """None when undo() would work now, else the belfort.undo.Refusal."""

    def leave(self, keep: bool = True) -> str | None:
        """The person leaves: keep the game for later or abandon it (when can_keep); a LAN
        game tells the others we left for now. Returns a farewell to print, or None."""

    def score_series(self) -> chart.ScoreSeries | None:
        """The scores after each month so far, for the end-of-game chart."""

    def say(self, text: str) -> None:
        """A chat line to the table (raises ValueError when there is nothing to say)."""

    def chat_since(self, count: int) -> tuple[int, list[tuple[int, str]]]:
        """(lines said so far, [(seat, text)] of those after the first `count`)."""

    def waiting(self) -> str:
        """Who the game waits for and how long they have been silent ('' when nobody)."""

    def stall(self) -> dict[str, Any]:
        """The same as data: {"seats", "paused", "stall_timeout", "text"}."""

    def handoff(self, seat: int) -> None:
        """Vote to hand a seat silent past the time-out to a bot; raises when not possible."""

    def handoff_candidates(self) -> list[int]:
        """Seats that could be handed to a bot now."""

    def text_command(self, text: str) -> str | None:
        """The answer to a LAN text command ('handoff 2'); None for anything else."""

    # the end of a LAN game and the evening at its table (net/session/departure.py,
    # net/session/evening.py); a local game answers as a table nobody else is at
    @property
    def ended(self) -> bool:
        """The game ended before the rules end it (a LAN player left it for good): its
        final table is shown as it stood."""

    @property
    def left_for_good(self) -> bool:
        """We left this LAN game for good."""

    @property
    def next_game(self) -> bool:
        """The same table began its next game (a new driver plays it)."""

    @property
    def at_table(self) -> bool:
        """The game is over and its table may still play again (a LAN game)."""

    def leave_for_good(self) -> bool:
        """Leave this LAN game for good: True when nothing more is shown here (a bot plays
        the seat), False when the game ends here with its final table; raises
        net.session.departure.LeaveRefused with the reason when not possible."""

    def again(self) -> str:
        """Ask for another game at this table once this one is over: what to tell."""

    def evening_text(self) -> str:
        """The evening's results at this table."""

    def table_notes(self) -> list[str]:
        """What the final table adds: why it ended early, the evening, how to play again."""


# What a game nobody else is at answers to the LAN-only members.
NO_STALL: dict[str, Any] = {"seats": [], "paused": None, "stall_timeout": None, "text": ""}


BOT_NAMES = ("Bo", "Cy", "Di", "Ed", "Fa")
try:
    from belfort.bots import LEVELS            # the levels this installation's bots offer
except ImportError:          # pragma: no cover - no bots package: the engine's random bot
    LEVELS = ("random",)  # type: ignore[assignment]


def make_bot(level: str, seed: str, think: float) -> Bot:
    """A bot of `level` from belfort.bots when it is there, else the engine's random bot."""
    try:
        from belfort.bots import make_bot as _make
    except ImportError:          # pragma: no cover - the bots package is not there yet
        return belfort.RandomBot(seed)
    return _make(level, seed, think=think)


class LocalDriver:
    """The engine and the bots in this process. Bots think in a worker thread on a copy of
    the state, so the window never waits for them; their moves are applied in the event
    loop's thread, paced by `pace` seconds so a person can follow them.

    Our seat may take back its own actions (`undo`) under belfort.undo's rule; bots never
    do. The game log is written as the game goes and is also the save: `resume` continues
    a game from its log exactly where it stopped."""

    def __init__(self, names: Sequence[str], you: int = 0, options: Mapping[str, Any] | None = None,
                 seed: bytes | str = "1", ruleset: belfort.Ruleset | None = None,
                 bot_level: str = "normal", pace: float = 0.4, think: float = 0.5,
                 log_path: str | Path | None = None,
                 bots: Mapping[int, Mapping[str, Any]] | Mapping[str, Mapping[str, Any]]
                 | None = None,
                 _resumed: tuple[Any, ...] | None = None) -> None:
        self.names = list(names)
        self.seat = you
        self.options = dict(options or {"guilds": "normal"})
        self.seed = str(seed)
        self.ruleset = ruleset if ruleset is not None else belfort.standard_ruleset()
        # Each bot as {"level", "seed", "think"}: given these and the state, a bot's choice
        # is fixed (belfort.bots keeps no memory between decisions), so a resumed bot
        # chooses what it would have chosen in the uninterrupted game.
        self.bot_specs: dict[int, dict[str, Any]] = \
            {int(s): dict(spec) for s, spec in bots.items()} if bots else {
                s: {"level": bot_level, "seed": f"{self.seed}/bot{s}", "think": think}
                for s in range(len(self.names)) if s != you}
        self.bot_level = bot_level
        self.bots = {s: make_bot(spec["level"], spec["seed"], spec["think"])
                     for s, spec in self.bot_specs.items()}
        self.pace = pace
        self.alerts: list[Alert] = []
        self._subs: list[Callable[[list[Event]], None]] = []
        self._wake: asyncio.Event | None = None
        self._closed = False
        self._thinking: set[int] = set()
        self._changes = 0            # counts every change, take-backs included
        self.log: gamelog.GameLogWriter | None = None
        self._log_alerted = False
        self._past: list[Event] = []   # a resumed game's events before this window (a recap)
        if _resumed is not None:
            runner, steps, series, writer, self._past = _resumed
            self.game, self.undo_stack, self.steps, self.series = \
                runner.game, runner.stack, steps, series
            self.log = writer
            return
        self.game = belfort.new_game(self.names, self.options, seed=self.seed,
                                     ruleset=self.ruleset)
        self.undo_stack = UndoStack()
        self.steps = []              # the log's steps: ("cmd", seat, cmd) | ("undo", seat, n)
        self.series = chart.new_series(self.game, initials(self.names))
        if log_path is not None:
            try:
                self.log = gamelog.GameLogWriter(log_path, self._header(), self._local())
            except (OSError, gamelog.LogError) as exc:
                self.alerts.append(Alert("info", _("Could not write the game log: {error}").format(
                    error=getattr(exc, "strerror", None) or exc)))

    @classmethod
    def resume(cls, log: gamelog.GameLog, pace: float = 0.4,
               writer: gamelog.GameLogWriter | None = None) -> LocalDriver:
        """The game of `log` (a gamelog.GameLog of a local game), replayed to its last step,
        ready to go on. Lines go to `writer` (default: appended to the same file). Raises
        gamelog.LogError when the game cannot be continued."""
        if not log.is_local_game:
            raise gamelog.LogError(_("{path} is not a game played on this machine against "
                                     "bots: it can be replayed, not resumed").format(
                                         path=log.path))
        if log.finished:
            raise gamelog.LogError(_("{path}: that game is over (belfort replay shows it)")
                                   .format(path=log.path))
        head, local = log.head, log.local
        you = local["you"]
        bots = local.get("bots") or {}
        n = len(head["players"])
        specs = {}
        for s in range(n):
            if s == you:
                continue
            spec = bots.get(str(s))
            if not isinstance(spec, dict) or spec.get("level") not in LEVELS or \
                    not isinstance(spec.get("seed"), str) or \
                    not isinstance(spec.get("think"), (int, float)):
                raise gamelog.LogError(_("{path}: the notes on the bot of seat {seat} are "
                                         "damaged: its game cannot be resumed exactly").format(
                                             path=log.path, seat=s))
            specs[s] = spec
        series = chart.new_series(gamelog.new_game_from(head, str(log.path)),
                                  initials(head["players"]))
        past = []

        def seen(runner, step, events):
            chart.see(series, events, runner.game)
            past.extend(events)
        done = gamelog.replay(log, on_step=seen)
        if done.problem is not None or log.problem is not None:
            raise gamelog.LogError(done.problem or log.problem)
        steps = [_as_driver_step(st) for st in log.steps[:done.applied]]
        if writer is None:
            writer = gamelog.GameLogWriter.append_to(log)
        drv = cls(head["players"], you=you, options=head.get("options"),
                  seed=gamelog.seed_of(head), ruleset=done.game.rs, pace=pace, bots=specs,
                  _resumed=(done.runner, steps, series, writer, past))
        writer.local(resumed=gamelog.now())     # the driver's log
        return drv

    # --- the interface -------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        return belfort.seat_view(self.game, self.seat)

    def legal(self) -> list[Command]:
        return belfort.legal_commands(self.game, self.seat)

    def submit(self, command: Command | str) -> list[Event]:
        events = self._apply(command, self.seat)
        return events

    def undo(self) -> Command | None:
        """Take back our last action (belfort.undo's rule); returns the command taken back.
        Raises belfort.undo.UndoRefused, changing nothing, when the rule does not allow it."""
        step = self.undo_stack.take_back(self.game, self.seat)
        self.steps.append(("undo", self.seat, step.tag))
        if self.log is not None:
            self.log.undo(self.seat, step.tag)
            self._check_log()
        self._changed([("undo", self.seat, step.command)])
        return step.command

    def past_events(self) -> list[Event]:
        """The events of a resumed game before this window opened, latest last ([] for a
        new game): the window's log starts with the latest of them."""
        return list(self._past)

    def undo_refusal(self) -> Refusal | None:
        """None when `undo` would work now, else the belfort.undo.Refusal."""
        return self.undo_stack.refusal(self.seat)

    # A game on this machine: nobody else at the table.
    networked = False
    handed = False       # a seat on one machine is never handed to a bot

    @property
    def game_log(self) -> str | None:
        """None: a local game's log is the save, whose path the program already shows."""
        return None

    def say(self, text: str) -> None:
        # never offered in a local game (the Controller adds `say` to LAN games only)
        raise RuntimeError("a game on this machine has nobody to talk to")

    def chat_since(self, count: int) -> tuple[int, list[tuple[int, str]]]:
        return 0, []

    def waiting(self) -> str:
        return ""

    def stall(self) -> dict[str, Any]:
        return dict(NO_STALL)

    def handoff(self, seat: int) -> None:
        raise RuntimeError("a game on this machine has no seat to hand to a bot")

    def handoff_candidates(self) -> list[int]:
        return []

    def text_command(self, text: str) -> str | None:
        return None

    ended = False            # the rules end a local game
    left_for_good = False
    next_game = False
    at_table = False

    def leave_for_good(self) -> bool:
        """Leaving a local game keeps or abandons it (leave): nothing is left for good."""
        self.leave(keep=False)
        return True

    def again(self) -> str:
        return _("Another game: start one with belfort play.")

    def evening_text(self) -> str:
        return ""

    def table_notes(self) -> list[str]:
        return []

    def subscribe(self, fn: Callable[[list[Event]], None]) -> None:
        self._subs.append(fn)

    def peers(self) -> list[dict[str, Any]]:
        out = []
        for s, name in enumerate(self.names):
            if s == self.seat:
                out.append({"seat": s, "name": name, "kind": "you", "state": "here"})
            else:
                out.append({"seat": s, "name": name, "kind": "bot",
                            "state": "thinking" if s in self._thinking else "here"})
        return out

    def audit(self) -> tuple[bool, str] | None:
        if not self.game.is_over():
            return None
        runner = gamelog.Runner(self._header())
        try:
            for n, (kind, a, b) in enumerate(self.steps):
                runner.step(gamelog.LogStep(kind, a, b, n))
        except belfort.BelfortError as exc:
            return False, _("Replaying the log fails: {error}").format(error=exc)
        mine, theirs = belfort.state_hash(self.game), belfort.state_hash(runner.game)
        if mine == theirs:
            return True, _("The {n} logged steps replay to the same final state ({hash}); a "
                           "local game has no shuffled deck to audit.").format(
                               n=len(self.steps), hash=mine[:12])
        return False, _("Replaying the log gives a different final state ({theirs} ≠ {mine})"
                        ).format(theirs=theirs[:12], mine=mine[:12])

    def score_series(self) -> chart.ScoreSeries:
        """The scores after each month so far (client.chart.ScoreSeries)."""
        return self.series

    @property
    def can_keep(self) -> bool:
        """Leaving now keeps the game for `belfort play --resume`."""
        return self.log is not None and self.log.error is None and not self.game.is_over()

    def leave(self, keep: bool = True) -> None:
        """The person leaves a running game: keep it for later (the log is the save) or
        abandon it (`--resume` will not offer it again)."""
        if self.log is not None and not self.game.is_over():
            if keep:
                self.log.local(left=gamelog.now())
            else:
                self.log.local(abandoned=gamelog.now())
        self.close()

    async def run(self) -> None:
        """Play the bots' decisions until the game is over or the driver is closed."""
        self._wake = asyncio.Event()
        while not self._closed and not self.game.is_over():
            seat = self.bot_to_move()
            if seat is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            changes = self._changes
            snapshot = self.game.copy()
            self._thinking.add(seat)
            self._notify([])
            started = time.monotonic()
            try:
                cmd = await asyncio.to_thread(self._choose, seat, snapshot)
            finally:
                self._thinking.discard(seat)
            rest = self.pace - (time.monotonic() - started)
            if rest > 0:
                await asyncio.sleep(rest)
            if self._closed:
                return
            if self._changes != changes:
                continue          # the game changed meanwhile (our choice, an undo): again
            self._play_bot(seat, cmd, snapshot)

    def bot_to_move(self) -> int | None:
        """The bot seat whose decision the game waits for (the lowest), or None."""
        seats = [s for s in self.game.waiting_for() if s in self.bots]
        return seats[0] if seats else None

    def play_bots(self, limit: int = 100000) -> None:
        """Play the bots' decisions now, in this thread, until the game waits for us (or is
        over): the same choices `run` makes, without the threads and the pacing."""
        for _step in range(limit):
            seat = self.bot_to_move()
            if seat is None or self.game.is_over():
                return
            snapshot = self.game.copy()
            self._play_bot(seat, self._choose(seat, snapshot), snapshot)

    def close(self) -> None:
        self._closed = True
        if self._wake is not None:
            self._wake.set()
        if self.log is not None:
            self.log.close()

    # --- inside ----------------------------------------------------------------------------
    def _header(self):
        return gamelog.header(self.names, self.options, self.seed, self.ruleset)

    def _local(self):
        return gamelog.local_notes(self.seat, self.bot_specs)

    def _choose(self, seat, snapshot):
        try:
            return self.bots[seat].choose(snapshot, seat)
        except Exception as exc:     # a bot bug must not end the game: fall back
            self.alerts.append(Alert("error", _("{name}'s bot failed ({error}); it plays at "
                                                "random for this move").format(
                                                    name=self.names[seat], error=exc), seat))
            return belfort.RandomBot(snapshot.version).choose(snapshot, seat)

    def _play_bot(self, seat, cmd, snapshot):
        try:
            self._apply(cmd, seat)
        except belfort.BelfortError as exc:
            self.alerts.append(Alert("error", _("{name}'s bot gave an illegal command: {error}")
                                     .format(name=self.names[seat], error=exc), seat))
            self._apply(belfort.RandomBot(snapshot.version).choose(self.game, seat), seat)

    def _apply(self, command, seat):
        before = self.game.copy()
        events = belfort.apply(self.game, command, seat)
        cmd = events[0][2]
        n = len(self.steps)
        self.undo_stack.record(before, self.game, seat, cmd, tag=n)
        self.steps.append(("cmd", seat, cmd))
        chart.see(self.series, events, self.game)
        if self.log is not None:
            self.log.command(seat, cmd)
            if any(e.event == "round" for e in belfort_events.named_known(events)):
                self.log.sync_soon()
            if self.game.is_over():
                self.log.finish(self.game)
            self._check_log()
        self._changed(events)
        return events

    def _changed(self, events):
        self._changes += 1
        self._notify(events)
        if self._wake is not None:
            self._wake.set()

    def _check_log(self) -> None:
        if self.log is not None and self.log.error and not self._log_alerted:
            self._log_alerted = True
            self.alerts.append(Alert("error", _("{error} — the game goes on, but it can no longer "
                                                "be resumed from this log").format(
                                                    error=self.log.error)))

    @property
    def history(self) -> list[tuple[int, Command]]:
        """[(seat, command)] of the commands in force (taken-back ones removed)."""
        out = []
        for kind, a, b in self.steps:
            if kind == "cmd":
                out.append((a, b))
            else:
                out.pop()
        return out

    def _notify(self, events):
        for fn in list(self._subs):
            fn(events)


def _as_driver_step(step):
    kind, a, b = step
    return (kind, a, belfort.parse_command(b)) if kind == "cmd" else (kind, a, b)


def seat_names(you_name: str, players: int) -> list[str]:
    """Our name first, then the bots' names (never two alike)."""
    names = [you_name]
    for b in BOT_NAMES:
        if len(names) == players:
            break
        if b.lower() != you_name.lower():
            names.append(b)
    return names


def resume_game(path: str | Path | None = None, directory: str | Path | None = None,
                pace: float = 0.4) -> tuple[LocalDriver, Path, list[str]]:
    """(driver, log path, notes) for `belfort play --resume [LOG]`: the game of `path`, or
    the last unfinished local game in `directory` (default: where games are logged).

    A log that is whole continues in the same file. A damaged one (cut mid-line, a bad line,
    a step that does not apply) is never written to: its good part is copied to a new file
    and the game goes on there; `notes` say so. Raises gamelog.LogError with a message
    naming the file when there is nothing that can be resumed."""
    notes: list[str] = []
    if path is None:
        found = gamelog.unfinished_games(directory)
        if not found:
            where = directory or gamelog.default_dir()
            raise gamelog.LogError(_("no unfinished game in {where} (belfort play starts one)")
                                   .format(where=where))
        log = found[0]
    else:
        log = gamelog.load(path)
    gamelog.new_game_from(log.head, str(log.path))      # a header that cannot start a game
    if not log.is_local_game:
        raise gamelog.LogError(_("{path} is not a game played on this machine against bots: it "
                                 "can be replayed (belfort replay), not resumed").format(
                                     path=log.path))
    done = gamelog.replay(log)
    problem, applied = done.problem or log.problem, done.applied
    if done.game.is_over():
        raise gamelog.LogError(_("{path}: that game is over (belfort replay shows it)").format(
            path=log.path) + (f"; {problem}" if problem else ""))
    if problem is None:
        return LocalDriver.resume(log, pace=pace), log.path, notes
    # Never write to a damaged file: continue from its good part in a new one.
    steps = [tuple(s) for s in log.steps[:applied]]
    if any(s[0] == "reveal" for s in steps):
        raise gamelog.LogError(f"{log.path}: {problem}")
    local = dict(log.local, continued_from=str(log.path))
    local.pop("resumed", None)
    local.pop("left", None)
    text = gamelog.canonical_text(log.head, steps)
    text += json.dumps({"local": local}, ensure_ascii=False, separators=(",", ":")) + "\n"
    new_path = gamelog.write_new(gamelog.default_path(log.path.parent), text)
    notes.append(f"{log.path}: {problem}.")
    notes.append(_("The game goes on from step {n} in {path}; the original file is left as "
                   "it was.").format(n=applied, path=new_path))
    return LocalDriver.resume(gamelog.load(new_path), pace=pace), new_path, notes
