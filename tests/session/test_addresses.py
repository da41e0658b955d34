"""Issue 11, bug 2: the host prints every usable non-loopback address (the route-based
one first), never 127.0.x.x when the host name maps there; `belfort join` takes
HOST:PORT without tcp://."""

import pytest

from net.session.addresses import AddressError, lan_addresses, normalize, usable


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
