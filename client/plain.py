"""A line-by-line game against random bots (no full-screen terminal needed)."""

import os
import sys

import belfort
from belfort import apply, command_text, legal_commands, new_game, seat_view


def play_plain(players=4, seed=None, guilds="normal", inp=sys.stdin, out=sys.stdout):
    seed = seed if seed is not None else os.urandom(8).hex()
    names = ["You"] + [f"Bot {i}" for i in range(1, players)]
    game = new_game(names, {"guilds": guilds}, seed=seed)
    bot = belfort.RandomBot(seed)
    print(f"Belfort — seed {seed}. Type a command, '?' for the legal ones, 'quit' to leave.", file=out)
    while not game.is_over():
        seat = game.waiting_for()[0]
        if seat != 0:
            cmd = bot.choose(game, seat)
            apply(game, cmd, seat)
            print(f"{names[seat]}: {command_text(cmd)}", file=out)
            continue
        v = seat_view(game, 0)
        me = v["players"][0]
        print(f"[round {v['round']} {v['phase']}] wood {me['wood']} stone {me['stone']} "
              f"metal {me['metal']} gold {me['gold']} score {me['score']} hand "
              + " ".join(f"#{h['card']}:{h['type']}" for h in v["hand"]), file=out)
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line or line.strip() == "quit":
            print("Bye.", file=out)
            return 0
        line = line.strip()
        if line in ("?", "help"):
            for c in legal_commands(game, 0):
                print("  " + command_text(c), file=out)
            continue
        try:
            apply(game, line, 0)
        except belfort.BelfortError as exc:
            print(f"refused: {exc}", file=out)
    print("Final scores: " + ", ".join(f"{n} {p.score}" for n, p in zip(names, game.players)),
          file=out)
    return 0
