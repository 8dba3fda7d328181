"""``cgsim play --human``: a person's seat driven by typed answers, by stdin and once in tmux."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import assert_refused, run_cli

from cgsim.games.recordio import read_record
from cgsim.games.registry import get_game

CGSIM = Path(sys.executable).with_name("cgsim")


def _play(monkeypatch: pytest.MonkeyPatch, answers: str, args: list[str]) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))
    done = run_cli(["play", *args])
    return done.code, done.out + done.err


def test_a_person_finishes_a_cottage_game_by_stdin(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    # '?' and a wrong answer are answered, then always the first choice to the end.
    answers = "?\nzz\n" + "1\n" * 2000
    code, out = _play(
        monkeypatch, answers, ["--human", "1", "--seed", "4", "--record", str(record)]
    )
    assert code == 0, out[-2000:]
    assert "Type the number of a choice" in out and "'zz' is not a choice" in out
    assert "tile " in out and "placements" in out and "## the new tile" in out
    assert "record written to" in out and "human" in out
    data = read_record(record, 0)
    assert [seat["bot"] for seat in data["seats"]] == ["random", "human"]
    game = get_game("cottage-garden")
    game.validate_record(data)
    assert game.is_terminal(list(game.replay(data))[-1][1])


def test_two_people_play_kitchen_garden(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    record = tmp_path / "kitchen.json"
    args = ["--game", "kitchen-garden", "--human", "0", "--human", "1", "--record", str(record)]
    code, out = _play(monkeypatch, "1\n" * 3000, args)
    assert code == 0, out[-2000:]
    assert "hand (" in out
    data = read_record(record, 0)
    assert [seat["bot"] for seat in data["seats"]] == ["human", "human"]
    get_game("kitchen-garden").validate_record(data)


def test_q_stops_and_keeps_the_game_so_far(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    record = tmp_path / "partial.json"
    code, out = _play(monkeypatch, "1\n1\nb\nq\n", ["--human", "0", "--record", str(record)])
    assert code == 0, out
    assert "quit after" in out and str(record) in out
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["seats"][0]["bot"] == "human" and "result" not in data
    assert data["turns"]


def test_bad_human_seats_are_refused() -> None:
    assert_refused(run_cli(["play", "--human", "2"]), "--human 2")
    assert_refused(run_cli(["play", "--human", "0", "--isolate"]), "--isolate")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="no tmux installed (apt-get install tmux)")
def test_a_person_in_tmux_asks_for_help_and_quits(tmp_path: Path) -> None:
    record = tmp_path / "tmux.json"
    session = f"cgsim-human-{time.monotonic_ns()}"
    command = f"{CGSIM} play --human 0 --seed 3 --record {record}; sleep 30"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "160", "-y", "60", command], check=True
    )

    def screen() -> str:
        return subprocess.run(
            ["tmux", "capture-pane", "-p", "-S", "-400", "-t", session],
            capture_output=True,
            text=True,
        ).stdout

    def wait_for(text: str) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            shown = screen()
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never shown:\n{shown}")

    try:
        wait_for("choice 1-")
        subprocess.run(["tmux", "send-keys", "-t", session, "?", "Enter"], check=True)
        wait_for("this help")
        subprocess.run(["tmux", "send-keys", "-t", session, "q", "Enter"], check=True)
        wait_for("quit after")
        assert json.loads(record.read_text(encoding="utf-8"))["seats"][0]["bot"] == "human"
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
