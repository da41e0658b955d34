"""The LAN commands in the window and in --plain: say,
handoff and waiting work (they were "unknown command 'handoff'"), chat lines show in
every window's log, and a disconnected player the game waits for is shown with the
seconds it has been away."""

import asyncio
import io

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client.app import BelfortApp
from client.controller import Controller
from client.plain import PlainUI

from lan_helpers import MemNetDriver

from test_client_app import until


def test_controller_knows_the_lan_commands():
    driver = MemNetDriver(3)
    ctl = Controller(driver)
    reply = ctl.handle("handoff 2")
    assert "unknown command" not in reply.text
    assert reply.kind == "error" and reply.text.startswith("Refused: P2 has been silent 0 s")
    reply = ctl.handle("handoff ❾")
    assert reply.kind == "error" and reply.text.startswith("usage: handoff SEAT")
    assert ctl.handle("waiting").kind == "info"
    assert ctl.handle("say").text.startswith("say what")
    assert {"say", "handoff", "waiting"} <= set(ctl.client_words())


def test_say_shows_in_our_window_and_in_the_others_sessions():
    driver = MemNetDriver(3, names=["Ana", "Bo", "Cy"])

    async def script():
        with create_pipe_input() as inp:
            ui = BelfortApp(driver, colour=False, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(ui.run_async())
            await until(lambda: ui.app.is_running)
            try:
                inp.send_text("say good luck \x1b[2J all\r")
                await until(lambda: any(t == "Ana says: “good luck (2J all”" for _, t in ui.log))
                for p in driver.net.peers[1:]:
                    assert p.chat.lines == [(0, "good luck [2J all")]
                # a line from Bo arrives
                driver.net.peers[1].say("thanks!", driver.net.now)
                driver.net._collect(driver.net.peers[1])
                driver.tick(0.1)
                await until(lambda: any(t == "Bo says: “thanks!”" for _, t in ui.log))
            finally:
                ui.app.exit()
                await asyncio.wait_for(task, 10)

    asyncio.run(script())


def test_waiting_for_a_disconnected_player_counts_the_seconds():
    driver = MemNetDriver(3, names=["Ana", "Bo", "Cy"])
    driver.net.down.add(1)                   # Bo's machine drops off the network
    assert driver.legal()[0][0] == "keep"
    driver.submit(driver.legal()[0])         # we choose; the game now waits for Bo
    driver.tick(12.4)
    assert driver.legal() == [] and driver.peer.view.waiting_seats() == [1]
    with create_pipe_input() as inp:
        ui = BelfortApp(driver, colour=False, input=inp, output=DummyOutput())
        # the stall countdown of the session shows with it
        assert ui.prompt() == ("Waiting for Bo (disconnected 12 s) — handoff possible in "
                               "2:48 › ")
        reply = ui.ctl.handle("waiting")
        assert reply == ui.ctl.handle("waiting") and reply.kind == "info"
        assert reply.text == ("Waiting for Bo (disconnected 12 s) — handoff possible in "
                              "2:48.")
        assert ui.ctl.handle("handoff bo").text.startswith("Refused: Bo has been silent 12 s")
        driver.tick(170)
        assert ui.prompt().startswith("Waiting for Bo (disconnected 182 s) — Bo's seat can "
                                      "be handed to a bot: handoff 1")
        reply = ui.ctl.handle("handoff bo")      # 3 players: a silent seat can be handed
        assert reply.kind == "info" and "voted to hand Bo's seat to a bot" in reply.text


def test_plain_mode_has_the_same_lan_commands():
    driver = MemNetDriver(3, names=["Ana", "Bo", "Cy"])
    out = io.StringIO()
    ui = PlainUI(driver, inp=io.StringIO("say hello there\nwaiting\nhandoff Bo\n"), out=out)
    ui.run()
    text = out.getvalue()
    assert "Ana says: “hello there”" in text
    assert "unknown command" not in text
    assert "Waiting for you." in text                   # waiting: our keep is awaited
    assert "Refused: Bo has been silent 0 s" in text    # handoff: Bo is not silent


def test_leaving_for_good_at_two_players_shows_the_final_table_and_why():
    """Ctrl-C, then g: the game ends here, and the window shows its final table saying the
    game ended because we left (the other peer's says we left, calmly)."""
    driver = MemNetDriver(2, names=["Ana", "Bo"])

    async def script():
        with create_pipe_input() as inp:
            ui = BelfortApp(driver, colour=False, input=inp, output=DummyOutput())
            task = asyncio.ensure_future(ui.run_async())
            await until(lambda: ui.app.is_running)
            try:
                inp.send_text("\x03")
                await until(lambda: ui.confirm == "lan")
                assert "g: for good" in ui.prompt()
                inp.send_text("g")
                await until(lambda: ui.finished)
                assert ui.panel is not None and ui.panel[0] == "The end"
                text = "\n".join(str(ln.text() if hasattr(ln, "text") else ln)
                                  for ln in ui.panel[1])
                assert "The game ended because you left it for good" in text
                other = driver.net.peers[1]
                assert "Ana left the game for good" in other.departure.ended
                assert other.status == "over"
            finally:
                ui.app.exit()
                await asyncio.wait_for(task, 10)

    asyncio.run(script())


def test_plain_mode_leaves_for_good_and_a_bot_takes_the_seat():
    driver = MemNetDriver(3, names=["Ana", "Bo", "Cy"])
    out = io.StringIO()
    ui = PlainUI(driver, inp=io.StringIO("quit\ng\n"), out=out)
    assert ui.run() == 0
    text = out.getvalue()
    assert "y = for now" in text and "g = for good" in text
    assert "You left the game for good: a bot plays your seat now." in text
    driver.net.down.add(0)
    driver.tick(2.0)
    assert all(0 in p.handed for p in driver.net.peers[1:])


class _EndDriver:
    """After the window closed on a finished game: a NetDriver's staying()
    and serve_end() as the session gives them (texts from net.session.endgame)."""

    def __init__(self, seats, farewell=None, interrupted=False):
        from net.session.endgame import staying
        self.text = staying(["Ana", "Bo", "Cy"], seats, 170.0)
        self.farewell, self.interrupted = farewell, interrupted
        self.served = False

    def staying(self):
        return self.text

    def serve_end(self):
        self.served = True
        if self.interrupted:
            raise KeyboardInterrupt
        return self.farewell


def test_closing_after_the_end_stays_for_a_seat_that_lacks_it_in_the_players_language():
    from client.i18n import using
    from client.main import serve_the_end
    from client.netmessages import net_text
    said = []
    driver = _EndDriver([1])
    assert serve_the_end(driver, lambda t: said.append(net_text(t))) is None
    assert driver.served
    assert said == ["The game is over. Staying until Bo also has the end of the game (at most "
                    "2:50; they may be rejoining) — Ctrl-C leaves now."]
    with using("fr"):
        said.clear()
        serve_the_end(_EndDriver([1, 2]), lambda t: said.append(net_text(t)))
        assert said[0].startswith("La partie est finie. Cette machine reste jusqu'à ce que Bo, "
                                  "Cy ait aussi la fin de la partie (au plus 2:50")
    # past the stall time: the farewell (how the seat can get the end later) is returned
    assert serve_the_end(_EndDriver([1], farewell="bye"), said.append) == "bye"
    # Ctrl-C leaves at once (driver.leave() then gives the hint)
    assert serve_the_end(_EndDriver([1], interrupted=True), said.append) is None


def test_closing_after_the_end_when_every_seat_finished_leaves_at_once():
    from client.main import serve_the_end
    said = []
    driver = _EndDriver([])
    assert serve_the_end(driver, said.append) is None
    assert said == [] and not driver.served


def test_a_seat_that_committed_to_its_keep_is_no_longer_waited_for():
    """In a LAN game the engine learns the keeps (§3) all at once, when they are revealed,
    but a seat that committed to its choice has made it: its row says 'chosen' and the
    prompt no longer names it, as in a game on one machine (the window said "Waiting for
    bot-56b5, Bo to choose their cards…" long after the bot had chosen)."""
    from belfort import legal_commands
    from client import render
    from client.controller import prompt_text
    from client.render import Context
    from client.words import Namer
    from net.session.memnet import MemoryNetwork

    net = MemoryNetwork.create(3, seed="keep-view", names=["Ana", "Bo", "Cy"], level=None)
    net.start()
    net.pump()
    ana, bo, _cy = net.peers

    def shown(peer):
        view = peer.view.seat_view()
        ctx = Context(Namer(peer.names, peer.seat), peer.ruleset)
        rows = {ln.split()[1]: ln for ln in render.as_text(render.players(view, ctx, 100, False))
                .splitlines()[1:]}
        legal = legal_commands(peer.game, peer.seat) if peer.decision_needed() else []
        return view, rows, prompt_text(view, legal, ctx.namer)

    view, rows, prompt = shown(ana)
    assert view["phase"] == "keep" and view["waiting_for"] == [0, 1, 2]
    assert all(rows[n].rstrip().endswith("[choosing]") for n in ("Ana", "Bo", "Cy"))
    assert prompt.startswith("Keep 3 of your 5 cards")

    bo.submit(legal_commands(bo.game, 1)[0], net.now)     # Bo commits; nothing revealed yet
    net._collect(bo)
    net.pump()
    assert 1 not in ana.game.keep_choice            # the engine does not know it yet
    view, rows, prompt = shown(ana)
    assert view["waiting_for"] == [0, 2] and view["keep_submitted"] == [1]
    assert rows["Bo"].rstrip().endswith("[chosen]") and rows["Cy"].rstrip().endswith("[choosing]")
    assert prompt.startswith("Keep 3 of your 5 cards")

    ana.submit(legal_commands(ana.game, 0)[0], net.now)
    net._collect(ana)
    net.pump()
    view, rows, prompt = shown(ana)
    assert view["waiting_for"] == [2] and view["keep_submitted"] == [0, 1]
    assert prompt == "Waiting for Cy to choose their cards…"
    view, rows, prompt = shown(bo)
    assert prompt == "Waiting for Cy to choose their cards…"
    assert rows["Ana"].rstrip().endswith("[chosen]")

    # every choice committed and none revealed yet (a moment): the prompt names nobody
    namer = Namer(ana.names, 0)
    assert prompt_text(dict(view, waiting_for=[]), [], namer) == "Waiting…"
    spies = dict(view, phase="actions", step="spies-show", waiting_for=[])
    assert prompt_text(spies, [], namer) == "Waiting…"
    assert prompt_text(dict(spies, waiting_for=[2]), [], namer) == \
        "Waiting for Cy to show a card to the Spies…"


def test_a_lan_undo_is_logged_once_and_offers_one_more_only_when_allowed():
    """In a LAN game the step before ours may be another player's: after a take-back the
    window does not offer "(Ctrl-Z takes back one more)" only to refuse it next."""
    import belfort
    driver = MemNetDriver(3, names=["Ana", "Bo", "Cy"])
    with create_pipe_input() as inp:
        ui = BelfortApp(driver, colour=False, input=inp, output=DummyOutput())
        for _ in range(60):
            legal = driver.legal()
            if not legal:
                driver.tick(0.5)
                continue
            if driver.view()["phase"] == "actions":
                break
            ui.submit_text(belfort.command_text(legal[0]))
        assert driver.view()["phase"] == "actions"
        ui.submit_text(belfort.command_text(driver.legal()[0]))
        before = len(ui.log)
        ui.submit_text("undo")
        took = [t for _s, t in ui.log[before:] if "back" in t]
        assert len(took) == 1, ui.log[before:]
        assert (driver.undo_refusal() is None) == ("one more" in ui.message[1]), ui.message
