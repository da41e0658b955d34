"""Golden transcripts (tests/golden/*.txt, written by scripts/make_golden.py): complete
seeded games of 2, 3 and 5 players kept as text command logs. Replaying each one from its
header (players, options, seed) must accept every command and end with the recorded scores,
winners and state hash. A difference means the rules changed: if intended, regenerate with
`python scripts/make_golden.py` and review the diff."""

import importlib.util
from pathlib import Path

import pytest

from belfort import apply, command_text, load_ruleset, new_game, parse_command, state_hash

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.txt"))

_spec = importlib.util.spec_from_file_location("make_golden", ROOT / "scripts" / "make_golden.py")
make_golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_golden)


def test_golden_transcripts_exist_for_2_3_and_5_players():
    """§1 / §12: transcripts of 2-, 3- and 5-player games are kept (standard ruleset), and
    one under the shipped ten-space tax ladder (§9.7)."""
    found = sorted((len(t["players"]), t["ruleset_name"])
                   for t in (make_golden.parse(p.read_text("utf-8")) for p in GOLDEN))
    assert found == [(2, "standard"), (3, "standard"), (5, "standard"), (5, "ten-space-taxes")]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_transcript_replays_to_the_recorded_end(path):
    """§3–§15 end to end: the recorded commands are all legal and the game ends with the
    recorded scores, winners (§11) and state hash."""
    t = make_golden.parse(path.read_text("utf-8"))
    rs = load_ruleset(t["ruleset_name"])
    assert t["ruleset"] == rs.sha256, f"the {t['ruleset_name']} ruleset changed"
    game = new_game(t["players"], t["options"], seed=t["seed"], ruleset=rs)
    for i, (seat, text) in enumerate(t["commands"]):
        assert not game.is_over(), f"command {i + 1} after the end of the game"
        assert seat in game.waiting_for(), f"command {i + 1}: seat {seat} is not to act"
        assert command_text(parse_command(text)) == text, f"command {i + 1} is not canonical"
        apply(game, text, seat)
    assert game.is_over()
    assert " ".join(str(p.score) for p in game.players) == t["scores"]
    assert " ".join(str(s) for s in game.result["winners"]) == t["winners"]
    assert ("yes" if game.result["tie_break"] else "no") == t["tie_break"]
    assert state_hash(game) == t["hash"]


def test_golden_parser_refuses_a_broken_transcript():
    """The transcript reader refuses a log without its commands/end section."""
    with pytest.raises(ValueError):
        make_golden.parse("players: A, B\ncommands:\n0 keep\n")


def test_a_game_recorded_before_every_number_moved_into_the_ruleset_still_replays():
    """§16: a ruleset written before the numbers that were fixed in the code
    became fields (a saved game, a game log, a player's copy of the old file) plays as it
    did then and keeps its hash: the five-player transcript recorded under the old standard
    ruleset replays to its recorded scores and final state hash."""
    legacy = ROOT / "tests" / "golden" / "legacy"
    rs = load_ruleset(str(legacy / "standard-before-ruleset-fields.toml"))
    t = make_golden.parse((legacy / "five-players-before-ruleset-fields.txt").read_text("utf-8"))
    assert rs.sha256 == t["ruleset"]
    game = new_game(t["players"], t["options"], seed=t["seed"], ruleset=rs)
    for seat, text in t["commands"]:
        apply(game, text, seat)
    assert " ".join(str(p.score) for p in game.players) == t["scores"]
    assert state_hash(game) == t["hash"]
