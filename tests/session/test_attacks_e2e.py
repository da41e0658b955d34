"""Attacks with real peer processes on loopback ZeroMQ: a cheating peer that speaks the
protocol (tests/session/cheater.py: the ordinary peer, patched to misbehave on cue)
against honest peer processes.  Each case ends with the honest peers running to the end
or stopped with a verdict naming the cheater, and only it; nothing of theirs leaked.

The games are 2-round ones (a ruleset file) and the step deadline short where a
deadline is what is tested, so that each case takes a few seconds.  The in-memory
versions, with more detail, are in test_attacks.py."""

import sys

import pytest

from tests.session.test_e2e import start_game

pytestmark = pytest.mark.e2e

STEP_DEADLINE = 2.0      # s: where a withheld step is the attack (default 15 s)


def short_ruleset(directory):
    """The standard ruleset, 2 rounds long (scoring at the end)."""
    import belfort
    from pathlib import Path
    text = (Path(belfort.__file__).parent / "standard.toml").read_text()
    short = text.replace("rounds = 7\nscoring_rounds = [3, 5, 7]",
                         "rounds = 2\nscoring_rounds = [2]")
    assert short != text
    path = directory / "short.toml"
    path.write_text(short)
    return path


def table(spawn, n, cheater, attack, deadline=None, secret=None):
    """A game of ``n`` seats: the host (seat 0) and bots, seat ``cheater`` (the host's
    too) running ``cheater.py ATTACK`` in front of its peer; ``secret``: reproducible
    masters (so the deck's order).  Every peer of the table, in seat order.
    ``deadline``: the honest peers' step deadline; the cheater keeps the default one (its
    own deadlines would fire at honest seats while the others are held up by what it did,
    and its lone votes would then stop its own game)."""
    def make(*args, label=None, **kw):
        if label == (f"bot{cheater}" if cheater else "host"):
            kw["prefix"] = [sys.executable, "-m", "tests.session.cheater", attack, "--"]
        return spawn(*args, label=label, **kw)
    make.dir = spawn.dir
    more = ("--step-deadline", deadline) if deadline else ()
    host, bots = start_game(make, n, secret=secret,
                            host_args=("--ruleset", short_ruleset(spawn.dir),
                                       *(more if cheater else ())),
                            bot_extra={s: more for s in range(1, n) if s != cheater})
    return [host] + bots


def named(r):
    """Seats a peer named, as a cheater or as out of sync."""
    return {a["seat"] for a in r["alerts"] if a["kind"] in ("cheat", "desync")
            and a["seat"] is not None}


def alerts(r, words):
    return [a for a in r["alerts"] if words in a["text"]]


def finished_together(results):
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0], r
        assert r["rc"] == 0, r
    assert len({r["hash"] for r in results}) == 1


def received(proc, type_):
    """Did the cheater receive any message of this type?"""
    return [e for e in proc.events if e.get("event") == "cheater-got" and e["type"] == type_]


def acted(proc):
    assert any(e.get("event") == "cheater" for e in proc.events), proc.events[-5:]


# ---------------------------------------------------------------- handoff notices and votes
@pytest.mark.parametrize("n", [2, 3])
def test_forged_handoff_notice_changes_nothing(spawn, n):
    """Seat 1 tells seat 0 its seat was handed to a bot (signed, with its own vote or
    none): seat 0 plays on to the end, names seat 1, and nobody's escrow is opened."""
    peers = table(spawn, n, 1, "forged-handed:15")
    results = [p.result(60) for p in peers]
    finished_together(results)
    acted(peers[1])
    victim = results[0]
    assert alerts(victim, "told us our seat was handed to a bot"), victim["alerts"]
    assert named(victim) == {1}
    for r in results[2:]:
        assert not named(r), r["alerts"]
    assert not received(peers[1], "hand/share")


def test_lone_vote_neither_freezes_nor_leaks(spawn):
    """Seat 1 votes to hand seat 2 over while seat 2 plays on: the others are told of
    the proposal, seat 2's messages still count (the game ends the same everywhere),
    nobody publishes an escrow share, and seat 2 is never named."""
    peers = table(spawn, 3, 1, "lone-vote:15")
    results = [p.result(60) for p in peers]
    finished_together(results)
    acted(peers[1])
    assert alerts(results[0], "Bot1 proposes to hand Bot2's seat to a bot"), results[0]["alerts"]
    for r in (results[0], results[2]):
        assert not named(r) & {0, 2}, r["alerts"]
        assert not alerts(r, "played by a bot"), r["alerts"]
    assert not received(peers[1], "hand/share")


# ---------------------------------------------------------------- withholding, with heartbeats
def test_withheld_key_release_two_players_stops_naming_it(spawn):
    peers = table(spawn, 2, 1, "withhold-keys:10", STEP_DEADLINE)
    r = peers[0].result(60)
    assert r["status"] == "stopped" and r["rc"] == 1, r
    assert "Bot1 (seat 1) withheld its key" in r["stop_reason"], r["stop_reason"]
    assert named(r) == {1}, r["alerts"]


def test_withheld_key_release_three_players_handed_to_a_bot(spawn):
    """The withholder is treated as departed: the two others vote citing the deadline,
    rebuild its seat from the escrow and finish the game with a bot on it."""
    peers = table(spawn, 3, 2, "withhold-keys:10", STEP_DEADLINE)
    results = [peers[0].result(60), peers[1].result(60)]
    finished_together(results)
    for r in results:
        assert named(r) == {2}, r["alerts"]
        assert [a for a in alerts(r, "Bot2 (seat 2) withheld its key") if a["seat"] == 2]
        assert alerts(r, "Bot2's seat is now played by a bot hosted by Ana"), r["alerts"]
    # (the withholder's own end depends on timing: told its seat is a bot's if its
    # heartbeat reaches a peer still there, else it waits for the others until it gives up)


@pytest.mark.parametrize("what", ["seed", "sim"])
def test_withheld_reveal_is_named(spawn, what):
    peers = table(spawn, 2, 1, f"withhold-{what}", STEP_DEADLINE)
    r = peers[0].result(60)
    assert r["status"] == "stopped" and r["rc"] == 1, r
    assert "Bot1 (seat 1) withheld its reveal" in r["stop_reason"], r["stop_reason"]
    assert named(r) == {1}, r["alerts"]


def test_unprocessable_deck_open_is_refused_and_game_goes_on(spawn):
    """Seat 1 opens the draw pile's top card: refused once past the deadline, naming
    seat 1; the game goes on and ends the same for everyone."""
    peers = table(spawn, 3, 1, "open-undealt:15", STEP_DEADLINE)
    results = [p.result(60) for p in peers]
    acted(peers[1])
    finished_together([results[0], results[2]])
    for r in (results[0], results[2]):
        assert named(r) == {1}, r["alerts"]
        assert alerts(r, "never dealt to it"), r["alerts"]


# ---------------------------------------------------------------- deck disputes, equivocation
@pytest.mark.parametrize("how", ["shuffle", "rekey"])
def test_tampered_deck_is_disputed_and_only_the_tamperer_named(spawn, how):
    peers = table(spawn, 3, 2, f"tamper-{how}")
    for r in (peers[0].result(60), peers[1].result(60)):
        assert r["status"] == "stopped" and r["rc"] == 1, r
        assert "Bot2 (seat 2)" in r["stop_reason"] and "tampered" in r["stop_reason"], r
        assert named(r) == {2}, r["alerts"]


def test_duplicated_card_is_disputed_and_only_the_tamperer_named(spawn):
    """Seat 0 (the host) re-keys the deck first and puts a second, valid-looking copy of
    position 5's card at position 8; with these secrets both copies are shown at the
    start, so the duplicate shows in the first moves: the peers dispute, every seat
    publishes its audit of the deck, and the audit names seat 0 only — never the seat
    whose key release completed the decoding."""
    peers = table(spawn, 3, 0, "tamper-duplicate:8", secret="dup3")
    for r in (peers[1].result(60), peers[2].result(60)):
        assert r["status"] == "stopped" and r["rc"] == 1, r
        assert "Ana (seat 0)" in r["stop_reason"] and "tampered" in r["stop_reason"], r
        assert named(r) == {0}, r["alerts"]
        assert alerts(r, "is at positions"), r["alerts"]


def test_equivocation_becomes_proof_against_its_signer(spawn):
    """Seat 1 signs one command for seat 0 and another, same seq, for seat 2: both
    stop with the proof's verdict naming seat 1; neither deceived seat is blamed."""
    peers = table(spawn, 3, 1, "equivocate:10")
    results = [peers[0].result(60), peers[2].result(60)]
    acted(peers[1])
    for r in results:
        assert r["status"] == "stopped" and r["rc"] == 1, r
        assert "Bot1 (seat 1) signed two different messages" in r["stop_reason"], r
        assert {a["seat"] for a in alerts(r, "signed two different")} == {1}, r["alerts"]
        # what their forked games made them doubt of each other was held, then dropped
        # with the proof (doubt.py): no honest seat is named
        assert named(r) == {1}, r["alerts"]


# ---------------------------------------------------------------- bounded input
@pytest.mark.parametrize("how", ["deep", "huge"])
def test_deep_or_huge_view_is_refused_and_never_logged(spawn, how):
    """Seat 1 signs a ``sess/view`` nested 100,000 deep (or of 200,000 characters): seat 0
    refuses it without storing it, naming seat 1.  Seat 1's later messages wait behind
    the refused one, so past the step deadline seat 1 is treated as departed: with 2
    players the game stops with that verdict (no crash, no error)."""
    from pathlib import Path
    peers = table(spawn, 2, 1, f"view-{how}:10", STEP_DEADLINE)
    data = Path(peers[0].wait_event("started", 20)["data"])
    r = peers[0].result(60)
    acted(peers[1])
    assert named(r) == {1}, r["alerts"]
    assert alerts(r, "Bot1 (seat 1) signed a 'sess/view' message"), r["alerts"]
    assert r["status"] == "stopped" and r["rc"] == 1, r
    assert "Bot1 (seat 1) withheld a valid message" in r["stop_reason"], r["stop_reason"]
    assert not [a for a in r["alerts"] if a["kind"] == "error"], r["alerts"]
    logged = (data / "log").read_bytes()
    assert b"[" * 1000 not in logged and b"x" * 1000 not in logged


def test_sync_request_flood_is_not_amplified(spawn):
    """3,000 heartbeats asking seat 0 for everything draw a few answers (≤ 4 at once, then
    8 a second while the requests last: 7 here), not 6,000; the game goes on to the end.
    The bound allows the requests to take half a minute to read on a loaded machine."""
    peers = table(spawn, 2, 1, "sync-flood:10")
    results = [p.result(60) for p in peers]
    finished_together(results)
    acted(peers[1])
    tally = next(e for e in peers[1].events if e.get("event") == "cheater-tally")["got"]
    assert tally.get("0 ctl/sync", 0) <= 300, tally


# ---------------------------------------------------------------- bounded memory
def peak_rss_mb(procs):
    """Each process's peak resident memory (VmHWM), read until it exits: {label: MB}."""
    import threading
    import time
    peaks = {}

    def watch(proc):
        path = f"/proc/{proc.p.pid}/status"
        while proc.p.poll() is None:
            try:
                with open(path) as f:
                    line = next(ln for ln in f if ln.startswith("VmHWM:"))
                peaks[proc.label] = int(line.split()[1]) / 1024
            except (OSError, StopIteration):
                return
            time.sleep(0.02)      # a sampling period, not a wait for an outcome
    threads = [threading.Thread(target=watch, args=(p,), daemon=True) for p in procs]
    for t in threads:
        t.start()
    return peaks, threads


def test_a_flood_of_valid_views_leaves_memory_bounded(spawn):
    """2,500 signed views of 60,000 characters, each a valid message in sequence (143 MB):
    the honest peers keep at most 4 views of a seat, cut a seat off after 64 refused
    messages, and hold at most RCVHWM (100) frames per connection while they read, so their
    peak memory (about 45 MB without the flood) stays far below what the flood holds, and
    nobody honest is named."""
    from tests.session.cheater import VIEW_CHARS, VIEW_FLOOD
    peers = table(spawn, 3, 1, "view-flood")
    peaks, threads = peak_rss_mb(peers)
    results = [p.result(120) for p in peers]
    for t in threads:
        t.join(timeout=5)
    acted(peers[1])
    flood_mb = VIEW_FLOOD * VIEW_CHARS / 2**20
    for s in (0, 2):
        assert named(results[s]) <= {1}, results[s]["alerts"]
        assert peaks[peers[s].label] < 0.6 * flood_mb, (peaks, flood_mb)
