"""Output paths are checked for real before any game, and the check leaves nothing behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from cgsim.errors import ConfigError
from cgsim.play.paths import require_output_dir, require_output_file


def test_a_folder_that_can_be_made_passes_and_is_not_left_behind(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "c"
    assert require_output_dir(target, "--out") == target
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_passes_untouched(tmp_path: Path) -> None:
    (tmp_path / "kept.txt").write_text("x")
    require_output_dir(tmp_path, "--out")
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"]


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("file", "--out '{file}' is a file; expected a folder"),
        ("file/sub/deeper", "--out '{file}/sub/deeper' is under '{file}', which is a file"),
        ("/dev/null", "--out '/dev/null' is not a folder; expected a folder"),
        ("/dev/null/x", "--out '/dev/null/x' is under '/dev/null', which is not a folder"),
        ("/proc/cgsim-out", "--out '/proc/cgsim-out': cannot create the folder: "),
    ],
)
def test_folders_that_cannot_be_written_are_refused(
    tmp_path: Path, where: str, message: str
) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    target = where.replace("file", str(file)) if where.startswith("file") else where
    with pytest.raises(ConfigError) as error:
        require_output_dir(target, "--out")
    assert str(error.value).startswith(message.format(file=file))
    assert "\n" not in str(error.value)


def test_a_file_that_can_be_written_passes_and_is_not_left_behind(tmp_path: Path) -> None:
    require_output_file(tmp_path / "new" / "game.json", "--record")
    assert list(tmp_path.iterdir()) == []
    existing = tmp_path / "old.json"
    existing.write_text("kept")
    require_output_file(existing, "--record")
    assert existing.read_text() == "kept"


def test_files_that_cannot_be_written_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a folder; expected a file name"):
        require_output_file(tmp_path, "--record")
    with pytest.raises(ConfigError, match=r"folder '/proc/x': cannot create the folder"):
        require_output_file("/proc/x/g.json", "--record")
