"""Leaving a game for good between real peer processes (net/session/departure.py): the
leaver is the ordinary peer run by tests/session/misbehave.py, which at a chosen game
version does what typing `leave for good` does."""

import pytest

from tests.session.test_e2e import start_game

BAD = ("cheat", "desync", "error")


@pytest.mark.e2e
def test_three_players_the_leavers_seat_goes_to_a_bot_at_once(spawn):
    # no --auto-handoff and the default stall time (180 s): only the leave can hand the
    # seat over within the peers' 90 s
    host, bots = start_game(spawn, 3, misbehave={2: "leave-for-good:60"})
    leaver = bots[1]
    gone = leaver.result(60)
    assert gone["status"] == "left" and gone["rc"] == 0, gone
    results = [host.result(90), bots[0].result(90)]
    for r in results:
        assert r["status"] == "over" and r["audit"] and r["audit"][0], r
        assert r["rc"] == 0, r
        assert not [a for a in r["alerts"] if a["kind"] in BAD], r
        assert any("left the game for good" in a["text"] for a in r["alerts"]), r
        assert any("seat is now played by a bot hosted by Ana" in a["text"]
                   for a in r["alerts"]), r
    assert len({r["hash"] for r in results}) == 1


@pytest.mark.e2e
def test_two_players_the_game_ends_with_a_final_table(spawn):
    host, bots = start_game(spawn, 2, misbehave={1: "leave-for-good:60"})
    results = [host.result(90), bots[0].result(90)]
    for r in results:
        # over, audited as at any end, calmly
        assert r["status"] == "over" and r["audit"] and r["audit"][0], r
        assert r["rc"] == 0, r
        assert not [a for a in r["alerts"] if a["kind"] in BAD], r
        assert r["scores"], r
    assert len({r["hash"] for r in results}) == 1
    assert "because you left" in results[1]["ended"], results[1]
    assert "Bot1 left the game for good" in results[0]["ended"], results[0]
