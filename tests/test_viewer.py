"""The replay viewer: its data is the engine's replay, and the page draws it in a real browser.

The browser tests drive one headless Chromium (see ``tests/chromium_driver.py``) through the page's
own controls and compare the drawn DOM with the engine's states; without Chromium they are
skipped with the reason shown.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chromium_driver import Browser, find_chromium
from cli_helpers import assert_refused, run_cli

from cgsim.games.recordio import read_record
from cgsim.games.registry import get_game
from cgsim.reporting.viewer import viewer_data, viewer_page

ROOT = Path(__file__).resolve().parents[1]
COTTAGE = ROOT / "tests" / "golden" / "records.jsonl.zst"
KITCHEN = ROOT / "tests" / "golden-kitchen" / "records.jsonl.zst"


def _states(game_id: str, record: dict[str, Any]) -> list[tuple[int, Any]]:
    return list(get_game(game_id).replay(record))


def test_the_steps_are_the_engine_replay() -> None:
    record = read_record(COTTAGE, 0)
    game = get_game("cottage-garden")
    data = viewer_data(game, record)
    states = _states("cottage-garden", record)
    assert [s["turn"] for s in data["steps"]] == [n for n, _ in states]
    final = states[-1][1]
    assert data["steps"][-1]["scores"] == list(game.result(final).scores)
    assert data["steps"][-1]["label"] == "final"
    played = [line for step in data["steps"] for e in step["events"] for line in e["lines"]]
    described = [line for lines in game.describe_turns(record).values() for line in lines]
    assert played == described


def test_the_page_is_self_contained() -> None:
    record = read_record(KITCHEN, 0)
    page = viewer_page(get_game("kitchen-garden"), record)
    assert "/*DATA*/" not in page and "/*DRAWING*/" not in page
    for remote in ("http://", "https://", "src=", "<link"):
        assert remote not in page
    start = page.index('type="application/json">') + len('type="application/json">')
    data = json.loads(page[start : page.index("</script>", start)])
    assert data["game"] == "kitchen-garden"


def test_replay_html_writes_a_page_and_refuses_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    done = run_cli(["replay", str(KITCHEN), "--html", str(out)])
    assert done.code == 0, done.err
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert_refused(run_cli(["replay", str(KITCHEN), "--html", str(tmp_path)]), "--html")


# ---------------------------------------------------------------- in a real browser

CHROMIUM = find_chromium()
needs_browser = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM is not None
    driver = Browser(CHROMIUM)
    yield driver
    driver.close()


def _cottage_dom_matches(browser: Browser, state: Any) -> None:
    """The drawn board shows the engine state: scores, nursery tiles, every bed cell."""
    from cgsim.games.cottage.scoring import player_score

    catalogue = state.rules.catalogue
    nursery = browser.run(
        "[...document.querySelectorAll('[data-nursery-cell]')].map(e => e.dataset.tile)"
    )
    assert nursery == [catalogue.tiles[t].id if t >= 0 else "" for t in state.nursery]
    for seat, player in enumerate(state.players):
        score = browser.run(f"document.querySelector('[data-score=\"{seat}\"]').firstChild.data")
        assert int(score) == player_score(state.rules, player)
        for b, bed in enumerate(player.beds):
            cells = browser.run(
                f"[...document.querySelectorAll('[data-cell^=\"{seat}-{b}-\"]')]"
                ".map(e => e.dataset.what)"
            )
            if bed is None:
                assert cells == []
                continue
            assert [w.startswith("tile") for w in cells] == [
                bool(bed.tiles >> i & 1) for i in range(25)
            ]
            assert [w == "cat" for w in cells] == [bool(bed.cats >> i & 1) for i in range(25)]
            assert [w == "token" for w in cells] == [bool(bed.pots >> i & 1) for i in range(25)]


@needs_browser
def test_the_cottage_page_steps_by_its_controls(browser: Browser, tmp_path: Path) -> None:
    record = read_record(COTTAGE, 0)
    states = _states("cottage-garden", record)
    page = tmp_path / "cottage.html"
    page.write_text(viewer_page(get_game("cottage-garden"), record), encoding="utf-8")
    browser.open(page.as_uri())
    assert browser.run("document.getElementById('board').dataset.step") == "0"
    _cottage_dom_matches(browser, states[0][1])
    for _ in range(5):
        browser.run("document.getElementById('next').click()")
    assert browser.run("location.hash") == f"#turn={states[5][0]}"
    _cottage_dom_matches(browser, states[5][1])
    browser.key("ArrowLeft", 37)
    assert browser.run("document.getElementById('board').dataset.step") == "4"
    _cottage_dom_matches(browser, states[4][1])
    last = len(states) - 1
    browser.run(
        f"const s = document.getElementById('slider'); s.value = '{last}';"
        "s.dispatchEvent(new Event('input'))"
    )
    _cottage_dom_matches(browser, states[-1][1])
    middle = len(states) // 2
    browser.open(f"{page.as_uri()}#turn={states[middle][0]}")
    assert browser.run("document.getElementById('board').dataset.step") == str(middle)
    _cottage_dom_matches(browser, states[middle][1])
    assert browser.errors() == []


@needs_browser
def test_the_kitchen_page_hides_other_hands(browser: Browser, tmp_path: Path) -> None:
    record = read_record(KITCHEN, 0)
    states = _states("kitchen-garden", record)
    page = tmp_path / "kitchen.html"
    page.write_text(viewer_page(get_game("kitchen-garden"), record), encoding="utf-8")
    browser.open(page.as_uri())
    browser.key("End", 35)
    browser.key("ArrowLeft", 37)
    index = len(states) - 2
    state = states[index][1]
    assert browser.run("document.getElementById('board').dataset.step") == str(index)
    market = browser.run("document.querySelector('[data-market]').dataset.market")
    assert int(market) == len(state.market)
    hands = browser.run(
        "[...document.querySelectorAll('[data-hand]')].map(e => e.querySelectorAll('.kg-card').length)"
    )
    assert hands == [len(hand) for hand in state.hands]
    browser.run(
        "const v = document.getElementById('view-as'); v.value = '0';"
        "v.dispatchEvent(new Event('change'))"
    )
    shown = browser.run("[...document.querySelectorAll('[data-hand]')].map(e => e.dataset.shown)")
    assert shown == ["true"] + ["false"] * (len(state.hands) - 1)
    hidden = browser.run("document.querySelectorAll('[data-hand=\"1\"] [data-card=hidden]').length")
    assert hidden == len(state.hands[1])
    assert browser.errors() == []


def test_the_report_lists_notable_games_with_their_pages(tmp_path: Path) -> None:
    from results_fixtures import write_results
    from test_report import TINY

    from cgsim.games.recordio import dumps, iter_records
    from cgsim.reporting.notable import notable_section

    results = write_results(tmp_path / "run", TINY, name="tiny-run")
    lines = [dumps({**r, "game_id": i}) for i, r in enumerate(iter_records(COTTAGE))]
    (results / "records").mkdir(exist_ok=True)
    (results / "records" / "chunk-000000.jsonl").write_text("\n".join(lines) + "\n")
    out = tmp_path / "report"
    section = notable_section(results, out)
    assert section is not None
    whys = [text.split(":")[0] for text, _ in section.links]
    assert {"longest", "closest", "biggest margin", "error"} <= set(whys)
    for _, href in section.links:
        if href:
            assert "game-data" in (out / href).read_text(encoding="utf-8")
    assert notable_section(write_results(tmp_path / "bare", TINY), out) is None
