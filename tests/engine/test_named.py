"""Named events and commands (belfort.events, belfort.commands.named): every event kind and
verb the engine produces in random games turns into its named form with the right fields,
and the named value is the plain tuple as far as anything compared, stored, hashed or sent
is concerned."""

import json
import pickle

import msgpack
import pytest

from belfort import apply, commands, events, legal_commands, new_game
from belfort.prng import Prng
from test_surface import np_skip_events, reveal_events


def _games():
    """Random games over every guild mix and player count: (events, commands) seen."""
    seen_events, seen_commands = {}, {}
    mixes = ["beginner", "normal", "advanced",
             ["thieves", "bandits", "wizards", "spies", "architects"],
             ["merchants", "librarians", "recruiters", "masons", "spies"]]
    for players in (2, 3, 4, 5):
        for m, mix in enumerate(mixes):
            if players == 2 and m >= 3:
                continue                 # §12: interactive guilds need 3 players or more
            game = new_game(players, {"guilds": mix}, seed=f"named-{players}-{m}")
            rng = Prng(f"named-{players}-{m}", "random-bot")
            while not game.is_over():
                seat = game.waiting_for()[0]
                cmds = legal_commands(game, seat)
                for c in cmds:
                    seen_commands.setdefault((c[0], len(c)), c)
                for ev in apply(game, cmds[rng.below(len(cmds))], seat):
                    seen_events.setdefault(ev[0], []).append(ev)
    # the rare ones: a non-player with nothing to take (§12), a networked game's reveal (§15)
    for ev in np_skip_events() + reveal_events():
        seen_events.setdefault(ev[0], []).append(ev)
    seen_commands.setdefault(("np-skip", 1), ("np-skip",))
    return seen_events, seen_commands


@pytest.fixture(scope="module")
def seen():
    return _games()


def _same_value(plain, named):
    assert named == plain and plain == named
    assert hash(named) == hash(plain)
    assert tuple(named) == plain
    assert json.dumps(named) == json.dumps(plain)
    assert msgpack.packb(named) == msgpack.packb(plain)
    assert pickle.loads(pickle.dumps(named)) == plain


def test_every_event_kind_of_random_games_has_its_named_form(seen):
    by_kind, _ = seen
    # every kind but the drivers' take-back (not the engine's)
    assert set(by_kind) == set(events.EVENTS) - {"undo"}
    for kind, evs in by_kind.items():
        cls = events.EVENTS[kind]
        for ev in evs[:200]:
            n = events.named(ev)
            assert type(n) is cls
            assert len(n) == len(cls._fields) == len(ev), (kind, ev)
            assert n.event == kind
            _same_value(ev, n)


def test_named_fields_read_what_the_positions_held(seen):
    by_kind, _ = seen
    place = events.named(by_kind["place"][0])
    assert (place.seat, place.kind, place.plank) == by_kind["place"][0][1:]
    steal = events.named(by_kind["steal"][0])
    assert (steal.to_seat, steal.from_seat, steal.resource, steal.amount) == \
        by_kind["steal"][0][1:]
    income = events.named(by_kind["income"][0])
    assert (income.seat, income.income, income.tax_paid, income.vp_lost) == \
        by_kind["income"][0][1:]


def test_the_reveal_and_the_drivers_undo_have_named_forms_too():
    r = events.named(("revealed", 7, 2))
    assert (r.card, r.type) == (7, 2)
    u = events.named(("undo", 1, ("pass",)))
    assert (u.seat, u.command) == (1, ("pass",))
    _same_value(("revealed", 7, 2), r)


def test_every_verb_of_random_games_has_its_named_form(seen):
    _, by_verb = seen
    verbs = {verb for verb, _n in by_verb}
    assert verbs == set(commands.VERBS) == set(commands.NAMED)
    for (verb, length), cmd in by_verb.items():
        n = commands.named(cmd)
        assert type(n) is commands.NAMED[verb]
        assert n.verb == verb
        if verb == "activate":
            assert (n.plank, n.args) == (cmd[1], cmd[2:])
        else:
            assert len(n) == len(n._fields) == length, cmd
        _same_value(cmd, n)


def test_named_is_off_the_engine_path_the_engine_still_makes_plain_tuples(seen):
    by_kind, by_verb = seen
    assert all(type(ev) is tuple for evs in by_kind.values() for ev in evs)
    assert all(type(c) is tuple for c in by_verb.values())


def test_what_is_not_an_event_or_a_command_is_refused_with_valueerror():
    for bad in [(), ("nonsense", 1), ("place", 1), [], None, 3]:
        with pytest.raises(ValueError):
            events.named(bad)
    for bad in [(), ("nonsense",), ("place", 1), ("activate",), None]:
        with pytest.raises(ValueError):
            commands.named(bad)
    # a list, as msgpack gives it, is read too
    assert events.named(["pass", 2]).seat == 2
    assert events.named_known([("started", "ab"), ("pass", 1)]) == [("pass", 1)]


def test_events_written_before_they_carried_amounts_still_read():
    assert events.named(("bank", 0, 21)).gold is None
    assert events.named(("smith", 0, 22)).metal is None
    assert events.named(("bonus", 0, "forest")).amount is None
