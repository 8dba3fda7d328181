"""docs/architecture.md draws the layers from the code: its listing is what its script prints.

The script reads every import statement of cgsim/ and bots/; when a package moves or a new
import crosses layers, the listing changes and this test shows the new one to paste in.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"


def test_the_architecture_page_lists_the_imports_as_they_are(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = PAGE.read_text(encoding="utf-8")
    script = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    listing = re.search(r"```text\n(.*?)```", text, re.DOTALL)
    assert script and listing, "docs/architecture.md's script or listing is missing"
    monkeypatch.chdir(ROOT)
    exec(compile(script.group(1), str(PAGE), "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out
    assert printed == listing.group(1), f"the layers now read:\n{printed}"
