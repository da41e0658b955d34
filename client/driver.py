"""Where the game comes from: the `GameDriver` interface and the local (bots) driver.

The terminal program never touches a game state directly. It talks to a driver:

    driver.seat            our seat (int)
    driver.names           every seat's name, seat order (list of str)
    driver.ruleset         the belfort.Ruleset in force (help texts read their numbers here)
    driver.view()          belfort.seat_view(game, driver.seat): a plain dict
    driver.legal()         belfort.legal_commands(game, driver.seat): command tuples
    driver.submit(cmd)     give a command (tuple or text) for our seat; raises
                           belfort.CommandSyntaxError / belfort.IllegalCommandError when refused
    driver.subscribe(fn)   fn(events) is called, in the event loop's thread, after every
                           change (ours, a bot's or a peer's); events are the engine's tuples
    driver.peers()         [{"seat", "name", "kind": "you"|"bot"|"human", "state":
                           "here"|"thinking"|"connected"|"disconnected"|"left"}]
    driver.alerts          list of Alert (desync, cheat, disconnect, reconnect, error)
    driver.audit()         None while the game runs; at the end a (ok: bool, text) verdict
    await driver.run()     the background work (bots, network); returns when the game ends
                           or the driver is closed
    driver.close()         stop the background work

A networked session (`net/`) provides another driver with the same attributes; see
docs/client.md.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Callable, Protocol

import belfort

from . import gamelog


@dataclass
class Alert:
    kind: str          # "desync" | "cheat" | "disconnect" | "reconnect" | "error" | "info"
    text: str
    seat: int | None = None
    when: float = field(default_factory=time.time)
    seen: bool = False


class GameDriver(Protocol):
    seat: int
    names: list
    ruleset: belfort.Ruleset
    alerts: list

    def view(self) -> dict: ...
    def legal(self) -> list: ...
    def submit(self, command) -> None: ...
    def subscribe(self, fn: Callable[[list], None]) -> None: ...
    def peers(self) -> list: ...
    def audit(self): ...
    async def run(self) -> None: ...
    def close(self) -> None: ...


BOT_NAMES = ("Bo", "Cy", "Di", "Ed", "Fa")


def make_bot(level, seed, think):
    """A bot of `level` from belfort.bots when it is there, else the engine's random bot."""
    try:
        from belfort.bots import make_bot as _make
    except ImportError:          # pragma: no cover - the bots package is not there yet
        return belfort.RandomBot(seed)
    return _make(level, seed, think=think)


class LocalDriver:
    """The engine and the bots in this process. Bots think in a worker thread on a copy of
    the state, so the window never waits for them; their moves are applied in the event
    loop's thread, paced by `pace` seconds so a person can follow them."""

    def __init__(self, names, you=0, options=None, seed="1", ruleset=None, bot_level="normal",
                 pace=0.4, think=0.5, log_path=None):
        self.names = list(names)
        self.seat = you
        self.options = dict(options or {"guilds": "normal"})
        self.seed = str(seed)
        self.ruleset = ruleset if ruleset is not None else belfort.standard_ruleset()
        self.game = belfort.new_game(self.names, self.options, seed=self.seed,
                                     ruleset=self.ruleset)
        self.bot_level = bot_level
        self.bots = {s: make_bot(bot_level, f"{self.seed}/bot{s}", think)
                     for s in range(len(self.names)) if s != you}
        self.pace = pace
        self.alerts = []
        self.history = []            # [(seat, command tuple)]
        self._subs = []
        self._wake = None
        self._closed = False
        self._thinking = set()
        self.log = None
        if log_path is not None:
            try:
                self.log = gamelog.GameLogWriter(log_path, self._header())
            except OSError as exc:
                self.alerts.append(Alert("info", f"Could not write the game log: {exc}"))

    # --- the interface -------------------------------------------------------------------
    def view(self):
        return belfort.seat_view(self.game, self.seat)

    def legal(self):
        return belfort.legal_commands(self.game, self.seat)

    def submit(self, command):
        events = self._apply(command, self.seat)
        return events

    def subscribe(self, fn):
        self._subs.append(fn)

    def peers(self):
        out = []
        for s, name in enumerate(self.names):
            if s == self.seat:
                out.append({"seat": s, "name": name, "kind": "you", "state": "here"})
            else:
                out.append({"seat": s, "name": name, "kind": "bot",
                            "state": "thinking" if s in self._thinking else "here"})
        return out

    def audit(self):
        if not self.game.is_over():
            return None
        again = gamelog.replay_commands(self._header(), self.history)
        mine, theirs = belfort.state_hash(self.game), belfort.state_hash(again)
        if mine == theirs:
            return True, (f"The {len(self.history)} logged commands replay to the same final "
                          f"state ({mine[:12]}); a local game has no shuffled deck to audit.")
        return False, f"Replaying the log gives a different final state ({theirs[:12]} ≠ {mine[:12]})"

    async def run(self):
        """Play the bots' decisions until the game is over or the driver is closed."""
        self._wake = asyncio.Event()
        while not self._closed and not self.game.is_over():
            bot_seats = [s for s in self.game.waiting_for() if s in self.bots]
            if not bot_seats:
                self._wake.clear()
                await self._wake.wait()
                continue
            seat = bot_seats[0]
            version = self.game.version
            snapshot = self.game.copy()
            self._thinking.add(seat)
            self._notify([])
            started = time.monotonic()
            try:
                cmd = await asyncio.to_thread(self.bots[seat].choose, snapshot, seat)
            except Exception as exc:     # a bot bug must not end the game: fall back
                self.alerts.append(Alert("error", f"{self.names[seat]}'s bot failed ({exc}); "
                                         "it plays at random for this move", seat))
                cmd = belfort.RandomBot(version).choose(snapshot, seat)
            finally:
                self._thinking.discard(seat)
            rest = self.pace - (time.monotonic() - started)
            if rest > 0:
                await asyncio.sleep(rest)
            if self._closed:
                return
            if self.game.version != version and not belfort.is_legal(self.game, cmd, seat):
                continue          # the game moved on (our simultaneous choice): think again
            try:
                self._apply(cmd, seat)
            except belfort.BelfortError as exc:
                self.alerts.append(Alert("error", f"{self.names[seat]}'s bot gave an illegal "
                                         f"command: {exc}", seat))
                self._apply(belfort.RandomBot(version).choose(self.game, seat), seat)

    def close(self):
        self._closed = True
        if self._wake is not None:
            self._wake.set()
        if self.log is not None:
            self.log.close()

    # --- inside ----------------------------------------------------------------------------
    def _header(self):
        return gamelog.header(self.names, self.options, self.seed, self.ruleset,
                              you=self.seat, bots={s: self.bot_level for s in self.bots})

    def _apply(self, command, seat):
        events = belfort.apply(self.game, command, seat)
        cmd = events[0][2]
        self.history.append((seat, cmd))
        if self.log is not None:
            self.log.command(seat, cmd)
            if self.game.is_over():
                self.log.finish(self.game)
        self._notify(events)
        if self._wake is not None:
            self._wake.set()
        return events

    def _notify(self, events):
        for fn in list(self._subs):
            fn(events)


def seat_names(you_name, players):
    """Our name first, then the bots' names (never two alike)."""
    names = [you_name]
    for b in BOT_NAMES:
        if len(names) == players:
            break
        if b.lower() != you_name.lower():
            names.append(b)
    return names
