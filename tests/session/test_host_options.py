"""`belfort host` refuses numbers that cannot make a table before opening anything."""

import json

import pytest

from client import peer


@pytest.mark.parametrize("players, bots, why", [
    (7, 0, "--players must be 2 to 5"),
    (1, 0, "--players must be 2 to 5"),
    (3, 3, "--bots 3 does not fit --players 3: the host is one of the players, so 0 to 2 bots"),
    (2, -1, "--bots -1 does not fit --players 2"),
])
def test_impossible_seat_counts_are_refused_with_the_reason(tmp_path, capsys, players, bots,
                                                             why):
    rc = peer.main(["host", "--name", "Ana", "--players", str(players), "--bots", str(bots),
                    "--bind", "127.0.0.1", "--port", "0", "--data-dir", str(tmp_path), "--json"])
    assert rc == 2
    events = [json.loads(ln[2:]) for ln in capsys.readouterr().out.splitlines()
              if ln.startswith("@ ")]
    assert [ev["text"] for ev in events if ev.get("event") == "error"][0].startswith(why)
    assert not list(tmp_path.glob("games/*"))       # nothing was created


@pytest.mark.parametrize("option, value, why", [
    ("--pace", "-3", "(0 or more)"),
    ("--think", "nan", "(0 or more)"),
    ("--timeout", "inf", "(more than 0)"),
    ("--step-deadline", "0", "(more than 0)"),
    ("--stall-timeout", "soon", "(more than 0)"),
])
def test_times_that_are_no_seconds_are_refused_naming_the_option(capsys, option, value, why):
    with pytest.raises(SystemExit) as exc:
        peer.build_parser().parse_args(["host", "--name", "Ana", option, value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}" in err and f"not a number of seconds: '{value}' {why}" in err


def test_times_in_seconds_are_read_as_numbers():
    args = peer.build_parser().parse_args(["host", "--name", "Ana", "--pace", "0",
                                           "--timeout", "2.5", "--step-deadline", "1e1"])
    assert (args.pace, args.timeout, args.step_deadline) == (0.0, 2.5, 10.0)


@pytest.mark.parametrize("ev, text", [
    ({"restarted": 2, "running": []}, "Bots of this game restarted on this machine: 2."),
    ({"restarted": 1, "running": [2]},
     "Bots of this game restarted on this machine: 1; still running: 1."),
    ({"restarted": 0, "running": [1, 2]}, "Bots of this game still running on this machine: 2."),
])
def test_a_rejoin_tells_about_its_bots_in_words(ev, text):
    # (it printed the raw event: {"event": "bots", "restarted": 2, "running": []})
    assert peer.human_text({"event": "bots", **ev}) == text


def test_the_join_commands_name_their_interface_so_the_person_knows_which_to_read():
    text = str(peer.human_text({
        "event": "lobby", "join": "belfort join tcp://192.168.1.20:5555",
        "joins": ["belfort join tcp://192.168.1.20:5555", "belfort join tcp://100.101.7.3:5555",
                  "belfort join '[fd7a:115c:a1e0::53]:5555'"],
        "interfaces": ["wlan0", "tailscale0", "tailscale0"], "fingerprint": "3F2A-91C0"}))
    assert "    belfort join tcp://192.168.1.20:5555    (wlan0)\n" in text
    assert "    belfort join tcp://100.101.7.3:5555    (tailscale0)\n" in text
    assert "    belfort join '[fd7a:115c:a1e0::53]:5555'    (tailscale0)" in text
    # without names (no ifaddr) the lines are as before
    bare = str(peer.human_text({"event": "lobby", "join": "belfort join tcp://10.0.0.2:5555",
                                "fingerprint": "3F2A"}))
    assert "    belfort join tcp://10.0.0.2:5555\n" in bare and "(" not in bare.split("\n")[2]


def test_an_advertised_address_comes_with_the_ports_to_forward():
    ev = {"event": "lobby", "join": "belfort join tcp://203.0.113.9:5555",
          "joins": ["belfort join tcp://203.0.113.9:5555", "belfort join tcp://10.0.0.2:5555"],
          "interfaces": ["--advertise", "eth0"], "fingerprint": "3F2A",
          "ports": [5555, 5556], "advertised": True}
    text = str(peer.human_text(ev))
    assert text.startswith("Hosting. The others type:\n\n    belfort join tcp://203.0.113.9:5555")
    assert text.endswith("The router must forward TCP ports 5555 and 5556 to this machine.")
    assert "forward" not in str(peer.human_text(dict(ev, advertised=False)))
