"""Progress on stderr: a bar on a terminal, a plain line every few seconds elsewhere."""

from __future__ import annotations

import io

import pytest

from cgsim.play.progress import Progress, choose_mode, duration


@pytest.mark.parametrize(
    ("seconds", "text"), [(0, "0s"), (42.4, "42s"), (185, "3m05s"), (3725, "1h02m")]
)
def test_durations_are_short(seconds: float, text: str) -> None:
    assert duration(seconds) == text


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_lines_elsewhere() -> None:
    assert choose_mode(None, Terminal()) == "bar"
    assert choose_mode(None, io.StringIO()) == "lines"
    assert choose_mode(False, Terminal()) == "off"
    assert choose_mode(True, io.StringIO()) == "bar"


def test_lines_say_games_rate_and_time_left() -> None:
    stream = io.StringIO()
    shown = Progress(total=100, done=20, name="smoke", stream=stream, every=0.0)
    shown.start -= 2.0  # two seconds ago
    shown.update(10)
    shown.update(10)
    shown.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("smoke: 30/100 games, ") and lines[0].endswith(" left")
    assert " games/s, " in lines[0] and "\r" not in stream.getvalue()
    assert lines[-1].startswith("smoke: 40/100 games")


def test_lines_are_spaced_and_end_with_done() -> None:
    stream = io.StringIO()
    shown = Progress(total=3, done=0, name="x", stream=stream, every=3600.0)
    shown.update(1)
    shown.update(2)
    shown.close()
    (line,) = stream.getvalue().splitlines()
    assert line.startswith("x: 3/3 games, ") and ", done in " in line


def test_nothing_when_off() -> None:
    stream = io.StringIO()
    shown = Progress(total=3, done=0, name="x", progress=False, stream=stream, every=0.0)
    shown.update(3)
    shown.close()
    assert stream.getvalue() == ""
