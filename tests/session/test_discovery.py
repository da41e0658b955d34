"""Finding a game without typing an address: the announcement's TXT record is
read as untrusted text, addresses on our own network come first, the choice works
without a terminal, and discovery that cannot work says to type the printed address."""

import pytest

from net.node import discovery
from client.choose import choose_game
from net.node.discovery import DiscoveryError, Game, _game, _order


class Info:
    def __init__(self, props, ips=("192.168.1.20",), port=5555, name="x._belfort._tcp.local."):
        self.properties = props
        self._ips = list(ips)
        self.port = port
        self.name = name

    def parsed_addresses(self):
        return self._ips


def test_an_announcement_is_read_as_untrusted_text():
    g = _game(Info({b"host": b"Ana\x1b[2J", b"players": b"Ana,Bo\x07", b"seats": b"4",
                    b"free": b"2", b"fp": b"3F2A-91C0"}), ["192.168.1.5"])
    assert (g.host, g.players, g.seats, g.free) == ("Ana[2J", ["Ana", "Bo"], 4, 2)
    assert g.address == "tcp://192.168.1.20:5555"
    assert g.line() == ("Ana[2J's game — players: Ana, Bo; 2 of 4 seats free; key 3F2A-91C0; "
                        "tcp://192.168.1.20:5555")
    bad = _game(Info({b"seats": b"99999999999", b"free": b"-1"}), [])
    assert (bad.seats, bad.free, bad.host) == (0, 0, "?")
    assert _game(Info({}, ips=[]), []) is None


def test_the_address_on_our_own_network_comes_first():
    assert _order(["10.0.0.7", "192.168.1.20"], ["192.168.1.5"]) == ["192.168.1.20", "10.0.0.7"]


def test_ipv6_announcements_in_brackets_our_networks_first_link_local_dropped():
    g = _game(Info({b"host": b"Ana", b"seats": b"2", b"free": b"1"},
                   ips=["fe80::1", "2001:db8:9::20", "fd00::20", "198.18.0.20"]),
              ["2001:db8:9::5"])
    assert g.addresses == ["tcp://[2001:db8:9::20]:5555", "tcp://198.18.0.20:5555",
                           "tcp://[fd00::20]:5555"]
    assert _order(["2001:db8:1::7", "198.18.0.7"], ["198.18.0.5"]) == ["198.18.0.7",
                                                                       "2001:db8:1::7"]


def test_an_advertised_address_travels_in_the_txt_record_checked_like_a_typed_one():
    g = _game(Info({b"host": b"Ana", b"seats": b"2", b"free": b"1",
                    b"at": b"ana-home.example:6000"}), ["192.168.1.5"])
    assert g.addresses == ["tcp://192.168.1.20:5555", "tcp://ana-home.example:6000"]
    # only an address: anything else is left out, the game is still listed
    for junk in (b"http://evil/", b"a b", b"[zz]:1", b"x" * 700):
        g = _game(Info({b"host": b"Ana", b"at": junk}), ["192.168.1.5"])
        assert g.addresses == ["tcp://192.168.1.20:5555"], junk
    # an announcement with no A/AAAA record but an advertised address is still a game
    g = _game(Info({b"host": b"Ana", b"at": b"[2001:db8::9]:5555"}, ips=[]), [])
    assert g.addresses == ["tcp://[2001:db8::9]:5555"]


def test_the_txt_record_carries_the_advertised_address():
    class Lobby:
        seats = [type("S", (), {"name": "Ana"})()]
        players, fingerprint = 2, "FP"
    assert discovery._txt(Lobby(), "tcp://[2001:db8::9]:5555")["at"] == "[2001:db8::9]:5555"
    assert "at" not in discovery._txt(Lobby())


def game(host, free=1):
    return Game(host, [host], 3, free, "FP", [f"tcp://192.0.2.{len(host)}:5555"], host)


class NoTty:
    def isatty(self):
        return False


def test_the_only_game_is_joined_without_asking_when_there_is_no_terminal():
    said = []
    got = choose_game(said.append, stdin=NoTty(), find=lambda t: [game("Ana")])
    assert got.address == "tcp://192.0.2.3:5555" and got.fingerprint == "FP"
    assert said[-1]["event"] == "games" and said[-1]["games"][0]["host"] == "Ana"


def test_several_games_pick_by_host_name_or_say_how():
    said = []
    games = [game("Ana"), game("Bruno")]
    assert choose_game(said.append, stdin=NoTty(), find=lambda t: games,
                       host="bruno").address == "tcp://192.0.2.5:5555"
    assert choose_game(said.append, stdin=NoTty(), find=lambda t: games) is None
    assert "2 games were found" in said[-1]["text"]


def test_no_game_seen_falls_back_to_the_printed_address():
    said = []
    assert choose_game(said.append, stdin=NoTty(), find=lambda t: []) is None
    assert "type the address the host printed" in said[-1]["text"]


def test_no_multicast_says_to_type_the_address(monkeypatch):
    import zeroconf

    def broken(*a, **k):
        raise OSError(19, "No such device")
    monkeypatch.setattr(zeroconf, "Zeroconf", broken)
    with pytest.raises(DiscoveryError, match="type the address the host printed"):
        discovery.browse(0.2)
    said = []
    assert choose_game(said.append, stdin=NoTty(), timeout=0.2) is None
    assert said[-1]["event"] == "error" and "No such device" in said[-1]["text"]
