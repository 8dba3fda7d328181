"""The run configs shipped with cgsim: the runner's default and the examples.

There is one copy of each, in the checkout's ``configs/`` folder; ``cgsim/play/configs``
is a link to that folder, so a built wheel carries them as package data and an installed
cgsim finds them without a source tree. A config argument that names no file is looked
up here by name (``smoke``, ``studies/cat-limit-sweep``).
"""

from __future__ import annotations

from pathlib import Path

SHIPPED = Path(__file__).resolve().parent / "configs"
DEFAULT = "default"
DEFAULT_CONFIG = SHIPPED / f"{DEFAULT}.toml"
"""The runner's default config: ``cgsim run`` without a config, and the bench's run."""
SUFFIX = ".toml"


def shipped_names() -> list[str]:
    """Names of the shipped configs, as a command accepts them."""
    return sorted(path.relative_to(SHIPPED).with_suffix("").as_posix() for path in _files())


def _files() -> list[Path]:
    return [path for path in SHIPPED.rglob(f"*{SUFFIX}") if path.is_file()]


def shipped_config(name: str) -> Path | None:
    """The shipped config called ``name`` (with or without ``.toml``), None if none is."""
    stem = name.removesuffix(SUFFIX)
    if not stem or stem.startswith(("/", ".")) or ".." in Path(stem).parts:
        return None
    path = SHIPPED / f"{stem}{SUFFIX}"
    return path if path.is_file() else None


def config_path(argument: Path | str | None) -> Path:
    """The file a config argument means: the file itself when it exists, else the shipped
    config of that name, else the argument unchanged (its reader reports it missing).
    No argument means the shipped default."""
    if argument is None:
        return DEFAULT_CONFIG
    path = Path(argument)
    if path.exists():
        return path
    return shipped_config(str(argument)) or path
