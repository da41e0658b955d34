"""A new IP address while the program runs (net/node/addresses.py AddressWatch): the
running peer notices that the address its mesh endpoint was announced on is gone and
which one to move to; the process side is tests/session/test_netns_readdress.py."""

from net.node.addresses import AddressWatch


class Source:
    def __init__(self, *ips):
        self.ips, self.calls = list(ips), 0

    def __call__(self):
        self.calls += 1
        return list(self.ips)


def test_same_address_changes_nothing():
    src = Source("192.168.1.20", "10.0.0.5")
    w = AddressWatch("tcp://192.168.1.20:5555", src, every=2.0)
    for t in range(0, 20):
        assert w.check(float(t)) is None
    assert 5 <= src.calls <= 11         # looked every 2 s, not at every step


def test_a_new_lease_is_noticed_once():
    src = Source("192.168.1.20")
    w = AddressWatch("tcp://192.168.1.20:5555", src, every=2.0)
    assert w.check(2.0) is None
    src.ips = []                          # the Wi-Fi reconnecting: no address at all yet
    assert w.check(4.0) is None
    src.ips = ["192.168.1.57", "172.17.0.1"]     # the route's address first
    assert w.check(5.0) is None           # not time to look yet
    assert w.check(6.0) == "192.168.1.57"
    w.moved("tcp://192.168.1.57:5555")
    assert w.check(8.0) is None
    assert w.announced == "tcp://192.168.1.57:5555"


def test_an_address_still_held_among_others_is_kept():
    src = Source("10.0.0.9", "192.168.1.20")      # another interface came up first
    w = AddressWatch("tcp://192.168.1.20:5555", src, every=1.0)
    assert w.check(1.0) is None


def test_loopback_and_unusable_announcements_never_move():
    src = Source("192.168.1.57")
    for ep in ("tcp://127.0.0.1:5555", "tcp://0.0.0.0:5555", "tcp://[::1]:5555", ""):
        assert AddressWatch(ep, src, every=1.0).check(1.0) is None


def test_a_clock_going_back_still_looks():
    src = Source("192.168.1.20")
    w = AddressWatch("tcp://192.168.1.20:5555", src, every=2.0, now=100.0)
    src.ips = ["192.168.1.57"]
    assert w.check(5.0) == "192.168.1.57"       # (monotonic time of another process)


def test_an_address_seen_through_a_nat_is_never_left():
    """The others reach us at an address this machine does not have (a virtual machine
    behind NAT): it was never ours to lose, and our own would not be reachable."""
    src = Source("10.0.2.15")
    w = AddressWatch("tcp://192.168.1.20:5555", src, every=1.0)
    assert [w.check(float(t)) for t in range(1, 6)] == [None] * 5
