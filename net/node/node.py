"""A peer process: lobby (host or join), the mesh, the session, its store, and the
loop that drives them.  Used by ``python -m client.peer``, by client.netcli
(the ``belfort host/join/rejoin/bot`` commands) and by NetDriver."""

from __future__ import annotations

import logging
import os
import secrets as _secrets
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import belfort
import zmq
from belfort.commands import Command

from net.crypto import Identity

from net.session.config import GameConfig, Timing
from net.session.core import OVER
from net.session.evening import Evening, game_of, next_config, next_players
from . import fulllog
from net.session.core import STOPPED, SessionPeer
from net.session.msglog import log_problem
from net.session.msglog import LogWriteError
from .addresses import (WILDCARDS, AddressError, AddressWatch, endpoint, endpoint_host,
                        endpoint_port, lan_addresses, normalize, parse_ip, route_address)
from .files import PathArg, StoreError, read_file
from .names import looks_alike
from net.node.transport import bound_context, end_context
from .lostfiles import lost_secrets, not_stored, nothing_to_rejoin
from .lobby import HostLobby, JoinLobby, LobbyError, RosterChanges
from net.session.msgs import N_, Joined, Msg
from .running import (AlreadyRunning, RunningLock, holder, lock_game, lock_lobby, profiles,
                      take_profile)
from .storage import GameStore, default_data_dir, find_games
from net.session.resync import valid_endpoint
from .transport import ZmqMesh, curve_keypair

log = logging.getLogger("belfort.node")

# Where the node reports what a person should see: one event dict at a time (the client's
# screen, or print for the scripted peers).
EventSink = Callable[[dict], object]


class Chooser(Protocol):
    """What plays a seat by itself: a bot of belfort.bots, or one made when first asked."""

    def choose(self, state: belfort.GameState, seat: int) -> Command: ...


def load_identity(data_dir: Path) -> Identity:
    """This user's long-lived identity key (``identity.key``, 0600), made on first use."""
    path = Path(data_dir) / "identity.key"
    if path.exists():
        return Identity.from_private_bytes(path.read_bytes())
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    ident = Identity.generate()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, ident.private_bytes())
        os.fsync(fd)
    finally:
        os.close(fd)
    return ident


class Node:
    """One peer with everything it needs; ``run()`` plays until the game is done.

    The loop never waits when there is work: the poll for frames lasts 0 ms while our
    bot's decision is due, and a command typed by a person (another thread) ends the
    poll at once through the mesh's wake-up socket (``wake``)."""

    def __init__(self, ctx: zmq.Context, peer: SessionPeer, mesh: ZmqMesh, store: GameStore | None,
                 bot: Chooser | None = None, *, lobby: HostLobby | None = None,
                 procs: list | None = None, locks: list | None = None,
                 t_session: float | None = None, t_lobby_close: float | None = None,
                 cpu_session: float | None = None, addresses: AddressWatch | None = None,
                 own_ctx: bool = False, test_secret: str | None = None) -> None:
        self.ctx, self.peer, self.mesh, self.store = ctx, peer, mesh, store
        # the context was made for this node (not the caller's): close() ends it
        self.own_ctx = own_ctx
        # bot processes this peer started (host --bots)
        self.procs: list = procs if procs is not None else []
        peer.transmit_with(mesh.send)      # our envelopes leave as soon as they are signed
        self.bot = bot
        self.finished_at: float | None = None
        self.game_log: Path | None = None    # the complete log, written after the audit
        self.game_log_error: str | None = None
        self.closed = False
        self.said_bye = False      # we told the others we leave for now
        self.left_for_good = False  # we told the others we leave for good (departure.py)
        self._left = False         # done() said so once (the farewell, if any, is said)
        self.pace = 0.0            # bots: wait this long before each decision
        self._due: tuple[int, float] | None = None    # (the game's version, when we decide)
        self.steps = 0
        self.t_session = t_session               # the session began (benchmarks)
        self.t_lobby_close = t_lobby_close
        # process CPU time (every thread: ZeroMQ's I/O thread decrypts our frames) when the
        # session began and when our game was over (benchmarks: CPU per command received)
        self.cpu_session = cpu_session
        self.cpu_over: float | None = None
        self.wake = mesh.waker()   # any thread: end the current poll now
        # running.RunningLock: one process per stored game (the caller's list: it releases
        # them if the start fails)
        self.locks: list = locks if locks is not None else []
        self.lobby = lobby         # the host's lobby, still telling latecomers "started"
        # this machine's address, watched while the game runs (a new Wi-Fi lease);
        # ``moves`` are the "moved" events to show
        self.addresses: AddressWatch | None = addresses
        self.moves: list[dict] = []
        # the evening at this table (net/session/evening.py): its results, the games
        # after this one, and what to tell the person ("news": events, like ``moves``)
        self.evening = Evening()
        self.again_until = 0       # ask for another game by ourselves up to this many
        self.news: list[dict] = []
        self.bot_spec: tuple[str, float] | None = None     # (level, think) of our bot
        self.test_secret = test_secret     # tests: each game's reproducible secrets
        self._peeking = False      # frames are routed by game (a game of it has ended)
        self._old_games: set[str] = set()
        self._pending: list[tuple[int | None, bytes]] = []   # the next game's, early
        self._evening_said = False

    def give_bot(self, bot: Chooser, spec: tuple[str, float] | None = None) -> None:
        """Our seat is played by ``bot`` (``choose(game, seat)``): with nobody to ask, it
        agrees to the people's handoff proposals by itself.  ``spec``: (level, think), to
        give the next game of the evening its own bot."""
        self.bot = bot
        self.bot_spec = spec
        self.peer.configure_handoff(follow=True)

    def keep_bots(self, procs: list) -> None:
        """Bot processes this peer (re)started: stopped with it while people still play."""
        self.procs = procs

    def play_again_until(self, games: int) -> None:
        """Ask for another game at this table by ourselves up to this many games."""
        self.again_until = games

    def set_pace(self, seconds: float) -> None:
        """Bots: wait this long before each decision."""
        self.pace = seconds

    @property
    def config(self) -> GameConfig:
        return self.peer.cfg

    def connect(self) -> None:
        cfg = self.peer.cfg
        self.mesh.connect({s: (cfg.endpoints[s], cfg.curve[s]) for s in range(cfg.n)
                           if s != self.peer.seat})

    def flush(self) -> None:
        for dest, data in self.peer.take_outgoing():
            self.mesh.send(dest, data)
        if self.store is not None and self.peer.log.take_sync_due():
            self.store.sync()       # fsync at phase boundaries, after the frames went out

    def _bot_wait(self, now: float) -> float | None:
        """Seconds until our bot's decision is due (0: now), or None if none is awaited."""
        if self.bot is None or not self.peer.decision_needed():
            return None
        if self.pace <= 0:
            return 0.0
        if self._due is None or self._due[0] != self.peer.game.version:
            self._due = (self.peer.game.version, now + self.pace)
        return max(0.0, self._due[1] - now)

    def tend_lobby(self) -> None:
        if self.lobby is not None:
            self.lobby.answer_late()

    def step(self, timeout_ms: float = 50) -> None:
        self.steps += 1
        self.tend_lobby()
        self.flush()
        wait = self._bot_wait(time.monotonic())
        if wait is not None:
            timeout_ms = min(timeout_ms, wait * 1000)
        if wait == 0.0:
            # Our bot decides at once: first let whoever is runnable on this machine (the
            # peers our last frames woke up, when several share it) take the core, so
            # they apply what we sent before we race ahead.  No wait when nobody is.
            os.sched_yield()
        frames = self.mesh.poll(timeout_ms)
        now = time.monotonic()
        for src, data in frames:
            self.deliver(src, data, now)
            os.sched_yield()   # (as below) peers sharing our cores apply what we answered
            self.peer.confirm(now)     # then the signature of the command the frame held
        self.follow_moves()
        self.watch_address(now)
        self.peer.tick(now)
        self.evening_step(now)
        bot = self.bot
        if bot is not None and self._bot_wait(now) == 0.0:
            try:
                cmd = bot.choose(self.peer.game, self.peer.seat)
                self.peer.submit(cmd, time.monotonic())
            except belfort.BelfortError as exc:
                log.error("bot gave an illegal command: %s", exc)
                self.peer.submit(belfort.RandomBot(self.peer.game.version).choose(
                    self.peer.game, self.peer.seat), time.monotonic())
        self.flush()
        self.note_finished(now)

    def watch_address(self, now: float) -> None:
        """This machine's address changed while we play: listen on the new one (when we
        were bound to the old one) and announce the signed move, numbered, as a rejoin on
        a new address does (every heartbeat carries it; the others reconnect)."""
        if self.addresses is None or self.closed:
            return
        ip = self.addresses.check(now)
        if ip is None:
            return
        was = self.addresses.announced
        if endpoint_host(self.mesh.endpoint) not in WILDCARDS:
            try:
                self.mesh.rebind(ip)
            except zmq.ZMQError as exc:     # (gone again already: the next look retries)
                log.warning("cannot listen on %s: %s", ip, exc)
                return
        here = endpoint(ip, self.mesh.port)
        self.mesh.reopen()
        meta = {}
        if self.store is not None:
            try:
                meta = read_file(self.store.dir / "config.msgpack", "config")
            except StoreError:
                meta = {}
        number = max(meta.get("moves", 0), self.peer.resync.address[0]
                     if self.peer.resync.address else 0) + 1
        if self.store is not None and meta:
            self.store.save_meta({**meta, "mesh": self.mesh.endpoint, "advertised": here,
                                  "moves": number})
        self.peer.resync.move(number, here)
        self.addresses.moved(here)
        log.info("this machine's address changed: %s -> %s", was, here)
        self.moves.append({"event": "moved", "endpoint": here, "was": was})

    def follow_moves(self) -> None:
        """Reconnect to seats that came back on a new mesh address (signed, resync.py)."""
        for seat, where in self.peer.resync.take_moved():
            log.info("seat %s moved to %s", seat, where)
            self.mesh.reconnect(seat, where)

    def note_finished(self, now: float) -> None:
        """Once the game is done, mark the stored game finished (once)."""
        if self.cpu_over is None and self.peer.t_over is not None:
            self.cpu_over = time.process_time()
        if self.peer.finished and self.finished_at is None:
            self.finished_at = now
            if self.store is not None and self.peer.status != STOPPED:
                self.write_game_log()
                self.store.mark_finished(self.summary())
            elif self.store is not None and self.peer.handoffs.ours_handed:
                # our seat is a bot's: nothing left to rejoin (`rejoin` names it to serve)
                self.store.mark_finished(self.summary())

    def write_game_log(self) -> None:
        """The complete game, every hand and the draw pile included (fulllog.py), beside
        this peer's files of the game, once the audit passed."""
        text = fulllog.complete_text(self.peer)
        if text is None or self.store is None:
            return
        try:
            self.game_log = fulllog.write(self.store.dir, text)
        except OSError as exc:
            self.game_log_error = f"the game log could not be written: {exc}"
            log.error(self.game_log_error)

    def abandoned(self) -> bool:
        """Every other peer has been silent past the time-out: nobody is left to play with."""
        return self.peer.view.abandoned(time.monotonic())

    def done(self) -> bool:
        """Finished, and nobody needs us any more (see SessionPeer.may_leave)."""
        now = time.monotonic()
        if self.peer.log_failed is not None:
            return True         # our log cannot be written: we stopped playing (core.py)
        if self.left_for_good and self.peer.n >= 3:
            return True         # the others hand our seat to a bot: nothing more is ours
        if self.finished_at is None or not self.peer.view.may_leave(now):
            return False
        if self.evening_open(now):
            return False        # the table may play again (evening.py)
        if not self._left:
            self._left = True
            self.peer.leaving(now)
        return True

    def run(self, timeout: float | None = None) -> dict:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self.closed and not self.done():
            if deadline is not None and time.monotonic() > deadline:
                break
            self.step()
        return self.summary()

    def summary(self) -> dict:
        p = self.peer
        g = p.game
        halted = p.log_failed is not None      # resumable by `rejoin`, like a pause
        return {"seat": p.seat, "name": p.names[p.seat], "game": p.cfg.game_id,
                "status": "paused" if halted else "left" if self.left_for_good and p.n >= 3
                else "handed" if p.handoffs.ours_handed else p.status,
                "ended": p.departure.ended or None,
                "stop_reason": p.log_failed if halted else p.stop_reason,
                "hash": belfort.state_hash(g) if g is not None else None,
                "version": g.version if g is not None else None,
                "result": g.result if g is not None else None,
                "scores": [pl["score"] for pl in belfort.public_view(g)["players"]]
                if g is not None else None,
                "audit": list(p.audit_result) if p.audit_result else None,
                "desync": p.desync, "commands": len(p.history),
                "log": str(self.game_log) if self.game_log is not None else None,
                "alerts": [{"kind": a.kind, "text": a.text, "seat": a.seat} for a in p.alerts],
                "number": self.evening.number, "evening": self.evening.rows()}

    def leave_for_now(self) -> None:
        """Tell the others we leave for now (they wait for our rejoin, without alarm)."""
        if self.closed or self.peer.finished or self.left_for_good:
            return
        self.peer.leave_for_now(time.monotonic())
        self.said_bye = True
        self.flush()

    # ------------------------------------------------------------ the evening
    def deliver(self, src: int | None, data: bytes, now: float) -> None:
        """A frame to the game it belongs to: once a game of the evening has ended here,
        frames of a game already over are dropped (its stragglers), those of the next game,
        begun elsewhere first, wait for it (bounded)."""
        if self._peeking:
            game = game_of(data)
            if game is not None and game != self.peer.cfg.game_id:
                if game not in self._old_games and len(self._pending) < 2000:
                    self._pending.append((src, data))
                return
        self.peer.receive(data, now, src)

    def _over_here(self) -> bool:
        p = self.peer
        return p.status == OVER and p.audit_result is not None and not self.left_for_good \
            and not p.handoffs.ours_handed

    def _asked(self) -> list[int]:
        """The seats asked about another game: not one that left this one for good, nor one
        a bot played for its player."""
        p = self.peer
        return [s for s in range(p.n) if s not in p.departure.left and s not in p.handed]

    def _gone(self, seat: int, now: float) -> bool:
        p = self.peer
        return seat != p.seat and now - p.liveness.last_seen[seat] > 3 * p.timing.disconnected

    def evening_open(self, now: float) -> bool:
        """The table may still play again, and this peer stays for it."""
        if self.closed or not self._over_here() or len(self._asked()) < 2:
            return False
        p = self.peer
        mine = p.again.answers.get(p.seat)
        if mine is False:
            return False
        if mine is True:
            players = next_players(p.n, p.again.answers, self._asked(),
                                   lambda s: self._gone(s, now))
            return players is None or len(players) >= 2
        if self.again_until > self.evening.number:
            return True
        # a bot stays while a person of the table is still there to ask
        return p.cfg.kinds[p.seat] == "bot" and any(
            p.cfg.kinds[s] != "bot" and p.again.answers.get(s) is not False
            and not self._gone(s, now) for s in self._asked() if s != p.seat)

    def _may_play_again(self, now: float) -> list[int]:
        """The seats asked that may still play the next game: not one that said no, nor one
        silent since it finished (it left the table)."""
        answers = self.peer.again.answers
        return [s for s in self._asked() if answers.get(s) is not False and not self._gone(s, now)]

    def table_open(self, now: float) -> bool:
        """A person at the final table may still play again here (the window keeps the
        node going while they look at it, and until they answer): not once everyone else
        left the table."""
        if self.evening_open(now):
            return True
        return not self.closed and self._over_here() and len(self._may_play_again(now)) >= 2 \
            and self.peer.again.answers.get(self.peer.seat) is None

    def ask_again(self) -> str:
        """The person asks for another game at this table; what to tell them."""
        p = self.peer
        if not self._over_here():
            return Msg(N_("Another game can be asked for once this one is over."))
        if len(self._asked()) < 2:
            return self._no_next()
        now = time.monotonic()
        if p.again.answers.get(p.seat) is not True and len(self._may_play_again(now)) < 2:
            return Msg(N_("There is no next game: nobody else at the table wants one."))
        p.again_answer(True, now)
        self.flush()
        return Msg(N_("You asked for another game: it starts once everyone at the table "
                      "agrees."))

    def _no_next(self) -> str:
        p = self.peer
        gone = [p.names[s] for s in range(p.n) if s not in self._asked()]
        return Msg(N_("There is no next game at this table: {names} left for good, and a "
                      "game needs two players."), names=", ".join(gone))

    def evening_step(self, now: float) -> None:
        """After the game: its results; our answer when a bot or ``--again`` gives it; the
        next game once every seat asked has answered."""
        if not self._over_here():
            return
        p = self.peer
        self._peeking = True
        if p.cfg.game_id not in self.evening.recorded and p.game is not None:
            self.evening.record(p.cfg, p.game, set(p.departure.left) | set(p.handed))
            self.news.append({"event": "evening", "rows": self.evening.rows(),
                              "text": self.evening.text()})
        asked = self._asked()
        if len(asked) < 2:
            if not self._evening_said:
                self._evening_said = True
                self.news.append({"event": "evening-over", "text": self._no_next()})
            return
        answers = p.again.answers
        if answers.get(p.seat) is None:
            if self.again_until > self.evening.number:
                p.again_answer(True, now)
            elif p.cfg.kinds[p.seat] == "bot" and any(answers.get(s) for s in asked
                                               if p.cfg.kinds[s] != "bot"):
                p.again_answer(True, now)       # a bot follows the people
        if answers.get(p.seat) is not True:
            return
        players = next_players(p.n, answers, asked, lambda s: self._gone(s, now))
        if players is None:
            return
        if len(players) < 2:
            if not self._evening_said:
                self._evening_said = True
                self.news.append({"event": "evening-over", "text": Msg(
                    N_("There is no next game: nobody else at the table wants one."))})
            return
        self.next_game(players, now)

    def next_game(self, players: list[int], now: float) -> None:
        """The next game of the evening, for ``players`` (seats of this game): built as the
        lobby's game is (``_open_game``, as ``_make_session`` does), on the same mesh and
        identity."""
        old = self.peer
        number = self.evening.number + 1
        assert old.seed is not None, "a game that is over was dealt"
        cfg = next_config(old.cfg, old.seed, number, players)
        seat = players.index(old.seat)
        self._old_games.add(old.cfg.game_id)
        assert self.store is not None, "a node of a lobby's game has its files"
        secrets = _new_secrets(old.identity, (self.mesh.public, self.mesh.secret),
                               self.test_secret)
        # the finished game's files are done with (its lock goes with them)
        data_dir = self.store.dir.parent.parent
        self.store.close()
        for lock in [lk for lk in self.locks if Path(lk.path).parent == self.store.dir]:
            lock.release()
            self.locks.remove(lock)
        level, think = self.bot_spec if self.bot_spec is not None else (None, 0.0)
        store, peer = _open_game(cfg, seat, old.identity, secrets, self.mesh, data_dir, level,
                                 think, old.timing, old.clock, self.test_secret, number)
        h = old.handoffs
        peer.configure_handoff(auto=h.auto, follow=h.follow, level=h.level, think=h.think)
        self.mesh.reseat(seat, {s: (cfg.endpoints[s], cfg.curve[s]) for s in range(cfg.n)
                                if s != seat})
        peer.transmit_with(self.mesh.send if old.transmit is not None else None)
        self.peer, self.store = peer, store
        self.evening.next()
        self.finished_at, self.game_log, self.game_log_error = None, None, None
        self._left, self._due, self.cpu_over, self._evening_said = False, None, None, False
        try:
            self.locks.append(lock_game(store.dir))
        except AlreadyRunning:
            pass           # (a directory of its own: nobody else holds it)
        if self.bot_spec is not None:
            attach_bot(self, *self.bot_spec)
        peer.start(now)
        self.news.append({"event": "next-game", "number": number, "game": cfg.game_id,
                          "seat": seat, "roster": cfg.names,
                          "data": str(store.dir)})
        pending, self._pending = self._pending, []
        for src, data in pending:
            if game_of(data) == cfg.game_id:
                new_src = players.index(src) if src in players else None
                peer.receive(data, now, new_src)
        self.flush()

    def leave_for_good(self) -> None:
        """The person leaves the game for good (departure.py): the signed leave goes out.
        At 3-5 players nothing more is needed of this machine (the others hand the seat to
        a bot at once); at 2 the game ends where we left it, and this peer stays for the
        end and the audit, as at any end.  Raises departure.LeaveRefused with the reason."""
        self.peer.leave_for_good(time.monotonic())
        self.left_for_good = True
        self.flush()
        if self.peer.n >= 3 and self.store is not None:
            self.store.mark_finished(self.summary())    # nothing left to rejoin

    def close(self) -> None:
        """Leave: the last frames (our finished or leaving notice) get a moment to go out."""
        if self.closed:
            return
        self.closed = True
        p = self.peer
        if self._over_here() and p.again.answers.get(p.seat) is not False \
                and len(self._asked()) >= 2:
            # someone may wait for us at this table (a bot, a player who asked again)
            p.again_answer(False, time.monotonic())
        self.flush()
        told = self.peer.finished or self.said_bye or self.left_for_good \
            or self.peer.log_failed is not None
        linger = 500 if told else 0
        self.mesh.close(linger_ms=linger)
        if self.store is not None:
            self.store.close()
        for lock in self.locks:
            lock.release()
        if self.lobby is not None:
            self.lobby.close()
        if self.own_ctx:
            # our last frames (finished, leaving for now) leave before the process may end
            end_context(self.ctx, linger)

    def stop_own_bots(self) -> None:
        """The person closed the window.  Bots this peer started keep playing while another
        person is in the game (they are peers like any other); with nobody else left they
        have no one to play for, so they are stopped.  Once the game is over they are left
        alone: each is a detached peer that leaves by its own end-of-game rule (endgame.py),
        so it can still give the end to a seat killed at the very end that rejoins later."""
        cfg = self.peer.cfg
        humans = [s for s, kind in enumerate(cfg.kinds) if kind != "bot" and s != self.peer.seat]
        if humans or self.peer.status == "over":
            return
        for p in self.procs:
            p.terminate()
        deadline = time.monotonic() + 5     # all of them at once: 5 s in all, not 5 s each
        for p in self.procs:
            try:
                p.wait(timeout=max(0.0, deadline - time.monotonic()))
            except Exception:
                p.kill()


def _bind_endpoint(bind: str, port: int = 0) -> str:
    return endpoint(bind, port if port else "*")


def _host_mesh(ctx: zmq.Context, curve: tuple[str, str], bind: str, port: int) -> ZmqMesh:
    """The host's mesh socket on the port after the lobby's (5556 beside 5555): a known
    number, so that a friend elsewhere can be let in by forwarding two ports; any free
    port when that one is taken, or when the lobby's is any (``--port 0``)."""
    if port and port < 65535:
        try:
            return ZmqMesh(ctx, 0, curve[0], curve[1], bind=_bind_endpoint(bind, port + 1))
        except zmq.ZMQError as exc:
            log.warning("port %s is taken (%s): the players connect to another", port + 1, exc)
    return ZmqMesh(ctx, 0, curve[0], curve[1], bind=_bind_endpoint(bind))


def _new_secrets(identity: Identity, curve: tuple[str, str], test_secret: str | None,
                 seat_hint: int | None = None) -> dict:
    master = _secrets.token_bytes(32)
    return {"identity": identity.private_bytes(), "curve_public": curve[0],
            "curve_secret": curve[1], "master": master}


def _make_session(ctx: zmq.Context, cfg: GameConfig, seat: int, identity: Identity,
                  secrets: dict, mesh: ZmqMesh, data_dir: PathArg, bot_level: str | None,
                  bot_think: float, timing: Timing | None,
                  clock: Callable[[], float] | None = None, test_secret: str | None = None,
                  **node_fields: Any) -> Node:
    """``node_fields``: the Node's (lobby, procs, locks, t_lobby_close, own_ctx)."""
    store, peer = _open_game(cfg, seat, identity, secrets, mesh, data_dir, bot_level,
                             bot_think, timing, clock, test_secret)
    node = Node(ctx, peer, mesh, store, t_session=time.monotonic(),
                cpu_session=time.process_time(), test_secret=test_secret,
                addresses=AddressWatch(cfg.endpoints[seat], now=time.monotonic()), **node_fields)
    node.connect()
    peer.start(time.monotonic())
    return node


def _open_game(cfg: GameConfig, seat: int, identity: Identity, secrets: dict, mesh: ZmqMesh,
               data_dir: PathArg, bot_level: str | None, bot_think: float,
               timing: Timing | None, clock: Callable[[], float] | None = None,
               test_secret: str | None = None, number: int = 1
               ) -> tuple[GameStore, SessionPeer]:
    """A game's files and session, from its config: the lobby's game, and each next game of
    the evening at the same table (``number``, Node.next_game)."""
    if cfg.keys[seat] != identity.public_bytes:
        raise LobbyError(Msg(N_("the host's roster does not hold our key at our seat")))
    rs = cfg.ruleset()
    if rs.sha256 != cfg.ruleset_sha:
        raise LobbyError(Msg(N_("the host's ruleset does not match its announced hash")))
    if test_secret is not None:
        from net.session.memnet import fixed_master
        secrets["master"] = fixed_master(test_secret if number == 1 else
                                         f"{test_secret}/{number}", seat)
    # the others know us by an address this machine does not have (a forwarded port, a
    # name): a rejoin keeps it rather than announce one nobody outside can reach
    known = endpoint_host(cfg.endpoints[seat])
    ip = parse_ip(known)
    outside = known != "localhost" if ip is None else \
        not ip.is_loopback and str(ip) not in lan_addresses()
    store = GameStore.create(data_dir, cfg, seat, secrets, {"mesh": mesh.endpoint,
                                                           "bot": bot_level, "think": bot_think,
                                                           "outside": outside})
    store.open_log()
    peer = SessionPeer(cfg, seat, identity, secrets["master"], store=store, timing=timing,
                       wall_ns=time.time_ns,
                       now=time.monotonic(), clock=clock or time.monotonic, number=number)
    return store, peer


def attach_bot(node: Node, level: str | None, think: float = 0.0) -> None:
    """Give the node a bot for its seat (seeded by the shared seed, once known)."""
    if level is None:
        return
    named: str = level      # (the class below sees the name, not the narrowed type)

    class _Lazy:
        def __init__(self) -> None:
            self.bot: Chooser | None = None

        def choose(self, game: belfort.GameState, seat: int) -> Command:
            if self.bot is None:
                from belfort.bots import make_bot
                self.bot = make_bot(named, f"{node.peer.seed.hex()}/bot{seat}", think=think)
            return self.bot.choose(game, seat)

    node.give_bot(_Lazy(), (level, think))


def host(name: str, *, players: int, options: dict, ruleset_text: str | None = None,
         bind: str = "*", port: int = 5555, data_dir: PathArg | None = None,
         bots: int = 0, bot_level: str = "random", bot_think: float = 0.0,
         auto_start: bool = True, start_after: float | None = None,
         advertise: str | None = None, on_event: EventSink = print,
         timing: Timing | None = None, level: str | None = None, test_secret: str | None = None,
         ctx: zmq.Context | None = None,
         should_start: Callable[[HostLobby], object] | None = None,
         bot_args: list[str] | None = None,
         announce: bool = False, bot_names: Sequence[str] = ()) -> Node:
    """Run the lobby as host; returns the started Node (the host's seat is 0)."""
    data_dir, profile = _own_profile(Path(data_dir or default_data_dir()), on_event)
    try:
        node = _host(name, players=players, options=options, ruleset_text=ruleset_text,
                     bind=bind, port=port, data_dir=data_dir, bots=bots, bot_level=bot_level,
                     bot_think=bot_think, auto_start=auto_start, start_after=start_after,
                     advertise=advertise, on_event=on_event, timing=timing, level=level,
                     test_secret=test_secret, ctx=ctx, should_start=should_start,
                     bot_args=bot_args, announce=announce, bot_names=bot_names)
    except BaseException:
        profile.release()
        raise
    node.locks.append(profile)
    return node


# The names of the bots a host starts: real, short names (a name is cut to 6 columns in
# the window's tables), and none a person at the table is likely to type as theirs.
HOST_BOT_NAMES = ("Hal", "Ida", "Kit", "Lou", "Max", "Ned", "Oda", "Pip")


def bot_names_for(host_name: str, bots: int, given: Sequence[str] = ()) -> list[str]:
    """``bots`` names for the host's bots: ``given`` first, then HOST_BOT_NAMES, none
    like the host's own name or each other's."""
    out: list[str] = []
    for cand in list(given) + list(HOST_BOT_NAMES):
        if len(out) == bots:
            break
        if not any(looks_alike(cand, n) for n in [host_name, *out]):
            out.append(cand)
    n = 1
    while len(out) < bots:        # more bots than names: numbered
        out.append(f"{HOST_BOT_NAMES[0]}{n}")
        n += 1
    return out


def _own_profile(data_dir: Path, on_event: EventSink) -> tuple[Path, RunningLock]:
    """The profile this process plays from (running.take_profile), told in one line when
    it is not the data directory itself."""
    try:
        where, lock = take_profile(data_dir)
    except AlreadyRunning as exc:
        raise LobbyError(exc.args[0]) from None
    if where != data_dir:
        on_event({"event": "profile", "dir": str(where), "base": str(data_dir)})
    return where, lock


def _host(name: str, *, players: int, options: dict, ruleset_text: str | None, bind: str,
          port: int, data_dir: Path, bots: int, bot_level: str, bot_think: float,
          auto_start: bool, start_after: float | None, advertise: str | None,
          on_event: EventSink, timing: Timing | None, level: str | None,
          test_secret: str | None, ctx: zmq.Context | None,
          should_start: Callable[[HostLobby], object] | None, bot_args: list[str] | None,
          announce: bool, bot_names: Sequence[str]) -> Node:
    own_ctx = ctx is None
    ctx = ctx or zmq.Context()
    bound_context(ctx)      # before the lobby's sockets: no frame over 1 MiB anywhere
    identity = load_identity(data_dir)
    curve = curve_keypair()
    mesh = _host_mesh(ctx, curve, bind, port)
    # keyed by identity: lobby places change
    lobby = HostLobby(ctx, identity, name, curve, mesh.port, bind=bind, port=port, players=players,
                      options=options, ruleset_text=ruleset_text, advertise=advertise,
                      on_join=mesh.admit, on_leave=mesh.forget)
    on_event({"event": "lobby", "join": lobby.join_command(), "address": lobby.address,
              "joins": lobby.join_commands(), "addresses": lobby.addresses,
              "interfaces": lobby.interfaces(), "ports": [lobby.port, mesh.port],
              "advertised": lobby.advertised is not None,
              "fingerprint": lobby.fingerprint, "ruleset_sha": lobby.ruleset_sha})
    announcer = None
    bound = parse_ip(bind)
    if announce and not (bound is not None and bound.is_loopback):
        from .discovery import Announcer
        announcer = Announcer(lobby, [endpoint_host(a) for a in lobby.addresses],
                              advertised=lobby.advertised)
    procs = []
    for bot_name in bot_names_for(name, bots, given=bot_names):
        procs.append(spawn_bot(lobby.address, bot_level, data_dir / "bots", think=bot_think,
                               extra=(bot_args or []) + ["--name", bot_name] +
                               (["--test-secret", test_secret] if test_secret else [])))
    started_wait = time.monotonic()
    try:
        while True:
            for text in lobby.poll(100):
                on_event({"event": "lobby-change", "text": text, "roster": lobby.roster()})
            if announcer is not None:
                if announcer.problem:
                    on_event({"event": "lobby-change", "roster": lobby.roster(),
                              "text": Msg(N_("{problem}: the others type the address above"),
                                          problem=announcer.problem)})
                    announcer = None
                else:
                    announcer.update()
            full = len(lobby.seats) >= players
            if should_start is not None:
                if should_start(lobby):
                    break
            elif auto_start and full:
                break
            elif start_after is not None and time.monotonic() - started_wait > start_after \
                    and len(lobby.seats) >= 2:
                break
            for p in procs:
                if p.poll() is not None and p.returncode != 0:
                    raise LobbyError(Msg(N_("a bot process failed (exit code {code})"),
                                         code=p.returncode))
        t_lobby_close = time.monotonic()
        if announcer is not None:
            announcer.close()          # started: nobody else can join
            announcer = None
        cfg = lobby.start()
    except BaseException:
        lobby.close()
        raise
    finally:
        if announcer is not None:
            announcer.close()
    secrets = _new_secrets(identity, curve, test_secret)
    for k in set(lobby.admitted) - set(cfg.curve):
        mesh.forget(k)
    mesh.allow({s: cfg.curve[s] for s in range(cfg.n)})
    node = _make_session(ctx, cfg, 0, identity, secrets, mesh, data_dir, level, bot_think, timing,
                         test_secret=test_secret, lobby=lobby, procs=procs,
                         t_lobby_close=t_lobby_close, own_ctx=own_ctx)
    try:
        node.locks.append(lock_game(_stored(node).dir))
    except AlreadyRunning as exc:
        node.close()
        raise LobbyError(exc.args[0]) from None
    attach_bot(node, level, bot_think)
    on_event({"event": "started", "game": cfg.game_id, "seat": 0, "roster": cfg.names,
              "fingerprints": [_fp(k) for k in cfg.keys], "data": str(_stored(node).dir)})
    return node


def _stored(node: Node) -> GameStore:
    """The store of a node made here (_make_session gives every one a store)."""
    assert node.store is not None, "a node made by host() or join() has its store"
    return node.store


def _fp(key: bytes) -> str:
    from net.crypto import fingerprint
    return fingerprint(key)


def join(address: str, name: str, *, data_dir: PathArg | None = None, bind: str = "*",
         kind: str = "human", level: str | None = None, bot_think: float = 0.0,
         ruleset_text: str | None = None, on_event: EventSink = print,
         timing: Timing | None = None, test_secret: str | None = None,
         ctx: zmq.Context | None = None, connect_timeout: float = 5.0,
         start_timeout: float | None = None, mesh_port: int = 0,
         announced: tuple[str, str] | None = None) -> Node:
    """Join the lobby at ``address``; ``announced``: (host name, key fingerprint) of the
    LAN announcement it was chosen from, which the lobby must prove (lobby.JoinLobby)."""
    data_dir = Path(data_dir or default_data_dir())
    try:
        address = normalize(address)
    except AddressError as exc:
        raise LobbyError(exc.args[0]) from None
    # the same join command for a game this machine was already in: if the host's lobby
    # no longer answers (the game started), rejoin that game
    stored = []
    existed = data_dir.exists()
    if kind == "human":
        # in whichever profile it was played from (running.take_profile)
        for st in [g for where in profiles(data_dir) for g in find_games(where, lobby=address)]:
            try:
                cfg, seat, _sec, _meta = st.load()
            except StoreError:
                continue                   # named below if the lobby does not let us in
            if cfg.names[seat] == name and holder(st.dir) is None:
                stored.append(st)
    if stored:
        try:
            probe_ctx = ctx or zmq.Context.instance()
            bound_context(probe_ctx)
            probe = JoinLobby(probe_ctx, address, Identity.generate(),
                              "probe", curve_keypair(), 1, protocol="probe")
            try:
                probe.connect(2.0)
            finally:
                probe.close()
        except LobbyError as exc:
            if "wrong version" not in str(exc):
                on_event({"event": "rejoin", "game": stored[0].dir.name, "why": str(exc)})
                return rejoin(stored[0].dir, ctx=ctx, on_event=on_event, timing=timing)
    locks = []
    base = data_dir
    if kind == "human":
        try:
            locks.append(lock_lobby(data_dir, address, name))
        except AlreadyRunning as exc:
            raise LobbyError(exc.args[0]) from None
        try:
            data_dir, profile = _own_profile(data_dir, on_event)
        except BaseException:
            locks[0].release()
            raise
        locks.append(profile)
    try:
        return _join(address, name, data_dir, locks, bind=bind, kind=kind, level=level,
                     bot_think=bot_think, ruleset_text=ruleset_text, on_event=on_event,
                     timing=timing, test_secret=test_secret, ctx=ctx,
                     connect_timeout=connect_timeout, start_timeout=start_timeout,
                     mesh_port=mesh_port, announced=announced)
    except LobbyError as exc:
        for lock in locks:
            lock.release()
        text = str(exc)
        if kind == "human" and "address unreachable" in text:
            # most often a mistyped address: say how to find the game; stored seats only
            # where this machine has some
            raise LobbyError(Joined("", [exc.args[0] if exc.args else text] + [Msg(N_(
                " To find the game: `belfort join` with no address lists the games announced "
                "on this network."))] + ([Msg(N_(
                    " This machine has unfinished games of its own: `belfort rejoin` goes back "
                    "to the last one."))] if _unfinished(base) else []))) from None
        if kind == "human" and not stored and "already started" in text:
            # a game this machine has no files of: if we were in it, they are gone
            if name in text:
                damaged = [g.dir for where in profiles(base) for g in find_games(where)
                           if not _readable(g)]
                why = exc.args[0] if exc.args else text
                more = [Msg(N_(" A stored game here cannot be read: `belfort rejoin --dir {dir}` "
                               "says what is wrong with it."), dir=str(d)) for d in damaged[:3]]
                raise LobbyError(Joined("", [not_stored(name, address, base, existed, why),
                                             *more])) from None
        raise
    except BaseException:
        for lock in locks:
            lock.release()
        raise


def _join(address: str, name: str, data_dir: Path, locks: list[RunningLock], *, bind: str,
          kind: str, level: str | None, bot_think: float, ruleset_text: str | None,
          on_event: EventSink, timing: Timing | None, test_secret: str | None,
          ctx: zmq.Context | None, connect_timeout: float, start_timeout: float | None,
          mesh_port: int, announced: tuple[str, str] | None = None) -> Node:
    own_ctx = ctx is None
    ctx = ctx or zmq.Context()
    bound_context(ctx)      # before the lobby's sockets: no frame over 1 MiB anywhere
    identity = load_identity(data_dir) if kind == "human" else Identity.generate()
    curve = curve_keypair()
    mesh = ZmqMesh(ctx, -1, curve[0], curve[1], bind=_bind_endpoint(bind, mesh_port))
    sha = None
    if ruleset_text is not None:
        sha = belfort.parse_ruleset(ruleset_text).sha256
    lobby = JoinLobby(ctx, address, identity, name, curve, mesh.port, kind=kind, ruleset_sha=sha,
                      expect=announced)
    try:
        welcome = lobby.connect(connect_timeout)
        assert lobby.host_key is not None, "a welcome proves the host's key"
        # the fingerprint of the key the welcome proved, not the one its text claims
        on_event({"event": "welcome", "seat": welcome["your_seat"], "host": welcome["host"],
                  "host_fingerprint": _fp(lobby.host_key), "roster": welcome["roster"],
                  "ruleset_sha": welcome["ruleset_sha"], "options": welcome["options"],
                  "fingerprint": identity.fingerprint})
        shown = RosterChanges()

        admitted: set[str] = set()

        def roster(r):
            # let every player's mesh connection in as soon as we know its key, and out
            # again when it leaves the lobby (lobby places change: keyed by the key)
            now = {e["curve"] for e in r if isinstance(e, dict) and
                   isinstance(e.get("curve"), str) and len(e["curve"]) == 40}
            for k in admitted - now:
                mesh.forget(k)
            for k in now - admitted:
                mesh.admit(k)
            admitted.clear()
            admitted.update(now)
            public = [{k: v for k, v in e.items() if k != "curve"} for e in r
                      if isinstance(e, dict)]
            if shown.changed(public):
                on_event({"event": "roster", "roster": public})
        roster(welcome.get("roster", []))
        cfg = lobby.wait_start(start_timeout, on_roster=roster)
    except BaseException:
        lobby.leave()
        lobby.close()
        mesh.close()
        raise
    lobby.close()
    seat = cfg.keys.index(identity.public_bytes) if identity.public_bytes in cfg.keys else -1
    if seat < 0:
        mesh.close()
        raise LobbyError(Msg(N_("the host started a game without us")))
    mesh.take_seat(seat)
    for k in admitted - set(cfg.curve):
        mesh.forget(k)
    secrets = _new_secrets(identity, curve, test_secret)
    node = _make_session(ctx, cfg, seat, identity, secrets, mesh, data_dir, level, bot_think,
                         timing, test_secret=test_secret, locks=locks, own_ctx=own_ctx)
    try:      # every seat, a bot's too: `rejoin` must know which seats still play
        node.locks.append(lock_game(_stored(node).dir))
    except AlreadyRunning as exc:
        node.close()
        raise LobbyError(exc.args[0]) from None
    attach_bot(node, level, bot_think)
    on_event({"event": "started", "game": cfg.game_id, "seat": seat, "roster": cfg.names,
              "fingerprints": [_fp(k) for k in cfg.keys], "data": str(_stored(node).dir)})
    return node


def rejoin(game_dir: PathArg | None = None, *, data_dir: PathArg | None = None,
           ctx: zmq.Context | None = None, on_event: EventSink = print,
           timing: Timing | None = None, game_id: str | None = None) -> Node:
    """Restart a peer of an unfinished game from its files: replay the log, rebind the
    same mesh address, and catch up from the others.  A finished game is restarted only
    when named (``game_id``, ``game_dir``): it serves a late rejoiner the end."""
    if game_dir is None:
        root = Path(data_dir or default_data_dir())
        # every profile's games (running.take_profile), newest first
        games = sorted((g for where in profiles(root) for g in find_games(where)),
                       key=lambda g: -g.dir.stat().st_mtime)
        if game_id:
            games = [g for g in games if g.dir.name.startswith(game_id)] or [
                # a game finished here, named: restarted to give a late rejoiner the end
                # of the game (endgame.py); it leaves once that seat has finished
                g for where in profiles(root) for g in find_games(where, unfinished=False)
                if g.dir.name.startswith(game_id)]
        idle = [g for g in games if holder(g.dir) is None]
        if not idle:
            if games:     # e.g. --data-dir …/bots while every bot there still plays
                raise LobbyError(Msg(N_("every unfinished game seat under {dir} is already "
                                        "being played by a running process: nothing to "
                                        "rejoin"), dir=str(root)))
            raise LobbyError(nothing_to_rejoin(data_dir or default_data_dir()))
        game_dir = idle[0].dir
    try:
        held = lock_game(game_dir)
    except AlreadyRunning as exc:
        raise LobbyError(exc.args[0]) from None
    try:
        node = _rejoin(game_dir, ctx, on_event, timing)
    except LogWriteError as exc:    # the log's first record (a full disk)
        held.release()
        raise LobbyError(log_problem(exc)) from None
    except OSError as exc:       # a file we cannot read or rename (permissions, a full disk)
        held.release()
        raise LobbyError(Msg(N_("{file}: {problem}"), file=str(exc.filename or game_dir),
                             problem=exc.strerror or str(exc))) from None
    except BaseException:
        held.release()
        raise
    node.locks.append(held)
    return node


def _unfinished(data_dir: Path) -> bool:
    """Does this machine hold an unfinished game no process plays (in any profile)?"""
    return any(holder(g.dir) is None for where in profiles(data_dir)
               for g in find_games(where))


def _readable(store: GameStore) -> bool:
    try:
        store.load()
        return True
    except StoreError:
        return False


def _load_for_rejoin(store: GameStore) -> tuple[GameConfig, int, dict, dict]:
    """The stored game, or a LobbyError that names the file and what can be done."""
    try:
        return store.load()
    except StoreError as exc:
        if exc.path.name == "secrets.msgpack":
            cfg = seat = None
            try:           # for the names in the message: the config, if it is readable
                meta = read_file(store.dir / "config.msgpack", "config")
                cfg, seat = GameStore._config(store.dir / "config.msgpack", meta)
            except StoreError:
                pass
            raise LobbyError(lost_secrets(exc, cfg, seat)) from None
        raise LobbyError(Msg(N_("{error}; the game cannot be rejoined from these files"),
                             error=exc.args[0] if exc.args else str(exc))) from None


def _bind_again(ctx: zmq.Context, secrets: dict, endpoint: str, seat: int) -> ZmqMesh:
    """Our mesh socket again: at the address we had if we can (the others' sockets then
    reconnect by themselves), else wherever we can (a new IP after a network change, or
    our port taken): the others learn the new address from our heartbeats."""
    host, port = endpoint_host(endpoint), endpoint_port(endpoint) or 0
    if host in WILDCARDS:
        host = "*"
    mine = [_bind_endpoint(host, port), _bind_endpoint(host)]
    tries = mine + [_bind_endpoint("*", port), _bind_endpoint("*")]
    gone = False
    for i, where in enumerate(dict.fromkeys(tries)):
        if gone and where in mine:
            continue
        for _ in range(20 if i == 0 else 1):     # the old socket may take a moment to go
            try:
                return ZmqMesh(ctx, seat, secrets["curve_public"], secrets["curve_secret"],
                               bind=where)
            except zmq.ZMQError as exc:
                if exc.errno == zmq.EADDRNOTAVAIL:
                    gone = True                 # that IP is gone: the machine moved
                    break
                time.sleep(0.1)
    raise LobbyError(Msg(N_("cannot listen for the other players on this machine (tried "
                            "{endpoint} and any free port)"), endpoint=endpoint))


def _reachable_endpoint(mesh: ZmqMesh, cfg: GameConfig, seat: int, outside: bool = False) -> str:
    """The address the others can reach our mesh socket at now: the IP the system routes
    to them from (or the one we bound), and our port.  An address the others knew us by
    that is no address of this machine (a forwarded port, a name) stays while our port
    is the same (``outside``: so it was when the game began): it was never ours to lose."""
    host: str | None = endpoint_host(mesh.endpoint)
    known = endpoint_host(cfg.endpoints[seat])
    if host in WILDCARDS:
        if outside and endpoint_port(cfg.endpoints[seat]) == mesh.port:
            return cfg.endpoints[seat]
        host = None
        for s, ep in enumerate(cfg.endpoints):
            if s != seat and ep.startswith("tcp://"):
                host = route_address(endpoint_host(ep))
                if host:
                    break
        host = host or known
    assert host is not None, "known is a text"
    return endpoint(host, mesh.port)


def _rejoin(game_dir: PathArg, ctx: zmq.Context | None, on_event: EventSink,
            timing: Timing | None) -> Node:
    store = GameStore(Path(game_dir))
    cfg, seat, secrets, meta = _load_for_rejoin(store)
    for note in store.notes:
        on_event({"event": "alert", "kind": "error", "text": note, "seat": seat})
    own_ctx = ctx is None
    ctx = ctx or zmq.Context()
    bound_context(ctx)      # before the lobby's sockets: no frame over 1 MiB anywhere
    identity = Identity.from_private_bytes(secrets["identity"])
    peer = SessionPeer(cfg, seat, identity, secrets["master"], store=store, timing=timing,
                       wall_ns=time.time_ns,
                       now=time.monotonic())
    records, notes = store.recover_log(cfg, seat)
    for note in notes:
        on_event({"event": "alert", "kind": "error", "text": note, "seat": seat})
    t0 = time.monotonic()
    peer.restore(records, time.monotonic())
    store.open_log()
    replay_s = time.monotonic() - t0
    mesh = _bind_again(ctx, secrets, meta.get("mesh") or cfg.endpoints[seat], seat)
    # a new address (another IP after a network change, or another port): announced,
    # signed, in every heartbeat, with a number that only grows
    known = meta.get("advertised") or cfg.endpoints[seat]
    number = meta.get("moves", 0)
    here = _reachable_endpoint(mesh, cfg, seat, bool(meta.get("outside")))
    if here != known and valid_endpoint(here):
        number += 1
        meta = {**meta, "mesh": mesh.endpoint, "advertised": here, "moves": number}
        store.save_meta(meta)
        on_event({"event": "moved", "endpoint": here, "was": known})
    if number:
        peer.resync.move(number, meta.get("advertised", here))
    node = Node(ctx, peer, mesh, store, addresses=AddressWatch(
        meta.get("advertised") or cfg.endpoints[seat], now=time.monotonic()), own_ctx=own_ctx)
    node.connect()
    now = time.monotonic()
    peer.liveness.reset(now)
    peer.announce(now)
    attach_bot(node, meta.get("bot"), meta.get("think", 0.0))
    procs, running = restart_bots(store.dir, cfg.game_id)
    node.keep_bots(procs)
    if node.procs or running:
        on_event({"event": "bots", "restarted": len(node.procs), "running": running})
    for problem in peer.restore_problems:
        on_event({"event": "alert", "kind": "error", "seat": seat,
                  "text": Msg(N_("{file}: {problem}"), file=str(store.dir / "log"),
                              problem=problem)})
    on_event({"event": "rejoined", "game": cfg.game_id, "seat": seat, "records": len(records),
              "replay_s": round(replay_s, 3), "version": peer.game.version if peer.game else None})
    return node


def spawn_bot(address: str, level: str, data_dir: Path, think: float = 0.0,
              extra: list | None = None) -> subprocess.Popen:
    """A bot seat as its own process (an ordinary peer)."""
    return _detached(["bot", "--join", address, "--level", level, "--data-dir", str(data_dir),
                      "--think", str(think), "--quiet"] + list(extra or []), Path(data_dir))


def _detached(args: list, data_dir: Path) -> subprocess.Popen:
    """A peer process of its own session, detached from our terminal: closing the host's
    terminal (SIGHUP, or its process group killed) does not end it.  Its messages go to
    ``bots.log`` in its data directory."""
    root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / "bots.log", "ab") as err:
        return subprocess.Popen([sys.executable, "-m", "client.peer", *args], env=env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)


def restart_bots(game_dir: Path, game_id: str) -> tuple[list, list[int | str]]:
    """Re-attach to the bots this machine's host started for the game (``<data>/bots``
    beside ``<data>/games``): each seat's bot that is not running is restarted from its
    own directory.  (the processes restarted, the seats still running)"""
    bots = Path(game_dir).parent.parent / "bots"
    procs: list[subprocess.Popen] = []
    running: list[int | str] = []
    for st in find_games(bots):
        if not st.dir.name.startswith(game_id + "-"):
            continue
        seat = st.dir.name.rsplit("-", 1)[1]
        if holder(st.dir) is not None:
            running.append(int(seat) if seat.isdigit() else seat)
            continue
        procs.append(_detached(["rejoin", "--dir", str(st.dir), "--data-dir", str(bots),
                                "--quiet"], bots))
    return procs, running
