"""Reading the hand-written TOML files a user hands over: configs and component catalogues.

Whatever the file holds (binary data, another encoding, a device that never ends,
nesting deep enough to exhaust the parser), the answer is a one-line ``ConfigError``
naming the file, never a traceback or a hang.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from cgsim.errors import ConfigError

MAX_FILE_BYTES = 10_000_000
"""Bytes of a config or component file: larger is no hand-written file, and reading
stops there (``/dev/zero`` would never end)."""


def read_text_file(path: Path, what: str) -> str:
    """A text file's content, or a ``ConfigError`` naming ``what`` and the file: missing,
    unreadable, a folder, larger than :data:`MAX_FILE_BYTES` or not UTF-8 text."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"{what} {str(path)!r} does not exist") from None
    except IsADirectoryError:
        raise ConfigError(f"{what} {str(path)!r} cannot be read: it is a folder") from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ConfigError(f"{what} {str(path)!r} cannot be read: {reason}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise ConfigError(
            f"{what} {str(path)!r} is larger than {MAX_FILE_BYTES:,} bytes; expected a TOML file"
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{what} {str(path)!r} is not UTF-8 text (byte {error.start}); expected a TOML file"
        ) from None


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """TOML text as data, or a one-line ``ConfigError`` naming ``source``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: invalid TOML: {error}") from None
    except RecursionError:
        raise ConfigError(f"{source}: invalid TOML: arrays or tables nested too deep") from None


def read_toml_file(path: Path, what: str) -> dict[str, Any]:
    """A TOML file as data (see :func:`read_text_file` and :func:`parse_toml`)."""
    return parse_toml(read_text_file(path, what), str(path))
