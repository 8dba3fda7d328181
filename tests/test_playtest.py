"""``cgsim play --human SEAT --out DIR``: a playtest session stored like a run, game by game."""

from __future__ import annotations

import copy
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from cli_helpers import assert_refused, run_cli

from cgsim.errors import RecordError
from cgsim.games.checkers import check_record, is_stopped
from cgsim.games.recordio import iter_records
from cgsim.games.registry import get_game
from cgsim.play import session
from cgsim.play.bot_registry import resolve_bot
from cgsim.play.human import partial_record
from cgsim.play.results import load_tables, open_results
from cgsim.play.seeds import deal_seed
from cgsim.play.storage import read_records

WHOLE_GAME = {"cottage-garden": "1\n" * 3000, "kitchen-garden": "2\n1\n" * 2000}
"""A person who finishes a game in a second or so: always the first choice (in Kitchen
Garden the second, or the first when there is one only, which ends the game of
:data:`SESSION_SEED` before the turn cap)."""
SESSION_SEED = {"cottage-garden": 1, "kitchen-garden": 2}
"""The session's run seed: one whose first deal that person finishes."""
QUIT_AT_ONCE = "q\n"


def _play(monkeypatch: pytest.MonkeyPatch, answers: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    done = run_cli(["play", *args])
    return done.code, done.out + done.err


def _listing(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("game", ["cottage-garden", "kitchen-garden"])
def test_a_session_adds_a_finished_and_a_quit_game_and_reports_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str
) -> None:
    out = tmp_path / "playtests"
    seed = SESSION_SEED[game]
    args = ["--game", game, "--human", "0", "--out", str(out), "--seed", str(seed)]
    code, said = _play(monkeypatch, WHOLE_GAME[game], *args)
    assert code == 0, said[-2000:]
    assert f"game 0 added to {out}" in said
    code, said = _play(monkeypatch, "1\n1\n" + QUIT_AT_ONCE, *args)
    assert code == 0, said[-2000:]
    assert f"kept in {out} as game 1, unfinished" in said

    results = open_results(out)
    assert results.manifest.command == "play" and results.manifest.status == "complete"
    assert (results.manifest.games_planned, results.manifest.games_done) == (2, 2)
    tables = load_tables(out)
    games = tables["games"].sort("game_id")
    assert games["game_id"].to_list() == [0, 1]
    assert games["seed"].to_list() == [deal_seed(seed, 0), deal_seed(seed, 1)]
    assert games["end"][0] != "error" and games["error"][0] is None
    assert games["end"][1] == "error" and games["error_seat"][1] == 0
    assert games["error"][1].startswith("seat 0 (human) quit after")
    assert set(tables["seats"]["bot"]) == {"human", "random"}

    finished, quit_game = read_records(out)
    assert quit_game["game_id"] == 1 and quit_game["seats"][0]["bot"] == "human"
    assert not is_stopped(finished) and is_stopped(quit_game)
    assert list(check_record(quit_game)) == []
    get_game(game).validate_record(quit_game)
    chunk = out / "records" / "chunk-000001.jsonl.zst"
    checked = run_cli(["check", str(chunk)])
    assert checked.code == 0 and "1 valid (1 unfinished" in checked.out, checked
    replayed = run_cli(["replay", str(chunk)])
    assert replayed.code == 0 and "stopped before its end" in replayed.out, replayed.err
    page = tmp_path / "quit.html"
    assert run_cli(["replay", str(chunk), "--html", str(page)]).code == 0 and page.is_file()

    reported = run_cli(["report", str(out), "--bootstrap", "0"])
    assert reported.code == 0, reported.err
    assert "human" in reported.out and "1 games ended in an error" in reported.out
    # the quit game is left out of the win rates, as an error game is
    win_rate = pl.read_csv(out / "tables" / "win_rate.csv")
    assert win_rate.filter(pl.col("bot") == "human")["games"].to_list() == [1]
    assert "quit after" in (out / "report.md").read_text(encoding="utf-8")


def test_another_setup_is_refused_and_nothing_is_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "playtests"
    assert _play(monkeypatch, QUIT_AT_ONCE, "--human", "0", "--out", str(out))[0] == 0
    before = _listing(out)
    others = {
        "players": ["--players", "3"],
        "seats": ["--bots", "greedy"],
        "rules.cat_limit": ["--rule", "cat_limit=3"],
        "game": ["--game", "kitchen-garden"],
        "seed": ["--seed", "7"],
    }
    for differs, extra in others.items():
        monkeypatch.setattr(sys, "stdin", io.StringIO(QUIT_AT_ONCE))
        refused = run_cli(["play", "--human", "0", "--out", str(out), *extra])
        assert_refused(refused, f"--out {str(out)!r} holds games of another setup", differs)
    # the same setup named another way is the same session
    code, said = _play(
        monkeypatch, QUIT_AT_ONCE, "--human", "0", "--out", str(out), "--rule", "cat_limit=2"
    )
    assert code == 0, said
    assert _listing(out) != before and open_results(out).manifest.games_done == 2
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8"))["run_seed"] == 1


def test_a_run_folder_is_not_a_session(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert (
        run_cli(["run", "smoke", "--games", "2", "--out", str(tmp_path), "--no-report"]).code == 0
    )
    folder = tmp_path / "smoke"
    before = _listing(folder)
    monkeypatch.setattr(sys, "stdin", io.StringIO(QUIT_AT_ONCE))
    refused = run_cli(["play", "--human", "0", "--out", str(folder)])
    assert_refused(refused, "command: 'run' then, 'play' now")
    assert _listing(folder) == before


def test_a_crash_while_storing_leaves_a_readable_folder_and_the_next_game_fills_in(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "playtests"
    assert _play(monkeypatch, QUIT_AT_ONCE, "--human", "0", "--out", str(out))[0] == 0

    def power_cut(*args: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(session, "write_batch", power_cut)
        code, _ = _play(monkeypatch, QUIT_AT_ONCE, "--human", "0", "--out", str(out))
    assert code == 130
    crashed = open_results(out)
    assert crashed.done_chunks() == {0} and crashed.manifest.games_planned == 2
    assert run_cli(["report", str(out), "--bootstrap", "0"]).code == 0
    assert _play(monkeypatch, QUIT_AT_ONCE, "--human", "0", "--out", str(out))[0] == 0
    healed = open_results(out)
    assert healed.done_chunks() == {0, 1} and healed.manifest.status == "complete"
    assert load_tables(out)["games"]["seed"].to_list() == [deal_seed(1, 0), deal_seed(1, 1)]


def test_bots_alone_add_their_game_too(tmp_path: Path) -> None:
    out = tmp_path / "singles"
    for _ in range(2):
        assert run_cli(["play", "--bots", "greedy,random", "--out", str(out)]).code == 0
    assert load_tables(out)["games"]["game_id"].to_list() == [0, 1]


def test_an_unfinished_cottage_record_is_checked_as_far_as_it_goes() -> None:
    game = get_game("cottage-garden")
    rules = game.make_rules(2, {}, None, {})
    bots = [resolve_bot("random", game.info.id)] * 2
    state, actions = game.new_game(rules, 5), []
    while state.turn < 6 or not state.events:  # stop inside turn 6, a decision taken
        actions.append(game.legal_actions(state)[-1])
        state = game.apply(state, actions[-1])
    record = partial_record(game, rules, 5, bots, actions)
    # the turn in progress is left out: every turn of the record is whole
    assert [turn["n"] for turn in record["turns"]] == [1, 2, 3, 4, 5]
    assert is_stopped(record) and list(check_record(record)) == []
    assert [turn for turn, _ in game.replay(record)][-2:] == [5, 6]
    last_turn: list[Any] = record["turns"][-1]["events"]
    for cut in (last_turn[:-1], []):  # a turn cut short is no stop: only whole turns are
        broken = copy.deepcopy(record)
        broken["turns"][-1]["events"] = cut
        assert check_record(broken), cut
        with pytest.raises(RecordError):
            list(game.replay(broken))


def test_a_finished_cottage_record_cut_short_is_still_a_violation() -> None:
    whole = next(iter_records(Path(__file__).parent / "golden" / "records.jsonl.zst"))
    whole["turns"] = whole["turns"][:-1]
    assert not is_stopped(whole)
    assert any("has not ended" in violation.message for violation in check_record(whole))


def test_a_folder_in_use_by_another_game_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    out = tmp_path / "playtests"
    out.mkdir()
    other = session._lock(out)  # another terminal, in the middle of its game
    try:
        monkeypatch.setattr(sys, "stdin", io.StringIO(QUIT_AT_ONCE))
        refused = run_cli(["play", "--human", "0", "--out", str(out)])
        assert_refused(refused, "another 'cgsim play' is adding a game to it right now")
        assert list(out.iterdir()) == []
    finally:
        os.close(other)
    assert _play(monkeypatch, QUIT_AT_ONCE, "--human", "0", "--out", str(out))[0] == 0
