"""Random-game properties (OpenSpiel style): every legal command applies, games end after
round 7, is_legal agrees with legal_commands, mutated commands are refused and change
nothing, states round-trip through serialization, replays give identical hashes."""

import pytest

from belfort import (CommandSyntaxError, IllegalCommandError, apply, command_text,
                     from_json, is_legal, legal_commands, new_game, parse_command, state_hash,
                     to_json)
from belfort.prng import Prng


def random_game(players, seed, guilds="normal", every=None):
    game = new_game(players, {"guilds": guilds}, seed=seed)
    rng = Prng(seed, "random-bot")
    log = []
    while not game.is_over():
        seat = game.waiting_for()[0]
        cmds = legal_commands(game, seat)
        assert cmds, "a waiting seat always has a legal command"
        cmd = cmds[rng.below(len(cmds))]
        if every:
            every(game, seat, cmds, cmd)
        apply(game, cmd, seat)
        log.append((seat, cmd))
    return game, log


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("guilds", ["beginner", "normal", "advanced"])
def test_random_games_end_after_the_last_round(players, guilds):
    for i in range(4):
        game, log = random_game(players, f"end-{guilds}-{i}", guilds)
        assert game.is_over()
        assert game.round == 7
        assert len(game.score_log) == 3 and [r["round"] for r in game.score_log] == [3, 5, 7]
        assert game.result["winners"]
        assert legal_commands(game, 0) == []


@pytest.mark.parametrize("players", [2, 3, 5])
def test_text_form_round_trips_and_is_legal_agrees(players):
    def check(game, seat, cmds, chosen):
        for cmd in cmds:
            assert parse_command(command_text(cmd)) == cmd
        assert is_legal(game, chosen, seat)
        for other in range(game.n):
            if other not in game.waiting_for():
                assert not is_legal(game, chosen, other)
    random_game(players, f"text-{players}", every=check)


def mutations(cmd, rng):
    """Commands near `cmd`: one argument changed."""
    out = []
    for i in range(1, len(cmd)):
        x = cmd[i]
        if isinstance(x, int):
            for delta in (1, -1, 7, 100):
                out.append(cmd[:i] + (x + delta,) + cmd[i + 1:])
        elif isinstance(x, str):
            out.append(cmd[:i] + ("wood",) + cmd[i + 1:])
    out.append(cmd + (0,))
    if len(cmd) > 1:
        out.append(cmd[:-1])
    return out


@pytest.mark.parametrize("players", [2, 4, 5])
def test_mutated_commands_are_refused_and_change_nothing(players):
    rng = Prng(b"mutate")
    checked = [0]

    def check(game, seat, cmds, chosen):
        if rng.below(4):
            return
        before = to_json(game)
        legal = set(cmds)
        for bad in mutations(chosen, rng):
            if bad in legal:
                continue
            assert not is_legal(game, bad, seat)
            with pytest.raises((IllegalCommandError, CommandSyntaxError)) as info:
                apply(game, bad, seat)
            if isinstance(info.value, IllegalCommandError):
                assert info.value.rule.startswith("§")
            checked[0] += 1
        assert to_json(game) == before
    random_game(players, f"mutate-{players}", every=check)
    assert checked[0] > 50


@pytest.mark.parametrize("players", [2, 3, 5])
def test_serialization_round_trips_mid_game(players):
    def check(game, seat, cmds, chosen):
        if game.version % 17:
            return
        copy = from_json(to_json(game))
        assert to_json(copy) == to_json(game)
        assert state_hash(copy) == state_hash(game)
        assert legal_commands(copy, seat) == cmds
        c2 = game.copy()
        assert to_json(c2) == to_json(game)
    random_game(players, f"ser-{players}", every=check)


def test_replaying_seed_and_commands_gives_the_identical_hash():
    game, log = random_game(4, "replay")
    again = new_game(4, {"guilds": "normal"}, seed="replay")
    for seat, cmd in log:
        apply(again, command_text(cmd), seat)
    assert state_hash(again) == state_hash(game)
    assert to_json(again) == to_json(game)


def test_different_seeds_give_different_games():
    a, _ = random_game(3, "one")
    b, _ = random_game(3, "two")
    assert state_hash(a) != state_hash(b)
