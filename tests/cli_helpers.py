"""Running the console entry point in-process, as a user runs it: exit code and streams."""

from __future__ import annotations

import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from io import StringIO

from cgsim import cli


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str


def run_cli(args: list[str]) -> Outcome:
    """``cgsim ARGS`` through ``cgsim.cli.main``: exit code, stdout and stderr."""
    out, err = StringIO(), StringIO()
    argv = sys.argv
    sys.argv = ["cgsim", *args]
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            cli.main()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    finally:
        sys.argv = argv
    return Outcome(code, out.getvalue(), err.getvalue())


def assert_refused(outcome: Outcome, *fragments: str) -> None:
    """Exit 2, exactly one line on stderr naming every fragment, no traceback."""
    assert outcome.code == 2, (outcome.out, outcome.err)
    assert outcome.err.startswith("error: ") and outcome.err.count("\n") == 1, outcome.err
    assert "Traceback" not in outcome.err + outcome.out
    for fragment in fragments:
        assert fragment in outcome.err, (fragment, outcome.err)


def assert_user_outcome(outcome: Outcome) -> None:
    """Exit 0, or exit 2 with exactly one ``error:`` line (a config's several problems are
    numbered on it, at most 10 and then how many more); never a traceback."""
    assert "Traceback" not in outcome.err + outcome.out
    if outcome.code == 0:
        return
    assert outcome.code == 2, (outcome.out, outcome.err)
    assert outcome.err.startswith("error: ") and outcome.err.count("\n") == 1, outcome.err
