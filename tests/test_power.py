"""How many deals: textbook sample sizes, a planted deal structure recovered, and the
promised power delivered (a study of the advised size finds the effect about 80% of the
time, and a null effect at about the stated alpha)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import scipy.stats as sps
import toygame
from cli_helpers import assert_refused, run_cli

from cgsim.reporting.power import MAX_DEALS, deals_needed, more_deals, spread
from cgsim.studies.power import compare_hints

toygame.register()


def test_deals_needed_matches_the_textbook_paired_t() -> None:
    # Paired t test, d = 0.5, alpha 0.05 two-sided, power 0.8: 34 pairs (Cohen's tables).
    assert deals_needed(1.0, 0.5) == 34
    assert deals_needed(2.0, 1.0) == 34
    assert deals_needed(1.0, 0.5, power=0.9) == 44
    assert deals_needed(float("nan"), 1.0) == MAX_DEALS
    assert deals_needed(1.0, 0.0) == MAX_DEALS


def planted(rng: np.random.Generator, deals: int, per_deal: int, shift: float = 0.0):  # type: ignore[no-untyped-def]
    """Per-game values: a deal part of sd 3 shared by the deal's games, noise of sd 1."""
    deal_part = rng.normal(0.0, 3.0, deals)
    ids = np.repeat(np.arange(deals), per_deal)
    values = deal_part[ids] + rng.normal(0.0, 1.0, ids.size) + shift
    return values, ids, deal_part


def test_the_deal_and_within_parts_are_recovered() -> None:
    values, ids, _ = planted(np.random.default_rng(1), 2000, 2)
    found = spread(values, ids)
    assert abs(found.between - 9.0) < 0.8
    assert abs(found.within - 1.0) < 0.1
    assert abs(found.paired_sd - 1.0) < 0.1  # sqrt(2 * 1 / 2)
    once = spread(values[::2], ids[::2])
    assert np.isnan(once.paired_sd) and once.unpaired_sd > 2.5
    same = spread(np.repeat(values[::2], 2), ids)
    assert np.isnan(same.paired_sd) and same.unpaired_sd > 2.5


def test_a_study_of_the_advised_size_has_the_promised_power_and_alpha() -> None:
    rng = np.random.default_rng(7)
    pilot, ids, _ = planted(rng, 200, 2)
    n = deals_needed(spread(pilot, ids).paired_sd, 0.5)
    hits = nulls = 0
    trials = 400
    for _ in range(trials):
        base, deal_ids, deal_part = planted(rng, n, 2)
        noise = rng.normal(0.0, 1.0, base.size)
        changed = deal_part[deal_ids] + noise + 0.5
        same = deal_part[deal_ids] + rng.normal(0.0, 1.0, base.size)
        diff = np.bincount(deal_ids, changed - base) / 2
        null = np.bincount(deal_ids, same - base) / 2
        hits += sps.ttest_1samp(diff, 0.0).pvalue < 0.05
        nulls += sps.ttest_1samp(null, 0.0).pvalue < 0.05
    assert 0.72 < hits / trials < 0.88
    assert nulls / trials < 0.09


def test_compare_hints_say_how_many_more_deals() -> None:
    table = pl.DataFrame(
        {
            "metric": ["mean_score", "turns", "margin"],
            "difference": [0.2, 1.0, 0.1],
            "low": [-0.8, 0.5, -0.1],
            "high": [1.2, 1.5, 0.3],
            "n": [50, 50, 50],
            "verdict": ["no change", "changed", "no change"],
        }
    )
    lines = compare_hints(table, {"mean_score": 1.0, "turns": 1.0, "margin": 1.0})
    assert len(lines) == 2
    assert lines[0].startswith("mean_score: not established; to detect 1 you need about")
    more = more_deals(1.0, 50, 1.0, 0.05, 0.8)
    assert f"{more:,} more deals" in lines[0] and 0 < more < 200
    assert "the change is likely smaller" in lines[1]


def test_power_command_on_a_toy_pilot(tmp_path: Path) -> None:
    config = tmp_path / "pilot.toml"
    config.write_text(
        'name = "pilot"\ngame = "toy"\nplayers = 2\nseats = ["toygame:Greedy", '
        f'"toygame:Wanderer"]\ngames = 40\nworkers = 1\nout = "{tmp_path.as_posix()}"\n'
    )
    outcome = run_cli(["power", str(config), "--detect", "mean_score:0.5,turns:1"])
    assert outcome.code == 0, outcome.err
    assert "to detect 0.5 on mean_score" in outcome.out
    assert (tmp_path / "pilot" / "power.csv").is_file()
    table = pl.read_csv(tmp_path / "pilot" / "power.csv")
    assert table["metric"].to_list() == ["mean_score", "turns"]
    refused = run_cli(["power", str(tmp_path / "pilot"), "--detect", "nothing:1"])
    assert_refused(refused, "nothing")
    assert_refused(run_cli(["power", str(config), "--power", "1.5"]), "--power")


def test_power_answers_one_metric_at_every_effect_asked(tmp_path: Path) -> None:
    config = tmp_path / "pilot.toml"
    config.write_text(
        'name = "pilot"\ngame = "toy"\nplayers = 2\nseats = ["toygame:Greedy", '
        f'"toygame:Wanderer"]\ngames = 40\nworkers = 1\nout = "{tmp_path.as_posix()}"\n'
    )
    detect = "mean_score:0.3,mean_score:0.5,mean_score:1,turns:1,mean_score:0.5"
    outcome = run_cli(["power", str(config), "--detect", detect])
    assert outcome.code == 0, outcome.err
    table = pl.read_csv(tmp_path / "pilot" / "power.csv")
    assert table.select("metric", "effect").rows() == [
        ("mean_score", 0.3),
        ("mean_score", 0.5),
        ("mean_score", 1.0),
        ("turns", 1.0),
    ]
    paired = table.filter(pl.col("metric") == "mean_score")["deals_paired"].to_list()
    assert paired == sorted(paired, reverse=True) and paired[0] > paired[-1]
    for effect in ("0.3", "0.5", "1"):
        assert f"to detect {effect} on mean_score" in outcome.out
