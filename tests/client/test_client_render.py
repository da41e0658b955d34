"""Rendering from the seat view: the board shows what was built where; layouts fit."""

import belfort
import pytest
from belfort import CARD_TYPES, SITE_NAME, apply, seat_view

from client import render
from client.render import HEAD_SHORT, WIDE_HEAD, Context
from client.words import Describer, Namer
from client_helpers import finished_game, first_of, random_states


def ctx_for(game, seat=0, log=()):
    return Context(Namer(game.names, seat), game.rs, log=list(log))


def build_somewhere():
    for game, seat in random_states(4, 2, every=1, limit=500):
        cmd = first_of(game, seat, "build")
        if cmd and CARD_TYPES[game.types[cmd[1]]] not in ("keep", "gatehouse"):
            events = apply(game, cmd, seat)
            return game, seat, cmd, events
    pytest.fail("no build found")


@pytest.mark.parametrize("size", [(80, 22), (160, 48)])
def test_the_board_shows_a_built_property_where_it_was_built(size):
    game, seat, cmd, _ = build_somewhere()
    width, height = size
    lines = render.screen(seat_view(game, seat), ctx_for(game, seat), width, height)
    text = [ln.text() for ln in lines]
    t = CARD_TYPES[game.types[cmd[1]]]
    d = int(SITE_NAME[cmd[2]].split("@")[1])
    head = next(ln for ln in text if "Guild" in ln and "Markers" in ln)
    label = WIDE_HEAD[t] if width >= 150 else HEAD_SHORT[t]
    col = head.index(" " + label + " ") + 1
    row = next(ln for ln in text if ln.startswith(f" {d} "))
    letter = Namer(game.names, seat).letter(seat)
    assert row[col] == letter
    # and nobody else's letter appears in that column on other rows unless they built there
    for other in range(5):
        r = next(ln for ln in text if ln.startswith(f" {other} "))
        site = f"{t}@{other}"
        holder = game.board[SITE_NAME.index(site)]
        expect = Namer(game.names, seat).letter(holder) if holder >= 0 else "·"
        assert r[col] == expect


def test_log_sentence_for_a_build():
    game, seat, cmd, events = build_somewhere()
    nm = Namer(["Ana", "Bo", "Cy", "Di"], 0)
    d = Describer(nm, game.rs, list(game.guilds))
    said = d.sentences(events, seat_view(game, seat))
    t = CARD_TYPES[game.types[cmd[1]]].capitalize()
    district = int(SITE_NAME[cmd[2]].split("@")[1])
    who = "You" if seat == 0 else nm.name(seat)
    assert f"{who} built" in said[0] and t in said[0] and f"district {district}" in said[0]
    assert "(+1 marker)" in said[0]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("size", [(80, 22), (100, 30), (160, 48)])
def test_every_frame_fits_the_terminal(players, size):
    width, height = size
    for game, _seat in random_states(players, players, every=13, limit=30):
        lines = render.screen(seat_view(game, 0), ctx_for(game, 0, [("", "x " * 70)] * 30),
                              width, height)
        assert len(lines) == height
        assert all(ln.width() == width for ln in lines)


def test_the_compact_layout_shows_every_section_at_80x24():
    game, seat = random_states(5, 5, every=40, limit=3)[-1]
    text = render.as_text(render.screen(seat_view(game, 0), ctx_for(game, 0, [("", "hello")]),
                                        80, 22))
    assert "Forest" in text or "Resource areas empty" in text
    for needle in ("Guild", "Desk", "Camp", "Player", "Your hand", "Pool", "Draw",
                   "Log", "hello"):
        assert needle in text
    for p in game.names:
        assert p[:6] in text


def test_describer_speaks_every_event_of_whole_games():
    for players, seed in ((2, 1), (4, 2), (5, 3)):
        game = belfort.new_game(players, {"guilds": "advanced"}, seed=seed)
        bot = belfort.RandomBot(seed)
        d = Describer(Namer(game.names, 0), game.rs, list(game.guilds))
        while not game.is_over():
            s = game.waiting_for()[0]
            events = apply(game, bot.choose(game, s), s)
            for line in d.sentences(events, seat_view(game, 0)):
                assert isinstance(line, str) and line and "None" not in line


def test_final_scoreboard_has_each_scoring_phase_and_the_audit():
    game = finished_game()
    ctx = ctx_for(game)
    text = render.as_text(render.final_lines(seat_view(game, 0), ctx, (True, "fine")))
    assert "Final scores" in text
    lines = text.splitlines()
    for r in game.rs.scoring_rounds:
        assert any(ln.startswith(f"{r:>4}   {game.names[0]}") for ln in lines)
    assert "Elf" in text and "Dwf" in text and "Gn" in text and "Taxes lost" in text
    assert "Tie-break" in text and "Audit: PASSED" in text
    for seat in game.result["winners"]:
        assert f"{game.names[seat]} {game.players[seat].score} ★ wins" in text


def test_letters_read_without_colour():
    nm = Namer(["Ana", "Alan", "Bo"])
    assert len(set(nm.letters)) == 3


# --- the panels and the tableaux ----------------------------------------------------------

def late_states():
    out = []
    for players in (2, 3, 4, 5):
        out += random_states(players, 10 + players, every=17, limit=40)[-6:]
    return out


@pytest.mark.parametrize("size", [(80, 22), (160, 48)])
def test_the_score_and_tableau_panels_fit(size):
    from client import panels
    width, height = size
    for game, _seat in late_states():
        view = seat_view(game, 0)
        nm = Namer(game.names, 0)
        score = panels.score_lines(view, nm, game.rs, width=width)
        one = panels.tableau_lines(view, nm, game.rs, [1], width=width)
        for lines in (score, one, panels.tableau_lines(view, nm, game.rs, width=width)):
            assert all(ln.width() <= width for ln in lines)     # nothing is cut off
            ctx = ctx_for(game)
            ctx.panel = ("Panel", lines)
            frame = render.screen(view, ctx, width, height)
            assert len(frame) == height and all(ln.width() == width for ln in frame)
        # the score breakdown and one player's tableau need no scrolling at 80x24
        room = height - 2
        assert len(score) <= room and len(one) <= room, (len(score), len(one))
        for rec in view["score_log"]:
            just = panels.score_lines(view, nm, game.rs, width=width, just=rec["round"])
            assert len(just) <= room and all(ln.width() <= width for ln in just)


def test_at_160_columns_no_built_card_is_pushed_out():
    checked = 0
    for game, _seat in late_states():
        view = seat_view(game, 0)
        text = render.as_text(render.screen(view, ctx_for(game), 160, 48))
        rows = text.split("Built")[1].split("Your hand")[0]
        for p in view["players"]:
            for b in p["built"]:
                assert render.built_text(b, True) in rows, (p["name"], b)
                checked += 1
        assert "Your hand" in text and "Pool" in text
    assert checked > 50


def test_the_scoring_breakdown_explains_the_engines_points():
    """Counts and ranks read off the view give exactly the engine's points."""
    from belfort.scoring import score_phase

    from client import panels
    for game, _seat in late_states():
        view = seat_view(game, 0)
        now = panels.projected(view, game.rs)
        expected = score_phase(game)
        for k in ("districts", "elves", "dwarves", "gnomes", "total"):
            assert now[k] == expected[k]


def test_rank_labels_follow_the_tie_rule():
    from client.panels import rank_labels
    assert rank_labels([3, 1, 3, 0]) == ["=1st", "3rd", "=1st", ""]
    assert rank_labels([5, 4, 4, 2]) == ["1st", "=2nd", "=2nd", "4th"]


def test_a_seat_that_left_for_now_says_so_on_its_row():
    """A seat that said it left (the session's "paused" peer state) is marked on the players'
    rows as a disconnected one is: a person looking at the board sees why it is quiet."""
    game = belfort.new_game(["Ana", "Bo", "Cy"], {"guilds": "normal"}, seed=4)
    view = seat_view(game, 0)
    peers = [{"seat": 0, "name": "Ana", "state": "here"},
             {"seat": 1, "name": "Bo", "state": "paused"},
             {"seat": 2, "name": "Cy", "state": "disconnected"}]
    ctx = Context(Namer(game.names, 0), game.rs, peers=peers)
    rows = {ln.split()[1]: ln for ln in render.as_text(render.players(view, ctx, 100, False))
            .splitlines() if ln.split()[1:2] in (["Ana"], ["Bo"], ["Cy"])}
    assert "[left for now]" in rows["Bo"] and "[disconnected]" in rows["Cy"]
    assert "[left for now]" not in rows["Ana"] + rows["Cy"]


def test_a_window_smaller_than_80x24_says_so_and_keeps_the_whole_hand():
    """Below the size the layout is made for, the screen says part of the table is hidden,
    and what it gives up first is the collection line and headings — never a card of the
    hand (at 60x20 the last card of a five-card hand used to be cut off)."""
    game = belfort.new_game(["You", "Bo"], {"guilds": "normal"}, seed=3)
    view = seat_view(game, 0)
    ctx = Context(Namer(game.names, 0), game.rs)
    for width, height in ((60, 18), (60, 12), (79, 22)):
        text = render.as_text(render.screen(view, ctx, width, height))
        assert "Window too small" in text, (width, height)
        assert all(f"#{c} " in text for c in game.players[0].hand), (width, height, text)
    text = render.as_text(render.screen(view, ctx, 80, 22))
    assert "Window too small" not in text


@pytest.mark.parametrize("size", [(160, 50), (80, 24)])
def test_the_hand_line_is_never_cut_by_the_log_column(size):
    """After our keep, '(kept #0 #1 #2)' follows the five cards: at 160x50 it ran into the
    log column and was cut ('(kept #0 #'); it goes on the next line instead."""
    for seed in range(1, 6):
        game = belfort.new_game(["You", "Bo", "Cy", "Di"], {"guilds": "normal"}, seed=seed)
        apply(game, belfort.legal_commands(game, 0)[0], 0)
        view = seat_view(game, 0)
        lines = render.as_text(render.screen(view, ctx_for(game), *size)).split("\n")
        left = " ".join(ln.split("│")[0] for ln in lines)
        kept = "(kept " + " ".join(f"#{c}" for c in view["my_keep"][0]) + ")"
        assert kept in " ".join(left.split()), (seed, [ln for ln in lines if "#" in ln])
