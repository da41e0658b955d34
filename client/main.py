"""The `belfort` command."""

import argparse
import sys


def main(argv=None):
    ap = argparse.ArgumentParser(prog="belfort", description="Belfort, the board game, in the terminal")
    sub = ap.add_subparsers(dest="cmd")
    play = sub.add_parser("play", help="play against bots on this machine (the default)")
    play.add_argument("--players", type=int, default=4, choices=range(2, 6))
    play.add_argument("--seed", default=None)
    play.add_argument("--guilds", default="normal")
    args = ap.parse_args(argv)
    if args.cmd in (None, "play"):
        from .plain import play_plain
        return play_plain(players=getattr(args, "players", 4), seed=getattr(args, "seed", None),
                          guilds=getattr(args, "guilds", "normal"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
