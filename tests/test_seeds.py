"""Seeds are stable hashes: the same everywhere, independent of Python's hash salt."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from cgsim.play.seeds import SEED_BITS, deal_seed, derive_seed, game_seed, seat_seed


def test_pinned_values_never_change() -> None:
    # Changing these silently would change every run's games: pin them.
    assert derive_seed("deal", 1, 0) == deal_seed(1, 0)
    assert deal_seed(1, 0) == derive_seed("deal", 1, 0)
    assert deal_seed(1, 0) == 3524013940810950123


def test_namespaces_and_types_are_distinct() -> None:
    assert deal_seed(1, 0) != game_seed(1, 0)
    assert derive_seed("x", 1) != derive_seed("x", "1")
    assert seat_seed(5, 0) != seat_seed(5, 1)


@given(st.integers(min_value=0, max_value=2**63 - 1), st.integers(min_value=0, max_value=10**6))
def test_seeds_fit_a_signed_64_bit_column(run_seed: int, index: int) -> None:
    for seed in (
        deal_seed(run_seed, index),
        game_seed(run_seed, index),
        seat_seed(run_seed, index),
    ):
        assert 0 <= seed < 2**SEED_BITS


def test_independent_of_the_hash_salt() -> None:
    code = "from cgsim.play.seeds import deal_seed; print(deal_seed(3, 4))"
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONHASHSEED": salt},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for salt in ("1", "2")
    }
    assert outputs == {f"{deal_seed(3, 4)}\n"}
