"""A run's progress on stderr: a bar on a terminal, a plain line every few seconds elsewhere.

Under a pipe or in CI a redrawn bar is one endless line (or nothing at all), so there
the run prints ``smoke: 123/1000 games, 12.3 games/s, 1m10s left`` every
:data:`LINE_EVERY` seconds, and once more at the end.
"""

from __future__ import annotations

import sys
import time
from typing import Literal, TextIO

from tqdm import tqdm  # type: ignore[import-untyped]

LINE_EVERY = 10.0
"""Seconds between progress lines when stderr is not a terminal."""

Mode = Literal["bar", "lines", "off"]


def duration(seconds: float) -> str:
    """``1h02m``, ``3m05s``, ``42s``: short enough for a progress line."""
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    if minutes:
        return f"{minutes}m{secs:02d}s"
    return f"{secs}s"


def choose_mode(progress: bool | None, stream: TextIO) -> Mode:
    """``progress`` None: a bar on a terminal, lines elsewhere; True: a bar; False: off."""
    if progress is False:
        return "off"
    if progress is True:
        return "bar"
    isatty = getattr(stream, "isatty", None)
    return "bar" if isatty is not None and isatty() else "lines"


class Progress:
    """Counts finished games and shows them in the chosen :data:`Mode`."""

    def __init__(
        self,
        total: int,
        done: int,
        name: str,
        progress: bool | None = None,
        stream: TextIO | None = None,
        every: float = LINE_EVERY,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.mode = choose_mode(progress, self.stream)
        self.total, self.done, self.name = total, done, name
        self.played = 0
        self.every = every
        self.start = self.last = time.monotonic()
        self.bar = (
            tqdm(
                total=total,
                initial=done,
                unit="game",
                desc=name,
                file=self.stream,
                dynamic_ncols=True,
            )
            if self.mode == "bar"
            else None
        )

    def update(self, games: int) -> None:
        self.done += games
        self.played += games
        if self.bar is not None:
            self.bar.update(games)
        elif self.mode == "lines":
            now = time.monotonic()
            if now - self.last >= self.every:
                self.last = now
                self._line(now)

    def line(self, now: float | None = None) -> str:
        """The progress line: games done, rate, time left (or taken, at the end)."""
        now = time.monotonic() if now is None else now
        elapsed = now - self.start
        rate = self.played / elapsed if elapsed > 0 else 0.0
        text = f"{self.name}: {self.done}/{self.total} games, {rate:.1f} games/s"
        left = self.total - self.done
        if left <= 0:
            return f"{text}, done in {duration(elapsed)}"
        if rate > 0:
            return f"{text}, {duration(left / rate)} left"
        return text

    def _line(self, now: float) -> None:
        print(self.line(now), file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.mode == "lines" and self.played:
            self._line(time.monotonic())
