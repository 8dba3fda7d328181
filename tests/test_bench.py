"""The bench prints figures; here only that its measurements run and make sense."""

from __future__ import annotations

import os

from cgsim.bench import _tree_pss_kb, random_games_per_second


def test_random_games_per_second_plays_the_games() -> None:
    rate, decisions = random_games_per_second(2, {}, 3, seed=1)
    assert rate > 0 and decisions > 10


def test_the_memory_probe_reads_this_process() -> None:
    assert _tree_pss_kb(os.getpid()) > 1000
