"""The lobby's messages with real processes: joining a full or started game says so, the
joiner's lobby shows the player list when it changes, and the same joiner twice is
refused with a sentence."""

import pytest

from net.crypto import Identity
from net.node.lobby import JoinLobby, LobbyError
from net.node.transport import curve_keypair

pytestmark = pytest.mark.e2e     # a host process in every test


def probe(ctx, addr, name="Zed"):
    j = JoinLobby(ctx, addr, Identity.generate(), name, curve_keypair(), 1)
    try:
        return j.connect(5.0)
    finally:
        j.close()


def test_joining_a_started_game_says_it_started(spawn, ctx):
    """A joiner of a started game is told so, not 'address unreachable'."""
    d = spawn.dir
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--pace", 0.2, "--data-dir", d / "h", "--timeout", 60,
                 label="host")
    addr = host.wait_event("lobby", 20)["address"]
    spawn("join", addr, "--name", "Bo", "--level", "random", "--pace", 0.2,
          "--data-dir", d / "b", "--timeout", 60, label="bo")
    host.wait_event("started", 30)
    with pytest.raises(LobbyError, match=r"the game has already started \(Ana, Bo\)"):
        probe(ctx, addr)


def test_joining_a_full_game_says_it_is_full(spawn, ctx):
    d = spawn.dir
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--data-dir", d / "h", "--timeout", 60, label="host")
    addr = host.wait_event("lobby", 20)["address"]
    first = JoinLobby(ctx, addr, Identity.generate(), "Bo", curve_keypair(), 1)
    try:
        first.connect(5.0)
        host.wait_for(lambda ev: ev.get("event") == "lobby-confirm" and ev["seats"] == 2, 20,
                      "the host asked to confirm")
        with pytest.raises(LobbyError, match=r"game full \(2 of 2 seats taken\)"):
            probe(ctx, addr, "Cy")
    finally:
        first.leave()
        first.close()


def test_the_same_joiner_twice_is_refused_with_a_sentence(spawn):
    """A second process for the same joiner is refused with a sentence (no raw JSON, no
    'cannot bind our mesh address')."""
    d = spawn.dir
    host = spawn("host", "--name", "Ana", "--players", 3, "--bind", "127.0.0.1", "--port", 0,
                 "--data-dir", d / "h", "--timeout", 60, label="host")
    addr = host.wait_event("lobby", 20)["address"]
    bo = spawn("join", addr, "--name", "Bo", "--data-dir", d / "b", "--timeout", 60,
               label="bo")
    bo.wait_event("welcome", 20)
    again = spawn("join", addr, "--name", "Bo", "--data-dir", d / "b", "--timeout", 60,
                  label="bo-again")
    r = again.result(30)
    assert r["rc"] == 2
    assert "already running in another process on this machine" in r["text"]
    # the first one was not disturbed: still seated, and told of nobody new
    assert [e["name"] for e in bo.wait_event("roster", 5)["roster"]] == ["Ana", "Bo"]
    rosters = [e for e in bo.events if e.get("event") == "roster"]
    assert len(rosters) == 1, rosters      # not once a second: only when it changes


def test_host_and_joiner_on_one_machine_never_share_an_identity(spawn):
    """The same user hosts and joins on one laptop, with no options: the joiner takes its
    own profile (its own key and seat files), says so in one line, and the game starts
    with two players; killed, the same join command finds its stored seat again."""
    same = spawn.dir / "same"
    host = spawn("host", "--name", "Ana", "--players", 2, "--bind", "127.0.0.1", "--port", 0,
                 "--level", "random", "--pace", 0.05, "--data-dir", same, "--timeout", 90,
                 label="host")
    addr = host.wait_event("lobby", 20)["address"]
    args = ("join", addr, "--name", "Bo", "--bind", "127.0.0.1", "--level", "random",
            "--pace", 0.05, "--data-dir", same, "--timeout", 90)
    bo = spawn(*args, label="bo")
    own = bo.wait_event("profile", 20)
    assert own["dir"] != str(same) and own["dir"].startswith(str(same))
    welcome = bo.wait_event("welcome", 20)
    assert welcome["seat"] == 1
    assert welcome["fingerprint"] != host.wait_event("lobby", 5)["fingerprint"]
    started = bo.wait_event("started", 30)
    assert started["seat"] == 1 and started["roster"] == ["Ana", "Bo"]
    assert started["data"].startswith(own["dir"])
    assert host.wait_event("started", 30)["data"] != started["data"]
    bo.wait_round(1)
    bo.kill()
    again = spawn(*args, label="bo-again")
    assert again.wait_event("rejoin", 30)["game"] == started["data"].rsplit("/", 1)[1]
    assert again.wait_event("rejoined", 30)["seat"] == 1
    for r in (host.result(90), again.result(90)):
        assert r["status"] == "over" and r["audit"][0], r
