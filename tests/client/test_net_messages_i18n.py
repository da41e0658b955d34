"""Net's player-visible texts are shown in the player's language (issue 15).

`net` cannot import the client, so its messages are `net.session.msgs.Msg`: the English
text (what logs, tests and the wire see) carrying its template and params, translated by
client/netmessages.py.
"""

from __future__ import annotations

import json

from client.i18n import PSEUDO, using
from client.netmessages import alert_message, net_text
from net.session.config import Alert, Timing
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
