"""Net's player-visible texts are shown in the player's language.

`net` cannot import the client, so its messages are `net.session.msgs.Msg`: the English
text (what logs, tests and the wire see) carrying its template and params, translated by
client/netmessages.py.
"""

from __future__ import annotations

import io
import json

from client.i18n import PSEUDO, using
from client.netmessages import alert_message, net_text
from net.alerts import Alert
from net.session.config import Timing
from net.session.effects import Names
from net.session.liveness import Liveness


def stalled_liveness(until):
    """Three players at seat 0, checked every second from 100 s to `until`; Bo (seat 1)
    silent since 100 s, Cy (seat 2) heard every second."""
    lv = Liveness(3, 0, Names(["Ana", "Bo", "Cy"]), Timing(timeout=180), ["human"] * 3,
                  now=100.0)
    lv.seen(1, 100.0)
    for now in range(100, until + 1):
        lv.seen(2, float(now))
        lv.check(float(now), {})
    return lv


def test_the_waiting_text_stays_english_for_net_and_comes_out_french_for_a_french_player():
    lv = stalled_liveness(112)                        # Bo is now disconnected
    text = lv.waiting_text([1], 112.0, {}, handoff_in=lambda s: 168)
    english = "waiting for Bo (disconnected 12 s) — handoff possible in 2:48"
    assert text == english and json.loads(json.dumps(text)) == english   # the wire: plain
    assert net_text(text) == english                  # English session: unchanged
    with using("fr"):
        assert net_text(text) == ("en attente de Bo (déconnecté·e depuis 12 s) — passage à "
                                  "un robot possible dans 2:48")
    with using("de"):
        assert net_text(text).startswith("Warten auf Bo (seit 12 s getrennt)")


def test_the_pause_text_and_the_left_for_now_alert_go_through_translation():
    lv = stalled_liveness(399)
    left = lv.on_bye(2, {}, 399.0).alerts[0]
    paused = lv.pause_reason(400.0, {})
    assert paused.startswith("The game is paused: Bo has been away 5:00, Cy left for now.")
    with using(PSEUDO):
        # every word inside ⟦ ⟧ went through translation; only the names stay plain
        shown = net_text(paused)
        assert "The game" not in shown and "left for now" not in shown
        assert "Bo" in shown and "Cy" in shown and "5:00" in shown
    alert = Alert(left.kind, left.text, left.seat)
    with using("it"):
        assert alert_message(alert).startswith("Cy ha lasciato la partita per ora")


def test_a_net_message_whose_translation_is_broken_falls_back_to_english():
    """A catalog entry with a bad placeholder must not crash the window."""
    from net.session.msgs import Msg
    msg = Msg("{name} is back", name="Bo")
    msg.params = {}                                   # as if the template asked for more
    with using("fr"):
        assert net_text(msg) == "Bo is back"


def refused_line(reason_from_the_wire):
    """What a joiner's lobby prints when the host refuses it (client.peer)."""
    from net.node.lobby import REFUSALS
    from net.session.msgs import N_, Msg, recognize
    from client.peer import human_text
    error = Msg(N_("refused by the host: {reason}"),
                reason=recognize(reason_from_the_wire, REFUSALS))
    return human_text({"event": "error", "text": error})


def test_a_lobby_refusal_from_the_host_is_shown_in_french():
    line = refused_line("game full (4 of 4 seats taken)")
    assert line == "Error: refused by the host: game full (4 of 4 seats taken)"
    with using("fr"):
        assert net_text(line) == ("Erreur : refusé par l'hôte : partie complète "
                                  "(4 places prises sur 4)")
    started = refused_line("the game has already started (Ana, Bo); only its players can rejoin")
    with using(PSEUDO):
        shown = net_text(started)
        assert "already started" not in shown and "Ana, Bo" in shown


def test_an_unknown_or_crafted_refusal_is_shown_as_it_came():
    """The host's reason is untrusted text: one we do not know stays English, and braces
    in it are shown, never interpreted."""
    expected = {
        "the moon is full": "the moon is full",
        "{reason}": "{reason}",
        # recognized, with the braces as the values: shown, not formatted again
        "game full ({x} of {0} seats taken)": "partie complète ({x} places prises sur {0})",
    }
    for reason, shown in expected.items():
        line = refused_line(reason)
        with using("fr"):
            assert net_text(line) == f"Erreur : refusé par l'hôte : {shown}"


def test_the_lobby_printer_shows_the_start_prompt_in_the_players_language(capsys):
    from client.peer import Printer
    from client.confirm import StartConfirmation

    class Lobby:
        players = 3
        seats = [type("Seat", (), {"name": n, "key": n})() for n in ("Ana", "Bo")]

        def roster(self):
            return [{"fingerprint": "ab12"}, {"fingerprint": "cd34"}]

    with using("de"):
        StartConfirmation(Printer(False, False, render=net_text),
                          stdin=io.StringIO())._tell(Lobby())
    shown = capsys.readouterr().out
    assert shown.startswith("2 von 3 Plätzen besetzt: Ana (Schlüssel ab12); Bo (Schlüssel cd34).")


def test_a_handoff_refusal_is_answered_in_the_players_language():
    from net.session.handoff import HandoffError, TWO_PLAYERS
    from net.session.msgs import N_, Msg
    answer = Msg(N_("Refused: {why}"), why=HandoffError(TWO_PLAYERS).args[0])
    assert answer.startswith("Refused: handing a seat to a bot needs 3 to 5 players")
    with using("fr"):
        assert net_text(answer).startswith("Refusé : confier une place à un robot demande 3 à 5")


def refused_body(reason):
    """The `lobby/refused` fields a host sends for `reason` (net.node.lobby)."""
    from net.crypto import wire
    from net.node.lobby import LOBBY_TEXTS
    from net.session.msgs import to_wire
    body = {"reason": str(reason), "msg": to_wire(reason, LOBBY_TEXTS)}
    return wire.unpack(wire.pack(body), "x")          # as it arrives: plain data


def test_a_name_refusal_travels_as_a_code_and_each_joiner_reads_it_in_its_language():
    """The host's language plays no part: what travels is a code and its values."""
    from net.node.lobby import REFUSAL_CODES, refusal_from
    from net.session.msgs import Msg
    from net.session.text import name_problem
    with using("fr"):                                   # a French host
        reason = Msg(REFUSAL_CODES["bad-name"], problem=name_problem("x" * 25))
        body = refused_body(reason)
    assert body["reason"] == "a name has at most 24 characters; choose another with --name"
    assert body["msg"] == {"code": "bad-name",
                           "args": {"problem": {"code": "name/too-long", "args": {"n": "24"}}}}
    shown = refusal_from(body)
    with using("de"):
        assert net_text(shown) == ("ein Name hat höchstens 24 Zeichen; wähle mit --name "
                                   "einen anderen")
    with using("ko"):
        assert net_text(shown).startswith("이름은 최대 24자입니다")
    alike = refusal_from(refused_body(Msg(REFUSAL_CODES["alike"], name="'Βo'", seated="'Bo'")))
    with using("it"):
        assert net_text(alike) == ("il nome 'Βo' somiglia a 'Bo', già seduto; scegline un altro "
                                   "con --name")


def test_a_crafted_refusal_code_falls_back_to_the_english_reason():
    """Unknown codes, missing or extra values, values that are not text, nesting too deep:
    the code is not used; the English text is shown (recognized if it is one of ours)."""
    from net.node.lobby import refusal_from
    reason = "game full (4 of 4 seats taken)"
    for msg in ({"code": "nope", "args": {}},
                {"code": "full", "args": {"seats": "4"}},
                {"code": "full", "args": {"seats": "4", "players": "4", "x": "1"}},
                {"code": "full", "args": {"seats": 4, "players": "4"}},
                {"code": "bad-name", "args": {"problem": {"code": "bad-name", "args": {
                    "problem": {"code": "name/empty", "args": {}}}}}},
                {"code": "full", "args": {"seats": "4", "players": "4"}, "more": 1},
                ["full"], None):
        shown = refusal_from({"reason": reason, "msg": msg})
        assert shown == reason
        with using("fr"):
            assert net_text(shown) == "partie complète (4 places prises sur 4)"
    # a code's values are shown cleaned, never formatted again
    shown = refusal_from({"reason": "", "msg": {"code": "taken", "args": {
        "name": "{x}\x1b[2J"}}})
    with using("fr"):
        assert net_text(shown) == "le nom {x}[2J est déjà pris"


def test_lobby_lines_name_the_kind_of_each_seat_in_the_players_language():
    from client.peer import human_text
    line = human_text({"event": "roster", "roster": [{"name": "Ana", "kind": "human"},
                                                     {"name": "Bo", "kind": "bot"}]})
    assert line == "Players: Ana (human), Bo (bot)"
    with using("fr"):
        assert net_text(line) == "Joueurs : Ana (humain), Bo (robot)"
    with using("de"):
        assert net_text(line) == "Spieler: Ana (Mensch), Bo (Bot)"


def test_what_a_peer_without_a_window_prints_is_in_the_players_language():
    """`belfort bot` and commands typed without the window: results, alerts, games seen."""
    from net.session.effects import Names
    from net.session.msgs import N_, Msg
    from client.peer import human_text
    alert = Msg(N_("{who} sent a malformed heartbeat"), who=Names(["Ana", "Bo"]).seat(1))
    lines = [human_text({"event": "alert", "kind": "cheat", "text": alert}),
             human_text({"event": "result", "status": "over", "names": ["Ana", "Bo"],
                         "scores": [31, 27], "audit": (True, "ok"), "log": "g.txt"}),
             human_text({"event": "games", "games": [{"line": "Ana"}]})]
    assert lines[0] == "[cheat] Bo (seat 1) sent a malformed heartbeat"
    assert lines[1].startswith("Game over.\nScores: Ana 31, Bo 27\nAudit passed: ok\n")
    with using("fr"):
        shown = [net_text(line) for line in lines]
    assert shown[0] == "[triche] Bo (place 1) a envoyé un signal de vie mal formé"
    assert shown[1].startswith("Partie terminée.\nScores : Ana 31, Bo 27\n"
                               "Vérification réussie : ok\n")
    assert shown[2] == "Parties sur le réseau local :\n  1. Ana"


def test_argparse_usage_errors_and_the_networked_commands_help_are_translated(capsys):
    import pytest
    from client.main import main
    with pytest.raises(SystemExit):
        main(["--lang", "de", "join"])
    err = capsys.readouterr().err
    assert "Aufruf: belfort join" in err
    assert "belfort join: Fehler: folgende Argumente sind nötig: --name" in err
    with pytest.raises(SystemExit):
        main(["--lang", "fr", "host", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage : belfort host")
    assert "afficher ce message d'aide et quitter" in out
    assert "héberger" not in out and "le répertoire" not in out      # host's own options
    assert "robots à lancer sur cette machine" in out
    with pytest.raises(SystemExit):                   # English stays English
        main(["--lang", "en", "join"])
    assert "error: the following arguments are required: --name" in capsys.readouterr().err


def test_korean_help_fits_80_cells(capsys, monkeypatch):
    """argparse measures with len: Korean metavars and help (2 cells a character) are laid
    out in terminal cells instead (client.i18n.argparse_text.CellWidthHelpFormatter)."""
    import pytest
    from client.i18n import cell_width
    from client.main import main
    monkeypatch.setenv("COLUMNS", "80")
    for argv in (["host", "--help"], ["join", "--help"], ["play", "--help"], ["--help"]):
        with pytest.raises(SystemExit):
            main(["--lang", "ko"] + argv)
        out = capsys.readouterr().out
        assert "사용법: belfort" in out and "이름" in out or argv == ["--help"]
        too_wide = [ln for ln in out.splitlines() if cell_width(ln) > 80]
        assert too_wide == [], (argv, too_wide)
    with pytest.raises(SystemExit):
        main(["--lang", "ko", "host", "--help"])
    lines = capsys.readouterr().out.splitlines()
    # the help column stays aligned after a Korean metavar
    columns = {cell_width(ln.split("  다른")[0]) for ln in lines
               if "다른 플레이어에게 보이는" in ln}
    port = {cell_width(ln.split("  대기실")[0]) for ln in lines if "대기실 포트" in ln}
    assert columns == port and len(columns) == 1
