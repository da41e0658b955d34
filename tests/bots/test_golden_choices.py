"""The bots choose as recorded in golden_choices.json (tests/bots/bots_golden.py explains the
cases). Speed-ups of the bots must keep every choice; a change meant to change choices
rewrites the file with `python scripts/bench_bots.py --write-golden`."""

import json

import pytest

from bots_golden import CASES, GOLDEN_FILE, case_choices

RECORDED = {(c["players"], c["guilds"]): c for c in json.loads(GOLDEN_FILE.read_text())}


def test_the_file_records_every_case():
    assert sorted(RECORDED) == sorted(CASES)
    # Every case ran searches that spent playouts (so a search's choice is on record).
    for case in RECORDED.values():
        assert case["searches"] and all(s[3] > 0 for s in case["searches"])


@pytest.mark.parametrize("players,guilds", CASES)
def test_the_bots_choose_as_recorded(players, guilds):
    got = case_choices(players, guilds)
    want = RECORDED[(players, guilds)]
    assert got["decisions"] == want["decisions"]
    # The first search that differs, named, before the digests of whole games.
    for g, w in zip(got["searches"], want["searches"]):
        assert g == w
    assert got["searches"] == want["searches"]
    assert got["sha256"] == want["sha256"]
