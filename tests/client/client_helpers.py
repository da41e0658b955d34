"""Shared helpers for the client tests: games in known states."""

import belfort
from belfort import apply, legal_commands, new_game


def random_states(players=4, seed=1, every=7, limit=60):
    """Snapshots of a random-bot game, every `every` decisions (with the seat to move)."""
    game = new_game(players, {"guilds": "advanced"}, seed=seed)
    bot = belfort.RandomBot(seed)
    out = []
    i = 0
    while not game.is_over() and len(out) < limit:
        seat = game.waiting_for()[0]
        if i % every == 0:
            out.append((game.copy(), seat))
        apply(game, bot.choose(game, seat), seat)
        i += 1
    return out


def finished_game(players=4, seed=3):
    game = new_game(players, {"guilds": "normal"}, seed=seed)
    bot = belfort.RandomBot(seed)
    while not game.is_over():
        seat = game.waiting_for()[0]
        apply(game, bot.choose(game, seat), seat)
    return game


def first_of(game, seat, verb):
    for c in legal_commands(game, seat):
        if c[0] == verb:
            return c
    return None
