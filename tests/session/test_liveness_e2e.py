"""Nobody can make the table wait for ever, with real peer processes on loopback: each way
a seat used to hold the others up until somebody killed the program, played by a cheating
peer (tests/session/stall_cheater.py: the ordinary peer, patched) against honest peer
processes.  Each case ends by itself — the game finished, paused or stopped with a verdict
naming the seat — well before the peers' own ``--timeout``.  The in-memory versions are in
test_waits.py."""

import signal
import sys

import pytest

from tests.session.test_attacks_e2e import alerts, named, short_ruleset
from tests.session.test_e2e import start_game

pytestmark = pytest.mark.e2e

FAST = ("--stall-timeout", 4, "--step-deadline", 2)


def table(spawn, n, cheater, attack, honest=(), host_args=()):
    """A game of ``n`` seats: the host (seat 0) and bots; seat ``cheater`` runs
    ``stall_cheater.py ATTACK`` in front of its peer; ``honest``: the other seats' options."""
    def make(*args, label=None, **kw):
        if cheater is not None and label == (f"bot{cheater}" if cheater else "host"):
            kw["prefix"] = [sys.executable, "-m", "tests.session.stall_cheater", attack, "--"]
        return spawn(*args, label=label, **kw)
    make.dir = spawn.dir
    host, bots = start_game(make, n, host_args=("--ruleset", short_ruleset(spawn.dir),
                                                *host_args, *(honest if cheater else ())),
                            bot_extra={s: honest for s in range(1, n) if s != cheater})
    return [host] + bots


def test_objections_without_evidence_cannot_block_a_handoff(spawn):
    """Four players: seat 3 is killed; seat 1 answers each vote to hand it over with an
    objection that proves nothing, and never votes.  The table used to loop for ever;
    now the objection is refused and seat 1, which never answered, is named."""
    peers = table(spawn, 4, 1, "bare-no", honest=(*FAST, "--auto-handoff", 2))
    peers[3].wait_round(1)
    peers[3].kill()
    for p in (peers[0], peers[2]):
        r = p.result(60)
        assert r["status"] == "stopped" and r["rc"] == 1, r
        assert "Bot1 (seat 1) neither agreed nor objected" in r["stop_reason"], r["stop_reason"]
        assert alerts(r, "without evidence"), r["alerts"]
        assert 1 in named(r) and not named(r) & {0, 2}, r["alerts"]


def test_a_premature_finish_then_silence_is_handed_to_a_bot(spawn):
    """Seat 2 says it finished while playing, then vanishes: it used to switch liveness
    off for it (no notice, no handoff).  The others see it disconnected and hand it over."""
    peers = table(spawn, 3, 2, "premature-fin:10", honest=(*FAST, "--auto-handoff", 2))
    results = [p.result(60) for p in peers[:2]]
    for r in results:
        assert r["status"] == "over" and r["rc"] == 0, r
        assert alerts(r, "played by a bot"), r["alerts"]
    assert len({r["hash"] for r in results}) == 1


def test_a_heartbeat_every_three_seconds_is_not_presence(spawn):
    """Two players: seat 1 stops playing but sends a heartbeat every 3 s.  The stall clock
    restarted at each heartbeat; now the game pauses, naming it."""
    peers = table(spawn, 2, 1, "flap:10", honest=("--stall-timeout", 6))
    r = peers[0].result(60)
    assert r["status"] == "paused" and r["rc"] == 4, r
    assert "Bot1" in r["stop_reason"], r["stop_reason"]


def test_silence_before_the_seed_reveal_ends_the_setup(spawn):
    """Three players: seat 2 commits to its seed share and vanishes.  No hand is at stake
    yet: the others end the setup with a verdict instead of waiting."""
    # (a step deadline longer than the time it takes to see the seat gone: the silence,
    # not the withheld step, is what is tested)
    peers = table(spawn, 3, 2, "vanish-at-reveal", honest=("--stall-timeout", 4,
                                                           "--step-deadline", 8))
    for p in peers[:2]:
        r = p.result(60)
        assert r["status"] == "stopped" and r["rc"] == 1, r
        assert "could not start" in r["stop_reason"] and "Bot2 (seat 2)" in r["stop_reason"], \
            r["stop_reason"]


def test_a_deck_dispute_waits_to_name_the_seat_withholding_its_audit(spawn):
    """Seat 2 tampered with its shuffle and never publishes its audit.  The honest peers
    used to leave within ~2 s, before the deadline that names it."""
    peers = table(spawn, 3, 2, "mute-dispute", honest=FAST)
    for p in peers[:2]:
        r = p.result(60)
        assert r["status"] == "stopped" and r["rc"] == 1, r
        assert "Bot2 (seat 2) withheld its deck audit" in r["stop_reason"], r["stop_reason"]
        assert 2 in named(r), r["alerts"]


def test_left_for_now_and_never_back_is_handed_over(spawn):
    """Seat 1 leaves for now (SIGTERM) and never comes back; the host votes by itself
    (``--auto-handoff``) once the whole stall time has passed, the bot peer follows."""
    peers = table(spawn, 3, None, "", host_args=(*FAST, "--auto-handoff", 2), honest=FAST)
    peers[1].wait_round(1)
    peers[1].kill(signal.SIGTERM)
    assert peers[1].p.wait(timeout=30) in (130, 143)
    results = [peers[0].result(60), peers[2].result(60)]
    for r in results:
        assert r["status"] == "over" and r["rc"] == 0, r
        assert alerts(r, "played by a bot"), r["alerts"]
    assert len({r["hash"] for r in results}) == 1
