"""The engine's PRNG (belfort/prng.py): SHA-256 in counter mode, the same stream on every
machine and Python version. Known answers guard the stream: a change here changes every
seeded game (guilds, crests, deck order, reshuffles, random bots)."""

import pytest

from belfort.prng import Prng


def test_known_answers():
    r = Prng("known-answer", "test")
    assert [r.below(n) for n in (2, 3, 10, 100, 256, 257, 1000, 10**6)] == \
        [0, 2, 4, 65, 42, 69, 573, 5197]
    assert Prng(7).shuffle(list(range(10))) == [3, 1, 5, 8, 7, 6, 4, 2, 9, 0]


def test_labels_and_seeds_name_independent_streams():
    draws = [[Prng(seed, *labels).below(10**6) for _ in range(1)]
             for seed, labels in ((1, ()), (1, ("a",)), (1, ("b",)), (2, ("a",)), (b"1", ()))]
    assert len({d[0] for d in draws}) == len(draws)
    assert Prng("1").below(10**6) == Prng(b"1").below(10**6)   # str is its UTF-8 bytes


def test_below_is_uniform_enough_and_in_range():
    r = Prng("uniform")
    counts = [0] * 6
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert all(900 < c < 1100 for c in counts)


def test_bad_bounds_and_seeds_are_refused():
    with pytest.raises(ValueError):
        Prng(1).below(0)
    with pytest.raises(TypeError):
        Prng(1.5)
