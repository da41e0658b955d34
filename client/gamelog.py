"""Game log files: the record of one game, which is also a local game's save.

UTF-8, one JSON object per line; the whole format is described in docs/logs.md. In short:

    line 1    the header: players, options, seed, ruleset (and, for a networked game written
              after the end-of-game audit, every card's type)
    {"local": {...}}                          this machine's notes (which seat was ours, the
                                              bots, times); never part of the canonical record
    {"cmd": "build #17 tower@3", "n": 5, "seat": 0}    a command, n = 0, 1, 2, … per step
    {"n": 6, "step": 5, "undo": 0}            seat 0 took back its step 5
    {"end": true, "hash": "…", "scores": […], "winners": […]}

Every line except the local ones is written canonically (sorted keys, no spaces), so peers
that played the same game write byte-identical logs (`canonical_text`).

Reading validates everything and never raises anything but LogError (the file is not a game
log at all) — damage after a good header stops the reading there instead, and
`GameLog.problem` says where and why, so a log cut mid-line replays up to the cut.
Nothing here ever writes over an existing file.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import pathlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any

import belfort

# VERSION, canonical_text and header are the client's too: gamelog.header(...) and so on.
from belfort.logtext import (FORMAT, VERSION, canonical_line, canonical_text,  # noqa: F401
                             end_entry, header)
from belfort.undo import UndoRefused, UndoStack

from .i18n import _

if TYPE_CHECKING:
    from belfort.commands import Command, Event
    from belfort.ruleset import Ruleset
    from belfort.state import GameState

READS = (1, 2)
MAX_BYTES = 64 * 1024 * 1024     # a real game log is well under 1 MB
MAX_LINE = 1024 * 1024


class LogError(ValueError):
    """A file that cannot be read as a game log at all; the message names the file."""


def default_dir() -> pathlib.Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                           ".local", "share")
    return pathlib.Path(base) / "belfort" / "games"


def default_path(directory: str | pathlib.Path | None = None) -> pathlib.Path:
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    d = pathlib.Path(directory) if directory is not None else default_dir()
    path = d / f"game-{stamp}.jsonl"
    i = 1
    while path.exists():
        path = d / f"game-{stamp}-{i}.jsonl"
        i += 1
    return path


def now() -> str:
    return datetime.datetime.now().isoformat(timespec="seconds")


# --- the header ---------------------------------------------------------------------------
# The canonical lines (header, steps, end) are belfort.logtext's: networked peers write them
# too, and `net` may not import the client.

def local_notes(you: int, bots: Mapping[int, Mapping[str, object]],
                **extra: object) -> dict[str, Any]:
    """This machine's notes on a local game: our seat and each bot as
    {"level", "seed", "think"} (what a resumed bot needs to choose as it would have)."""
    notes = {"you": you, "bots": {str(s): dict(spec) for s, spec in sorted(bots.items())},
             "started": now(), "program": "belfort " + _version()}
    notes.update(extra)
    return notes


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("belfort-lan")
    except Exception:      # pragma: no cover - not installed (running from a checkout)
        return "dev"


def seed_of(head: dict[str, Any]) -> bytes | str:
    return bytes.fromhex(head["seed_hex"]) if "seed_hex" in head else head["seed"]


def ruleset_of(head: dict[str, Any], where: str | None = None) -> Ruleset:
    where = _("the log") if where is None else where
    raw = head.get("ruleset")
    if raw is None:
        return belfort.standard_ruleset()
    try:
        rs = belfort.Ruleset(raw)
    except belfort.RulesetError as exc:
        raise LogError(_("{where}: its ruleset is not valid ({error})").format(
            where=where, error=exc)) from None
    except Exception as exc:            # foreign data of any shape: never a traceback
        raise LogError(_("{where}: its ruleset cannot be read ({error})").format(
            where=where, error=type(exc).__name__)) from None
    if head.get("ruleset_sha256") not in (None, rs.sha256):
        raise LogError(_("{where}: its ruleset does not match the recorded ruleset_sha256 "
                         "(the file was edited?)").format(where=where))
    return rs


def new_game_from(head: dict[str, Any], where: str | None = None) -> GameState:
    """A fresh game as the header describes it. Raises LogError."""
    where = _("the log") if where is None else where
    rs = ruleset_of(head, where)
    opts = dict(head.get("options") or {})
    try:
        return belfort.new_game(head["players"], opts, seed=seed_of(head), ruleset=rs,
                                hidden=bool(head.get("hidden")))
    except belfort.SetupError as exc:
        raise LogError(_("{where}: its header cannot start a game ({error})").format(
            where=where, error=exc)) from None


# --- reading --------------------------------------------------------------------------------

class LogStep(tuple[str, int, Any]):
    """("cmd", seat, text) | ("undo", seat, step number) | ("reveal", card, type), with
    `.n` (the step number, None for a reveal) and `.line` (1-based line in the file)."""

    n: int | None
    line: int

    def __new__(cls: type[LogStep], kind: str, a: int, b: Any, n: int | None = None,
                line: int = 0) -> LogStep:
        self = super().__new__(cls, (kind, a, b))
        self.n = n
        self.line = line
        return self


@dataclass
class GameLog:
    path: pathlib.Path
    head: dict[str, Any]
    local: dict[str, Any] = field(default_factory=dict)    # the local lines, merged in order
    steps: list[LogStep] = field(default_factory=list)
    end: dict[str, Any] | None = None
    problem: str | None = None      # why reading stopped before the end of the file
    good_bytes: int = 0             # length of the valid part (whole lines)
    newline_at_end: bool = True
    canonical: list[str] = field(default_factory=list)   # the canonical lines, as read
    numbered: int = 0               # steps with a number read so far (the next n)

    @property
    def finished(self) -> bool:
        return self.end is not None

    @property
    def abandoned(self) -> bool:
        return bool(self.local.get("abandoned"))

    @property
    def is_local_game(self) -> bool:
        return "you" in self.local and not self.head.get("hidden")

    @property
    def cards(self) -> list[int] | None:
        """Card id → type index for every card (networked logs after the audit), or None."""
        names = self.head.get("cards")
        if names is None:
            return None
        return [belfort.CARD_TYPES.index(t) for t in names]

    def digest(self) -> str:
        """SHA-256 of the canonical lines: equal for every peer's log of the same game."""
        return hashlib.sha256("".join(ln + "\n" for ln in self.canonical).encode()).hexdigest()


def read(path: str | pathlib.Path) -> tuple[dict[str, Any], list[LogStep],
                                           dict[str, Any] | None]:
    """(header, steps, end) — the short form of `load` for simple callers."""
    log = load(path)
    return log.head, log.steps, log.end


def load(path: str | pathlib.Path) -> GameLog:
    """Read and check a game log. Raises LogError when the file cannot be used at all;
    otherwise damage stops the reading and is described in `.problem`."""
    path = pathlib.Path(path)
    name = str(path)
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise LogError(_("{name} is a directory, not a game log").format(name=name))
        if not path.is_file():
            raise LogError(_("{name} is not a regular file, not a game log").format(name=name))
        if size > MAX_BYTES:
            raise LogError(_("{name} is too large to be a game log ({mb} MB)").format(
                name=name, mb=size // 2**20))
        data = path.read_bytes()
    except OSError as exc:
        raise LogError(_("cannot read {name}: {error}").format(
            name=name, error=exc.strerror or exc)) from None
    if not data.strip():
        raise LogError(_("{name} is empty: not a game log").format(name=name))
    raw_lines = data.split(b"\n")
    newline_at_end = data.endswith(b"\n")
    if newline_at_end:
        raw_lines.pop()
    head = _read_header(name, raw_lines[0], len(raw_lines) == 1 and not newline_at_end)
    log = GameLog(path=path, head=head, newline_at_end=newline_at_end)
    if head.get("version") == 1:
        log.local = _v1_local(head)
    log.canonical.append(raw_lines[0].decode("utf-8"))
    offset = len(raw_lines[0]) + 1
    n_players = len(head["players"])
    for i, raw in enumerate(raw_lines[1:], start=2):
        last = i == len(raw_lines)
        torn = last and not newline_at_end
        problem = _read_line(log, raw, i, n_players, torn)
        if problem:
            log.problem = problem
            break
        offset += len(raw) + 1
    log.good_bytes = min(offset, len(data))
    return log


def _read_header(name, raw, torn):
    def foreign(why):
        return LogError(_("{name} is not a Belfort game log ({why})").format(name=name, why=why))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise foreign(_("it is not text")) from None
    if len(raw) > MAX_LINE * 8:
        raise foreign(_("its first line is far too long"))
    try:
        head = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        if torn and text.lstrip().startswith("{") and FORMAT in text:
            raise LogError(_("{name} is cut short inside its first line (the header): there "
                             "is no game to read").format(name=name)) from None
        raise foreign(_("its first line is not a JSON header")) from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise foreign(_('its first line has no "format": "{format}"').format(format=FORMAT))
    version = head.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise LogError(_("{name}: unknown log version {version!r}").format(name=name,
                                                                           version=version))
    if version not in READS:
        raise LogError(_("{name} was written by a newer Belfort (log version {version}; this "
                         "program reads versions {first}–{last}). Update belfort.").format(
            name=name, version=version, first=READS[0], last=READS[-1]))
    _check_header(name, head)
    return head


def _v1_local(head):
    """Version 1 kept our seat, the bots' levels and the start time in the header."""
    local = {}
    if _is_int(head.get("you"), 0, len(head["players"]) - 1):
        local["you"] = head["you"]
    bots = head.get("bots")
    if isinstance(bots, dict):
        local["bots"] = {str(k): {"level": v, "seed": f"{head.get('seed')}/bot{k}",
                                  "think": 0.5}
                         for k, v in bots.items() if isinstance(v, str)}
    if isinstance(head.get("started"), str):
        local["started"] = head["started"]
    return local


def _check_header(name, head):
    def bad(what):
        return LogError(_("{name}: damaged header: {what}").format(name=name, what=what))
    players = head.get("players")
    if not isinstance(players, list) or not 2 <= len(players) <= 5 or \
            not all(isinstance(p, str) and p.strip() for p in players):
        raise bad('"players" must list 2 to 5 names')
    if not isinstance(head.get("options", {}), dict):
        raise bad('"options" must be an object')
    has_text, has_hex = isinstance(head.get("seed"), str), isinstance(head.get("seed_hex"), str)
    if has_text == has_hex:
        raise bad('it needs exactly one of "seed" (text) or "seed_hex"')
    if has_hex:
        try:
            bytes.fromhex(head["seed_hex"])
        except ValueError:
            raise bad('"seed_hex" is not hexadecimal') from None
    if "ruleset" in head and not isinstance(head["ruleset"], dict):
        raise bad('"ruleset" must be an object')
    if not isinstance(head.get("hidden", False), bool):
        raise bad('"hidden" must be true or false')
    cards = head.get("cards")
    if cards is not None:
        if not isinstance(cards, list) or not all(c in belfort.CARD_TYPES for c in cards):
            raise bad('"cards" must list card type names')


def _is_int(x, low=None, high=None):
    return isinstance(x, int) and not isinstance(x, bool) and \
        (low is None or x >= low) and (high is None or x <= high)


def _read_line(log, raw, i, n_players, torn):
    """Add one line to `log`; a text saying what is wrong when it cannot be read."""
    where = _("line {n}").format(n=i)
    upto = _("the game is read up to line {n}").format(n=i - 1)
    try:
        text = raw.decode("utf-8")
        row = json.loads(text) if len(raw) <= MAX_LINE else None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        row = None
        text = None
    if row is None:
        if torn:
            return _("the log is cut mid-line at line {n} (the program was stopped while "
                     "writing it?): the game is read up to the cut").format(n=i)
        return _("{where} is damaged: {upto}").format(where=where, upto=upto)
    if not isinstance(row, dict):
        return _("{where} is not a log entry: {upto}").format(where=where, upto=upto)
    if set(row) == {"local"}:
        if isinstance(row["local"], dict):
            log.local.update(row["local"])
            return None
        return _("{where}: a damaged local note: {upto}").format(where=where, upto=upto)
    if log.end is not None:
        return _("{where} comes after the end of the game: the game is read up to the end"
                 ).format(where=where)
    if "cmd" in row or "undo" in row:
        kind = "cmd" if "cmd" in row else "undo"
        step: tuple[str, Any, Any]
        if kind == "cmd":
            ok = set(row) == {"cmd", "n", "seat"} and isinstance(row["cmd"], str) and \
                len(row["cmd"]) < 2000 and _is_int(row["seat"], 0, n_players - 1)
            step = ("cmd", row.get("seat"), row.get("cmd"))
        else:
            ok = set(row) == {"undo", "n", "step"} and \
                _is_int(row["undo"], 0, n_players - 1) and _is_int(row["step"], 0)
            step = ("undo", row.get("undo"), row.get("step"))
        if not ok:
            return (_("{where}: a damaged command entry: {upto}") if kind == "cmd" else
                    _("{where}: a damaged undo entry: {upto}")).format(where=where, upto=upto)
        if row["n"] != log.numbered:
            return _("{where}: step number {got!r} where {want} was expected (lines missing "
                     "or out of order): {upto}").format(where=where, got=row["n"],
                                                        want=log.numbered, upto=upto)
        log.steps.append(LogStep(*step, log.numbered, i))
        log.numbered += 1
    elif "reveal" in row:
        if set(row) != {"reveal", "type"} or not _is_int(row["reveal"], 0) or \
                not _is_int(row["type"], 0, len(belfort.CARD_TYPES) - 1):
            return _("{where}: a damaged reveal entry: {upto}").format(where=where, upto=upto)
        log.steps.append(LogStep("reveal", row["reveal"], row["type"], None, i))
    elif row.get("end") is True:
        if not isinstance(row.get("hash"), str) or not isinstance(row.get("scores", []), list):
            return _("{where}: a damaged end entry: {upto}").format(where=where, upto=upto)
        log.end = row
    elif row.get("format") == FORMAT:
        return _("{where} is a second header (two logs joined together?): {upto}").format(
            where=where, upto=upto)
    else:
        return _("{where} is not a log entry: {upto}").format(where=where, upto=upto)
    log.canonical.append(text)
    return None


# --- replaying ------------------------------------------------------------------------------

class Runner:
    """A game being replayed from a log: the state, the undo stack, the position.
    `copy()` is cheap, for snapshots."""

    def __init__(self, head: dict[str, Any], cards: list[int] | None = None,
                 where: str = "the log") -> None:
        self.game = new_game_from(head, where)
        self.stack = UndoStack()
        self.cards = cards
        self.pos = 0
        self._auto_reveal()

    def copy(self) -> Runner:
        other = Runner.__new__(Runner)
        other.game = self.game.copy()
        other.stack = self.stack.copy()
        other.cards = self.cards
        other.pos = self.pos
        return other

    def step(self, step: LogStep) -> list[Event]:
        """Apply one log step; the events. Raises belfort.BelfortError (UndoRefused
        included) when the step does not apply, changing nothing."""
        kind, a, b = step
        if kind == "cmd":
            events = self.stack.apply(self.game, b, a, tag=step.n)
        elif kind == "undo":
            why = self.stack.refusal(a)
            if why is not None:
                raise UndoRefused(why)
            if self.stack.last_tag() != b:
                raise belfort.BelfortError(f"it names step {b}, but seat {a}'s last step is "
                                           f"step {self.stack.last_tag()}")
            taken = self.stack.take_back(self.game, a)
            events = [("undo", a, taken.command)]
        else:
            before = self.game.copy()
            events = belfort.reveal(self.game, a, b)
            self.stack.record_reveal(before)
        self.pos += 1
        events += self._auto_reveal()
        self._check_cards()
        return events

    def _check_cards(self) -> None:
        """A networked log's card list must agree with every card the game made known (the
        types commands name when a card is built, discarded or shown): a damaged list
        would otherwise show wrong hands."""
        if self.cards is None:
            return
        for c, t in enumerate(self.game.types):
            if t is not None and c < len(self.cards) and self.cards[c] != t:
                raise belfort.BelfortError(
                    f"card #{c} is a {belfort.CARD_TYPES[t]} in the game but a "
                    f"{belfort.CARD_TYPES[self.cards[c]]} in the log's card list")

    def _auto_reveal(self) -> list[Event]:
        """A networked game's log holds every card's type: the public reveals the peers
        made while playing are made again from it, in the engine's queue order."""
        events: list[Event] = []
        if self.cards is None:
            return events
        while self.game.reveal_queue:
            c = self.game.reveal_queue[0]
            if c >= len(self.cards):
                raise belfort.BelfortError(f"card #{c} is missing from the log's card list")
            before = self.game.copy()
            events += belfort.reveal(self.game, c, self.cards[c])
            self.stack.record_reveal(before)
        return events


def describe_failure(step: LogStep, exc: Exception) -> str:
    from .reasons import translate_reason
    what = {"cmd": lambda: _("command '{command}' by seat {seat}").format(command=step[2],
                                                                          seat=step[1]),
            "undo": lambda: _("seat {seat}'s undo").format(seat=step[1]),
            "reveal": lambda: _("the reveal of card #{c}").format(c=step[1])}[step[0]]()
    reason = translate_reason(exc.refusal) if isinstance(exc, UndoRefused) else \
        (f"{exc.rule}: {translate_reason(exc.reason)}"
         if isinstance(exc, belfort.IllegalCommandError) else str(exc))
    return _("line {n}: {what} does not apply ({reason})").format(n=step.line, what=what,
                                                                   reason=reason)


@dataclass
class Replayed:
    runner: Runner
    applied: int                  # steps applied
    problem: str | None           # why the replay stopped early (None: every step applied)

    @property
    def game(self) -> GameState:
        return self.runner.game


def replay(log: GameLog, upto: int | None = None,
           on_step: Callable[[Runner, LogStep, list[Event]], object] | None = None) -> Replayed:
    """Replay `log` (a GameLog): every step, or the first `upto`. Stops at a step that does
    not apply and says so in `.problem`. `on_step(runner, step, events)` sees each step."""
    runner = Runner(log.head, log.cards, str(log.path))
    steps = log.steps if upto is None else log.steps[:upto]
    problem = None
    for step in steps:
        try:
            events = runner.step(step)
        except belfort.BelfortError as exc:
            problem = describe_failure(step, exc)
            break
        if on_step is not None:
            on_step(runner, step, events)
    if problem is None and upto is None and log.end is not None:
        if not runner.game.is_over():
            problem = _("the log says the game ended, but its steps do not end it")
        elif log.end.get("hash") != belfort.state_hash(runner.game):
            problem = _("the replay does not reach the final state the log recorded")
    return Replayed(runner, runner.pos, problem)


def apply_step(game: GameState, step: Sequence[Any],
               stack: UndoStack | None = None) -> list[Event]:
    """One log step on `game` (reveal and command steps; undo steps need the `stack` the
    commands were recorded in — a Runner does all of this)."""
    kind, a, b = step
    if kind == "cmd":
        return stack.apply(game, b, a, tag=getattr(step, "n", None)) if stack is not None \
            else belfort.apply(game, b, a)
    if kind == "undo":
        if stack is None:
            raise belfort.BelfortError("an undo step needs the undo stack")
        taken = stack.take_back(game, a)
        return [("undo", a, taken.command)]
    return belfort.reveal(game, a, b)


# --- writing --------------------------------------------------------------------------------

class GameLogWriter:
    """Appends a game's lines as they happen (each flushed; synced at every month and when
    closed), so a game can be resumed after the program was stopped at any point.

    A new writer refuses to touch an existing file. Write errors (a full disk) do not stop
    the game: `error` holds the first one, and nothing more is written."""

    def __init__(self, path: str | pathlib.Path, head: dict[str, Any] | None,
                 local: dict[str, Any] | None = None, _append: IO[str] | None = None) -> None:
        self.path = pathlib.Path(path)
        self.error: str | None = None
        self._sync_lock = threading.Lock()
        self.n = 0
        self.fh: IO[str] | None
        if _append is not None:
            self.fh = _append
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.fh = open(self.path, "x", encoding="utf-8")
        except FileExistsError:
            raise LogError(_("{path} already exists: a game log is never written over (choose "
                             "another --log, or --resume it)").format(path=self.path)) from None
        _lock(self.fh, self.path)
        self._line(canonical_line(head))
        if local is not None:
            self.local(**local)

    @classmethod
    def append_to(cls, log: GameLog) -> GameLogWriter:
        """Continue a log read by `load` (whole and unfinished): lines go after its last."""
        if log.problem is not None or log.finished:
            raise LogError(_("{path} cannot be continued: {why}").format(
                path=log.path, why=log.problem or _("the game in it is over")))
        try:
            fh = open(log.path, "r+", encoding="utf-8")
        except OSError as exc:
            raise LogError(_("cannot write {path}: {error}").format(
                path=log.path, error=exc.strerror or exc)) from None
        _lock(fh, log.path)
        fh.seek(0, os.SEEK_END)
        if fh.tell() != log.good_bytes:
            fh.close()
            raise LogError(_("{path} changed while it was being read").format(path=log.path))
        w = cls(log.path, None, _append=fh)
        if not log.newline_at_end:
            w._raw("\n")
        w.n = log.numbered
        return w

    def _raw(self, text):
        if self.fh is None or self.error is not None:
            return
        try:
            self.fh.write(text)
            self.fh.flush()
        except OSError as exc:
            self.error = _("could not write the game log {path}: {error}").format(
                path=self.path, error=exc.strerror or exc)

    def _line(self, text):
        self._raw(text + "\n")

    def sync(self) -> None:
        """Make what was written durable (a power cut loses nothing before this)."""
        with self._sync_lock:
            if self.fh is not None and self.error is None:
                try:
                    os.fsync(self.fh.fileno())
                except (OSError, ValueError):
                    pass

    def sync_soon(self) -> None:
        """`sync` on a thread of its own: an fsync can take a while, and the window must not
        wait for it (nor show a step later than the log has it)."""
        threading.Thread(target=self.sync, name="belfort-log-sync", daemon=True).start()

    def command(self, seat: int, cmd: Command) -> int:
        """Write a command step; its step number."""
        n = self.n
        self._line(canonical_line({"cmd": belfort.command_text(cmd), "n": n, "seat": seat}))
        self.n += 1
        return n

    def undo(self, seat: int, step_n: int) -> int:
        n = self.n
        self._line(canonical_line({"n": n, "step": step_n, "undo": seat}))
        self.n += 1
        return n

    def reveal(self, card: int, t: int) -> None:
        self._line(canonical_line({"reveal": card, "type": t}))

    def finish(self, game: GameState) -> None:
        self._line(canonical_line(end_entry(game)))
        self.sync_soon()

    def local(self, **notes: object) -> None:
        self._line(json.dumps({"local": notes}, ensure_ascii=False, separators=(",", ":")))

    def close(self) -> None:
        if self.fh is not None:
            self.sync()
            with self._sync_lock:
                try:
                    self.fh.close()
                except OSError:
                    pass
                self.fh = None


def _lock(fh, path):
    """One program at a time per log: a second window resuming the same game is refused
    instead of interleaving lines."""
    try:
        import fcntl
    except ImportError:          # pragma: no cover - not on POSIX: no lock
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        fh.close()
        raise LogError(_("{path} is open in another belfort window").format(path=path)) from None


def write_new(path: str | pathlib.Path, text: str) -> pathlib.Path:
    """Write a whole log to a new file (never over an existing one)."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(path, "x", encoding="utf-8") as fh:
            fh.write(text)
    except FileExistsError:
        raise LogError(_("{path} already exists: a game log is never written over").format(
            path=path)) from None
    except OSError as exc:
        raise LogError(_("cannot write {path}: {error}").format(
            path=path, error=exc.strerror or exc)) from None
    return path


# --- finding saved games --------------------------------------------------------------------

def unfinished_games(directory: str | pathlib.Path | None = None) -> list[GameLog]:
    """Local games that can be resumed, newest first: readable, not over, not abandoned,
    and not continued in another file."""
    d = pathlib.Path(directory) if directory is not None else default_dir()
    try:
        paths = [p for p in d.glob("*.jsonl") if p.is_file()]
    except OSError:
        return []
    logs, continued = [], set()
    for p in paths:
        try:
            log = load(p)
        except LogError:
            continue
        if log.local.get("continued_from"):
            continued.add(str(log.local["continued_from"]))
        if log.is_local_game and not log.finished and not log.abandoned:
            logs.append(log)
    logs = [g for g in logs if str(g.path) not in continued]
    logs.sort(key=lambda g: _mtime(g.path), reverse=True)
    return logs


def _mtime(path: pathlib.Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
