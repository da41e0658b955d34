"""The host prints every usable non-loopback address (the route-based
one first), never 127.0.x.x when the host name maps there; `belfort join` takes
HOST:PORT without tcp://."""

import socket

import pytest

from net.node.addresses import AddressError, lan_addresses, normalize, unknown_host, usable


def test_hostname_on_loopback_does_not_make_the_address_loopback():
    # the common Linux setup: the host name resolves to 127.0.1.1
    got = lan_addresses(route=lambda probe: None,
                        interfaces=lambda: ["127.0.0.1", "127.0.1.1", "192.168.1.20"])
    assert got == ["192.168.1.20"]


def test_route_address_first_then_every_other_interface_once():
    got = lan_addresses(route=lambda probe: "10.0.0.5",
                        interfaces=lambda: ["127.0.0.1", "192.168.1.20", "10.0.0.5",
                                            "169.254.3.3", "0.0.0.0"])
    assert got == ["10.0.0.5", "192.168.1.20"]


def test_no_network_at_all_gives_nothing_rather_than_loopback():
    assert lan_addresses(route=lambda p: "127.0.0.1", interfaces=lambda: ["127.0.0.1"]) == []


def test_this_machine_lists_no_loopback_address():
    assert all(usable(ip) and not ip.startswith("127.") for ip in lan_addresses())


@pytest.mark.parametrize("typed, address", [
    ("192.168.1.20:5555", "tcp://192.168.1.20:5555"),
    ("tcp://192.168.1.20:6000", "tcp://192.168.1.20:6000"),
    ("192.168.1.20", "tcp://192.168.1.20:5555"),
    (" ana-laptop.local:5556 ", "tcp://ana-laptop.local:5556"),
    ("[fe80::1]:5555", "tcp://[fe80::1]:5555"),
])
def test_join_address_forms(typed, address):
    assert normalize(typed) == address


@pytest.mark.parametrize("typed, why", [
    ("192.168.1.20:99999", "not a port number"),
    ("192.168.1.20:５５５５", "not a port number"),
    ("http://x:1", "only tcp://"),
    ("", "expected HOST:PORT"),
    ("a b:1", "expected HOST:PORT"),
])
def test_bad_join_addresses_say_what_is_wrong(typed, why):
    with pytest.raises(AddressError, match=why):
        normalize(typed)


@pytest.mark.parametrize("typed", ["192.168.1.300", "999.1.1.1:5555", "10.0.0", "1.2.3.4.5"])
def test_digits_and_dots_that_are_no_ip_address_are_refused_at_once(typed):
    # (not handed to a name server, which would answer nothing after a long wait)
    with pytest.raises(AddressError, match="not an IP address"):
        normalize(typed)


def _names(known):
    def lookup(host, port, type=0):
        if host not in known:
            raise socket.gaierror(-2, "Name or service not known")
        return [(socket.AF_INET, type, 6, "", (known[host], port))]
    return lookup


def test_an_unknown_host_name_is_told_before_connecting():
    lookup = _names({"ana-laptop.local": "192.168.1.20", "fe80::1": "fe80::1"})
    assert unknown_host("tcp://ana-laptop.local:5555", lookup) is None
    assert unknown_host("tcp://[fe80::1]:5555", lookup) is None
    why = str(unknown_host("tcp://ana-laptpo.local:5555", lookup))
    assert "no host named 'ana-laptpo.local'" in why and "192.168.1.20:5555" in why


def test_joining_an_unknown_host_name_says_so_instead_of_waiting(monkeypatch):
    import zmq

    from net.crypto import Identity
    from net.node.lobby import JoinLobby, LobbyError
    from net.node.transport import curve_keypair
    monkeypatch.setattr(socket, "getaddrinfo", _names({}))
    ctx = zmq.Context()
    try:
        with pytest.raises(LobbyError, match="no host named 'nosuchhost'"):
            JoinLobby(ctx, "nosuchhost:5555", Identity.generate(), "Bo", curve_keypair(), 1)
    finally:
        ctx.term()
