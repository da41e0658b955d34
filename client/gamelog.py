"""Game log files: one JSON object per line.

Line 1, the header:
    {"format": "belfort-log", "version": 1, "players": ["You", "Bo", ...],
     "options": {"guilds": "normal"}, "seed": "1", "ruleset_sha256": "...",
     "ruleset": {...the ruleset's raw table...}, "you": 0, "bots": {"1": "normal", ...},
     "started": "2024-05-01T12:00:00"}
Then one line per accepted command, in order:
    {"n": 0, "seat": 2, "cmd": "keep #10 #11 #12 drop #13:pub #14:inn"}
A networked game's log may also hold card reveals the engine needed:
    {"reveal": 31, "type": 4}
And when the game is over:
    {"end": true, "hash": "<state_hash>", "scores": [..], "winners": [..]}

Replaying = `new_game(players, options, seed, ruleset)` then `apply` each command in order.
"""

from __future__ import annotations

import datetime
import json
import os
import pathlib

import belfort

FORMAT = "belfort-log"


def default_dir():
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                           ".local", "share")
    return pathlib.Path(base) / "belfort" / "games"


def default_path():
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    d = default_dir()
    path = d / f"game-{stamp}.jsonl"
    i = 1
    while path.exists():
        path = d / f"game-{stamp}-{i}.jsonl"
        i += 1
    return path


def header(names, options, seed, ruleset, you=0, bots=None):
    opts = dict(options)
    if isinstance(opts.get("guilds"), tuple):
        opts["guilds"] = list(opts["guilds"])
    return {"format": FORMAT, "version": 1, "players": list(names), "options": opts,
            "seed": str(seed), "ruleset_sha256": ruleset.sha256, "ruleset": ruleset.raw,
            "you": you, "bots": {str(k): v for k, v in (bots or {}).items()},
            "started": datetime.datetime.now().isoformat(timespec="seconds")}


class GameLogWriter:
    def __init__(self, path, head):
        self.path = pathlib.Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(self.path, "w", encoding="utf-8")
        self.n = 0
        self._line(head)

    def _line(self, obj):
        if self.fh is None:
            return
        self.fh.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self.fh.flush()

    def command(self, seat, cmd):
        self._line({"n": self.n, "seat": seat, "cmd": belfort.command_text(cmd)})
        self.n += 1

    def reveal(self, card, t):
        self._line({"reveal": card, "type": t})

    def finish(self, game):
        self._line({"end": True, "hash": belfort.state_hash(game),
                    "scores": [p.score for p in game.players],
                    "winners": (game.result or {}).get("winners", [])})

    def close(self):
        if self.fh is not None:
            self.fh.close()
            self.fh = None


class LogError(ValueError):
    pass


def read(path):
    """(header, steps, end) from a log file. steps: [("cmd", seat, text) | ("reveal", card,
    type)]. Raises LogError with a plain message when the file is not a game log."""
    try:
        text = pathlib.Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise LogError(f"cannot read {path}: {exc.strerror}") from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise LogError(f"{path} is empty")
    try:
        rows = [json.loads(ln) for ln in lines]
    except json.JSONDecodeError as exc:
        raise LogError(f"{path} is not a Belfort game log (line {exc.lineno}: {exc.msg})") \
            from None
    head = rows[0]
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise LogError(f"{path} is not a Belfort game log (no header line)")
    steps, end = [], None
    for i, row in enumerate(rows[1:], start=2):
        if not isinstance(row, dict):
            raise LogError(f"{path}, line {i}: not a JSON object")
        if "cmd" in row:
            steps.append(("cmd", row.get("seat"), row["cmd"]))
        elif "reveal" in row:
            steps.append(("reveal", row["reveal"], row["type"]))
        elif row.get("end"):
            end = row
    return head, steps, end


def new_game_from(head):
    ruleset = belfort.Ruleset(head["ruleset"]) if "ruleset" in head else None
    if ruleset is not None and head.get("ruleset_sha256") not in (None, ruleset.sha256):
        raise LogError("the log's ruleset does not match its recorded hash")
    opts = dict(head.get("options") or {})
    return belfort.new_game(head["players"], opts, seed=head["seed"], ruleset=ruleset)


def replay_commands(head, history):
    """A fresh game from `head` with every (seat, command) of `history` applied."""
    game = new_game_from(head)
    for seat, cmd in history:
        belfort.apply(game, cmd, seat)
    return game


def apply_step(game, step):
    kind, a, b = step
    if kind == "cmd":
        return belfort.apply(game, b, a)
    return belfort.reveal(game, a, b)
