"""Output paths checked before any game is played.

A run that can only fail when it writes its first chunk, or a study that fails when it
writes its report after hours of play, wastes the whole run. Every command that writes
checks its output paths first, through these two helpers: the folder must be creatable
and writable (tried for real, so ``/proc``, a read-only disk or a path under a file are
caught whoever runs it), and the check leaves nothing behind.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cgsim.errors import ConfigError


def _missing_parts(path: Path) -> tuple[Path, list[Path]]:
    """The nearest existing ancestor of ``path`` (or itself) and the folders below it
    still to create, deepest first."""
    missing: list[Path] = []
    existing = path
    while not os.path.lexists(existing) and existing != existing.parent:
        missing.append(existing)
        existing = existing.parent
    return existing, missing


def _remove(folders: list[Path]) -> None:
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return


def _check_dir(path: Path, subject: str) -> None:
    """Make sure ``path`` is or can be made a writable folder; ``subject`` starts errors."""
    existing, missing = _missing_parts(path)
    if not existing.is_dir():
        kind = "a file" if existing.is_file() else "not a folder"
        where = "is" if existing == path else f"is under {str(existing)!r}, which is"
        raise ConfigError(f"{subject} {where} {kind}; expected a folder")
    try:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ConfigError(
                f"{subject}: cannot create the folder: {error.strerror or error}"
            ) from None
        try:
            with tempfile.TemporaryFile(dir=path):
                pass
        except OSError as error:
            raise ConfigError(
                f"{subject}: cannot write in the folder: {error.strerror or error}"
            ) from None
    finally:
        _remove(missing)


def require_output_dir(path: Path | str, what: str) -> Path:
    """``path`` when it is, or can be made, a writable folder; else a one-line
    ``ConfigError`` naming ``what`` (e.g. ``--out``). Folders made to try are removed."""
    path = Path(path)
    _check_dir(path, f"{what} {str(path)!r}")
    return path


def require_output_file(path: Path | str, what: str) -> Path:
    """``path`` when a file can be written there (its folder made if needed); else a
    one-line ``ConfigError`` naming ``what``. Nothing is left behind by the check."""
    path = Path(path)
    subject = f"{what} {str(path)!r}"
    if path.is_dir():
        raise ConfigError(f"{subject} is a folder; expected a file name")
    missing = _missing_parts(path.parent)[1]
    try:
        _check_dir(path.parent, f"{subject}: folder {str(path.parent)!r}")
        path.parent.mkdir(parents=True, exist_ok=True)
        created = not os.path.lexists(path)
        try:
            with path.open("ab"):
                pass
        except OSError as error:
            raise ConfigError(
                f"{subject}: cannot write the file: {error.strerror or error}"
            ) from None
        if created:
            path.unlink()
    finally:
        _remove(missing)
    return path
