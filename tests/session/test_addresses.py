"""The host prints every usable non-loopback address (the route-based
one first), never 127.0.x.x when the host name maps there, IPv6 ones too (global and
unique-local; link-local never, its zone would be the joiner's), each with its interface's
name (a VPN overlay's); `belfort join` takes HOST:PORT without tcp://, and [IPv6]:PORT."""

import socket

import pytest

from net.node.addresses import (AddressError, AddressWatch, endpoint, endpoint_host,
                                labelled_addresses, lan_addresses, normalize, peer_address,
                                unknown_host, usable)


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
    ("[fe80::1%eth0]:5555", "tcp://[fe80::1%eth0]:5555"),
    ("[2001:db8::20]:5555", "tcp://[2001:db8::20]:5555"),
    ("tcp://[2001:db8::20]:6000", "tcp://[2001:db8::20]:6000"),
    ("[fd7a:115c:a1e0::1]", "tcp://[fd7a:115c:a1e0::1]:5555"),
    ("2001:db8::20", "tcp://[2001:db8::20]:5555"),
    ("ana-laptop", "tcp://ana-laptop:5555"),
])
def test_join_address_forms(typed, address):
    assert normalize(typed) == address


@pytest.mark.parametrize("typed, why", [
    ("192.168.1.20:99999", "not a port number"),
    ("192.168.1.20:５５５５", "not a port number"),
    ("http://x:1", "only tcp://"),
    ("", "expected HOST:PORT"),
    ("a b:1", "expected HOST:PORT"),
    ("[2001:db8::20", "expected HOST:PORT"),
    ("[2001:db8::20]5555", "expected HOST:PORT"),
    ("[2001:db8::20]:0", "not a port number"),
    ("[2001:db8::zz]:5555", "not an IPv6 address"),
    ("[192.168.1.20]:5555", "not an IPv6 address"),
    ("[fe80::1]:5555", "link-local address: add this machine's interface"),
    ("fe80::1", "link-local address"),
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


def test_ipv6_addresses_are_listed_after_ipv4_global_before_unique_local_no_link_local():
    def route(probe):
        return "2001:db8:5::7" if ":" in probe else None    # an IPv6-only network
    got = lan_addresses(route=route, interfaces=lambda: [
        ("::1", "lo"), ("fe80::1%eth0", "eth0"), ("fd00::2", "eth0"),
        ("2001:db8:9::1", "eth1"), ("2001:db8:5::7", "eth0"), ("fec0::1", "eth0")])
    assert got == ["2001:db8:5::7", "2001:db8:9::1", "fd00::2"]


def test_an_overlay_address_is_listed_with_its_interface_name():
    """A VPN overlay (Tailscale's 100.64.0.0/10 and fd7a:115c:a1e0::/48) is one more
    interface: listed, named, so the person knows which line to read out."""
    got = labelled_addresses(route=lambda p: "192.168.1.20" if "." in p else None,
                             interfaces=lambda: [("192.168.1.20", "wlan0"),
                                                 ("100.101.102.103", "tailscale0"),
                                                 ("fd7a:115c:a1e0::53", "tailscale0"),
                                                 ("10.8.0.2", "wg0")])
    assert got == [("192.168.1.20", "wlan0"), ("100.101.102.103", "tailscale0"),
                   ("10.8.0.2", "wg0"), ("fd7a:115c:a1e0::53", "tailscale0")]


@pytest.mark.parametrize("ip, ok", [
    ("2001:db8::1", True), ("fd7a:115c:a1e0::1", True), ("100.64.0.1", True),
    ("fe80::1", False), ("fe80::1%eth0", True), ("::1", False), ("::", False),
    ("ff02::fb", False), ("not an ip", False), ("::ffff:192.168.1.20", True)])
def test_usable_knows_ipv6(ip, ok):
    assert usable(ip) is ok


def test_endpoints_put_ipv6_in_brackets_and_take_them_off():
    assert endpoint("2001:db8::1", 5555) == "tcp://[2001:db8::1]:5555"
    assert endpoint("[2001:db8::1]", 5555) == "tcp://[2001:db8::1]:5555"
    assert endpoint("198.18.0.1", "*") == "tcp://198.18.0.1:*"
    assert endpoint_host("tcp://[2001:db8::1]:5555") == "2001:db8::1"
    assert endpoint_host("tcp://198.18.0.1:5555") == "198.18.0.1"


def test_a_dual_stack_socket_s_ipv4_client_is_its_ipv4_address():
    assert peer_address("::ffff:198.18.0.12") == "198.18.0.12"
    assert peer_address("2001:db8::12") == "2001:db8::12"
    assert peer_address("garbage") is None and peer_address(None) is None


def test_an_ipv6_address_moves_to_an_ipv6_one():
    here = ["2001:db8::5"]
    w = AddressWatch("tcp://[2001:db8::5]:5556", lambda: here, every=1.0)
    assert w.check(1.0) is None
    here[:] = ["198.18.0.9", "2001:db8::77"]
    assert w.check(3.0) == "2001:db8::77"          # the family the others reached us over


@pytest.mark.parametrize("text, ok", [
    ("tcp://198.18.0.1:5556", True), ("tcp://[2001:db8::1]:5556", True),
    ("tcp://[fe80::1%eth0]:5556", False), ("tcp://2001:db8::1:5556", False),
    ("tcp://[2001:db8::1]:0", False), ("tcp://host:5556", False),
    ("tcp://[2001:db8:1:2:3:4:5:6]:65535", True)])
def test_a_move_may_announce_an_ipv6_endpoint_but_no_zone_or_name(text, ok):
    from net.session.resync import valid_endpoint
    assert valid_endpoint(text) is ok


def test_one_global_and_one_unique_local_ipv6_address_per_interface():
    """(a laptop's Wi-Fi holds a stable and a temporary global address, often more)"""
    got = labelled_addresses(route=lambda p: "2001:db8:1::99" if ":" in p else "192.168.1.20",
                             interfaces=lambda: [("192.168.1.20", "wlan0"),
                                                 ("2001:db8:1::5", "wlan0"),
                                                 ("2001:db8:1::99", "wlan0"),
                                                 ("fd00::5", "wlan0"), ("fd00::6", "wlan0"),
                                                 ("2001:db8:2::5", "wg0")])
    assert got == [("192.168.1.20", "wlan0"), ("2001:db8:1::99", "wlan0"),
                   ("2001:db8:2::5", "wg0"), ("fd00::5", "wlan0")]


def test_the_address_watch_sees_every_address_not_only_the_ones_printed():
    # announced on the interface's second global address: still ours, no move
    have = [("2001:db8:1::99", "wlan0"), ("2001:db8:1::5", "wlan0")]
    w = AddressWatch("tcp://[2001:db8:1::5]:5556",
                     lambda: lan_addresses(route=lambda p: None, interfaces=lambda: have),
                     every=1.0)
    assert w.check(1.0) is None
