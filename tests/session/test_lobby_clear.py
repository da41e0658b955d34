"""What a joiner and a host are told in the lobby, and the host's start confirmation,
without processes."""

import os

import pytest

from client.confirm import StartConfirmation
from net.node.lobby import RosterChanges
from net.node.running import AlreadyRunning, lock_game, lock_lobby


def test_roster_repeated_every_second_is_shown_once():
    """The host repeats the roster every second; the joiner shows it only when it changed."""
    shown = RosterChanges()
    ana = [{"seat": 0, "name": "Ana"}]
    both = ana + [{"seat": 1, "name": "Bo"}]
    assert [shown.changed(r) for r in (ana, ana, ana, both, both, ana)] == \
        [True, False, False, True, False, True]


def test_the_same_game_cannot_run_twice(tmp_path):
    """A second process for a stored game is refused with a sentence."""
    held = lock_game(tmp_path / "g")
    with pytest.raises(AlreadyRunning, match=rf"already running in another process on this "
                                             rf"machine \(pid {os.getpid()}\)"):
        lock_game(tmp_path / "g")
    held.release()
    lock_game(tmp_path / "g").release()       # free again once the first one is gone


def test_the_same_join_cannot_run_twice(tmp_path):
    held = lock_lobby(tmp_path, "tcp://192.0.2.7:5555")
    with pytest.raises(AlreadyRunning, match="belfort join tcp://192.0.2.7:5555 is already"):
        lock_lobby(tmp_path, "tcp://192.0.2.7:5555")
    lock_lobby(tmp_path, "tcp://192.0.2.8:5555").release()   # another game: fine
    held.release()


class FakeSeat:
    def __init__(self, name, key):
        self.name, self.key = name, key


class FakeLobby:
    def __init__(self, names, players):
        self.seats = [FakeSeat(n, bytes([i]) * 32) for i, n in enumerate(names)]
        self.players = players

    def roster(self):
        return [{"seat": i, "name": s.name, "fingerprint": f"FP{i}"}
                for i, s in enumerate(self.seats)]


class Typed:
    """Standard input the test types into."""

    def __init__(self):
        self.r, self.w = os.pipe()

    def fileno(self):
        return self.r

    def type(self, text):
        os.write(self.w, text.encode())

    def close(self):
        os.close(self.r)
        os.close(self.w)


def test_full_seats_do_not_start_the_game_until_the_host_types_start():
    """Fake joiners filling the seats must not start the game; the host
    sees each joiner's key fingerprint first."""
    told = []
    typed = Typed()
    try:
        confirm = StartConfirmation(told.append, stdin=typed)
        lobby = FakeLobby(["Ana", "Bo", "Cy"], 3)
        assert confirm(lobby) is False and confirm(lobby) is False
        assert "every seat is taken" in told[-1]["text"]
        assert "Bo (key FP1)" in told[-1]["text"] and "Cy (key FP2)" in told[-1]["text"]
        assert len(told) == 1                      # said once, not on every poll
        typed.type("hello\n")
        assert confirm(lobby) is False
        assert "'hello' is not a lobby command" in told[-1]["text"]
        typed.type("start\n")
        assert confirm(lobby) is True
    finally:
        typed.close()


def test_start_needs_two_players():
    told = []
    typed = Typed()
    try:
        confirm = StartConfirmation(told.append, stdin=typed)
        typed.type("start\n")
        assert confirm(FakeLobby(["Ana"], 3)) is False
        assert told[-1]["text"] == "At least 2 players are needed to start."
    finally:
        typed.close()


def test_a_second_process_takes_its_own_profile(tmp_path):
    """Two processes of one user never play from one profile (one key, one seat
    directory): the second takes the first free profile under the data directory."""
    from net.node.running import profiles, take_profile
    first, held1 = take_profile(tmp_path)
    second, held2 = take_profile(tmp_path)
    assert first == tmp_path and second != tmp_path and second.parent.parent == tmp_path
    assert profiles(tmp_path) == [tmp_path, second]
    held1.release()
    again, held3 = take_profile(tmp_path)      # the first one's is free again
    assert again == tmp_path
    held2.release()
    held3.release()


def test_two_players_can_join_one_game_from_one_machine(tmp_path):
    held = lock_lobby(tmp_path, "tcp://192.0.2.7:5555", "Bo")
    lock_lobby(tmp_path, "tcp://192.0.2.7:5555", "Cy").release()
    with pytest.raises(AlreadyRunning):
        lock_lobby(tmp_path, "tcp://192.0.2.7:5555", "Bo")
    held.release()
