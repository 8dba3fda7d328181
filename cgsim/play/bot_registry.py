"""Finding bots: built-ins, ``module:Class`` paths and installed plugins.

A bot spec is a short string a config or command line can carry:

- ``name`` or ``name:key=value,key=value`` for a known bot: a built-in (every ``Bot``
  subclass with a name in a module of the ``bots`` package) or a plugin registered in
  the ``cgsim.bots`` entry-point group;
- ``module.path:Class`` optionally followed by ``:key=value,...`` for any importable class.

The two forms differ in whether the part after the first colon holds ``=``. Values are
read as int, float, bool (``true``/``false``) or else text, then validated by the bot's
pydantic ``Params`` model. A resolved :class:`BotSpec` is small and picklable, so worker
processes receive it instead of a bot.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import pkgutil
import sys
import traceback
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, TypeGuard

from pydantic import BaseModel, ValidationError

from cgsim.errors import ConfigError, UnknownBotError
from cgsim.games.bot import Bot

BUILTIN_PACKAGE = "bots"
ENTRY_POINT_GROUP = "cgsim.bots"


@dataclass(frozen=True, slots=True)
class ParamInfo:
    """One bot parameter as ``cgsim bots`` and error messages show it."""

    name: str
    type: str
    default: Any
    description: str


@dataclass(frozen=True, slots=True)
class BotInfo:
    """What ``cgsim bots`` lists about one bot."""

    name: str
    description: str
    games: tuple[str, ...]
    params: tuple[ParamInfo, ...]
    source: str
    """``built-in`` or ``plugin <distribution entry point>``."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot resolved for one game: class plus validated parameters, ready to create.

    ``label`` is the canonical spec string (bot name or class path, then the parameters
    given, sorted: ``greedy:pots=1.5``); result tables identify bots by it.
    """

    label: str
    name: str
    cls: type[Bot]
    params: BaseModel

    def create(self) -> Bot:
        """A fresh bot instance (one per game, so no state leaks between games)."""
        return self.cls(self.params)

    def params_dict(self) -> dict[str, Any]:
        """Every parameter value, JSON-ready (for game records)."""
        return self.params.model_dump(mode="json")


def _is_bot_class(value: object) -> TypeGuard[type[Bot]]:
    return inspect.isclass(value) and issubclass(value, Bot) and value is not Bot


def _builtin_bots() -> dict[str, type[Bot]]:
    found: dict[str, type[Bot]] = {}
    package = importlib.import_module(BUILTIN_PACKAGE)
    for module_info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        module_name = f"{BUILTIN_PACKAGE}.{module_info.name}"
        try:
            module = importlib.import_module(module_name)
        except Exception as error:
            warnings.warn(
                f"bot module {module_name} cannot be imported: {import_failure(error)}",
                stacklevel=2,
            )
            continue
        for value in vars(module).values():
            if _is_bot_class(value) and value.__module__ == module_name and value.name:
                found.setdefault(value.name, value)
    return found


def _plugin_bots() -> dict[str, tuple[type[Bot], str]]:
    found: dict[str, tuple[type[Bot], str]] = {}
    for entry in metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            value = entry.load()
        except Exception as error:
            warnings.warn(
                f"bot plugin {entry.name} cannot be loaded: {import_failure(error)}",
                stacklevel=2,
            )
            continue
        if not _is_bot_class(value):
            warnings.warn(f"bot plugin {entry.name} ({entry.value}) is not a Bot", stacklevel=2)
            continue
        dist = entry.dist.name if entry.dist is not None else "?"
        found.setdefault(entry.name, (value, f"plugin {dist}"))
    return found


def known_bots() -> dict[str, tuple[type[Bot], str]]:
    """Every bot reachable by name: ``{name: (class, source)}``, built-ins winning clashes."""
    known: dict[str, tuple[type[Bot], str]] = {
        name: (cls, "built-in") for name, cls in _builtin_bots().items()
    }
    for name, (cls, source) in _plugin_bots().items():
        if name in known:
            warnings.warn(f"bot plugin {name!r} is shadowed by a built-in bot", stacklevel=2)
            continue
        known[name] = (cls, source)
    return dict(sorted(known.items()))


def _type_name(annotation: Any) -> str:
    if inspect.isclass(annotation):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def param_infos(cls: type[Bot]) -> tuple[ParamInfo, ...]:
    """The parameters of a bot class, from its pydantic ``Params`` model."""
    return tuple(
        ParamInfo(
            name=name,
            type=_type_name(field.annotation),
            default=field.get_default(call_default_factory=True),
            description=field.description or "",
        )
        for name, field in cls.Params.model_fields.items()
    )


def describe_params(cls: type[Bot]) -> str:
    """``name (type, default value), ...``: the one-line list error messages show."""
    infos = param_infos(cls)
    if not infos:
        return "it takes no parameters"
    listed = ", ".join(f"{p.name} ({p.type}, default {p.default!r})" for p in infos)
    return f"its parameters: {listed}"


def list_bots(game: str | None = None) -> list[BotInfo]:
    """Every known bot (built-ins and plugins), restricted to ``game``'s when given."""
    return [
        BotInfo(
            name=name,
            description=cls.description,
            games=tuple(cls.games),
            params=param_infos(cls),
            source=source,
        )
        for name, (cls, source) in known_bots().items()
        if game is None or cls.plays(game)
    ]


def parse_value(text: str) -> int | float | bool | str:
    """A parameter value from a spec string: bool, int, float, or else the text itself."""
    lowered = text.strip().lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_params(text: str, spec: str) -> dict[str, Any]:
    """``key=value,key=value`` into a dict (``spec`` names the whole string in errors)."""
    params: dict[str, Any] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(
                f"bot spec {spec!r}: parameter {item!r} must be written key=value "
                "(e.g. 'greedy:pots=1.5,depth=2')"
            )
        if key in params:
            raise ConfigError(f"bot spec {spec!r}: parameter {key!r} is given twice")
        params[key] = parse_value(value.strip())
    return params


def split_bot_list(text: str, option: str = "--bots") -> list[str]:
    """Split a comma-separated list of bot specs (``random,greedy:pots=1.5,cats=2,
    mybot:Cls``) into one spec each: every command's one way to read such a list.

    A piece holding ``=`` but no ``:`` continues the previous spec's parameters; any other
    piece starts a spec (a ``module:Class`` path included). ``option`` names the list in
    errors.
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            raise ConfigError(f"{option} {text!r}: empty bot name")
        if "=" in piece and ":" not in piece and specs:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a spec string into its target (name or ``module:Class``) and parameters."""
    parts = spec.strip().split(":")
    if not parts[0]:
        raise ConfigError(f"bot spec {spec!r} is empty; give a bot name or module.path:Class")
    if len(parts) == 1:
        return parts[0], {}
    if "=" in parts[1] or not parts[1]:
        if len(parts) > 2:
            raise ConfigError(f"bot spec {spec!r}: parameters must come after one colon")
        return parts[0], parse_params(parts[1], spec) if parts[1] else {}
    target = f"{parts[0]}:{parts[1]}"
    if len(parts) == 2:
        return target, {}
    if len(parts) > 3 or not parts[2]:
        raise ConfigError(f"bot spec {spec!r} must be module.path:Class[:key=value,...]")
    return target, parse_params(parts[2], spec)


def _shown_path(filename: str) -> str:
    """A source file as a person would type it: from the working folder when inside it."""
    path = Path(filename)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (OSError, ValueError):
        return filename


def import_failure(error: BaseException) -> str:
    """Why a module did not import, as one line naming the file and line at fault: the
    syntax error's place, or the innermost frame of the module's own code that raised
    (an import of a missing dependency); the import machinery's frames never count."""
    if isinstance(error, SyntaxError) and error.filename:
        where = f"{_shown_path(error.filename)}:{error.lineno}: "
        return f"{where}{type(error).__name__}: {error.msg}"
    machinery = Path(importlib.__file__).parent
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if not frame.filename.startswith("<")
        and machinery not in Path(frame.filename).parents
        and Path(frame.filename) != Path(__file__)
    ]
    message = " ".join(str(error).split())
    text = f"{type(error).__name__}: {message}" if message else type(error).__name__
    if not frames:
        return text
    return f"{_shown_path(frames[-1].filename)}:{frames[-1].lineno}: {text}"


def _load_class(target: str) -> type[Bot]:
    module_name, _, class_name = target.partition(":")
    _importable_from_working_directory()
    try:
        module = importlib.import_module(module_name)
    except (Exception, SystemExit) as error:
        raise UnknownBotError(
            f"bot {target!r}: cannot import module {module_name!r}: {import_failure(error)}"
        ) from None
    value = getattr(module, class_name, None)
    if value is None:
        raise UnknownBotError(f"bot {target!r}: module {module_name!r} has no {class_name!r}")
    if not _is_bot_class(value):
        raise UnknownBotError(f"bot {target!r} is not a subclass of cgsim.games.bot.Bot")
    return value


def _importable_from_working_directory() -> None:
    """Let ``module:Class`` name a module in the current folder, as ``python -m`` would.

    A console script's import path does not include the working directory; a bot file
    next to the user's config should load all the same.
    """
    cwd = os.getcwd()
    if cwd not in sys.path and "" not in sys.path:
        sys.path.append(cwd)


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _validate_params(target: str, cls: type[Bot], given: Mapping[str, Any]) -> BaseModel:
    unknown = sorted(set(given) - set(cls.Params.model_fields))
    if unknown:
        raise UnknownBotError(
            f"bot {target!r} has no parameter {unknown[0]!r}; {describe_params(cls)}"
        )
    try:
        return cls.Params.model_validate(dict(given))
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"])
        raise ConfigError(
            f"bot {target!r} parameter {field}={first.get('input')!r}: {first['msg']}; "
            f"{describe_params(cls)}"
        ) from None


def _split_mapping(spec: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    extra = sorted(set(spec) - {"bot", "params"})
    if extra:
        raise ConfigError(f"bot entry key {extra[0]!r} is not allowed; allowed keys: bot, params")
    text = spec.get("bot")
    if not isinstance(text, str):
        raise ConfigError(f"bot entry needs bot = 'name' (a string), got {text!r}")
    extra_params = spec.get("params") or {}
    if not isinstance(extra_params, Mapping):
        raise ConfigError(f"bot {text!r}: params must be a table, got {extra_params!r}")
    target, params = parse_bot_spec(text)
    clash = sorted(set(params) & set(extra_params))
    if clash:
        raise ConfigError(f"bot {text!r}: parameter {clash[0]!r} is given twice")
    return target, {**params, **extra_params}


def resolve_bot(spec: str | Mapping[str, Any], game: str) -> BotSpec:
    """Resolve a spec string or ``{"bot": ..., "params": {...}}`` for ``game``.

    Raises ``UnknownBotError`` for an unknown bot (listing the known ones for the game)
    or parameter (listing the bot's), ``ConfigError`` for a bad value or a bot that does
    not play ``game``.
    """
    target, given = parse_bot_spec(spec) if isinstance(spec, str) else _split_mapping(spec)
    if ":" in target:
        cls = _load_class(target)
    else:
        known = known_bots()
        if target not in known:
            names = [name for name, (c, _) in known.items() if c.plays(game)]
            listed = ", ".join(names) if names else "none"
            raise UnknownBotError(
                f"unknown bot {target!r}; known bots for {game}: {listed} "
                "(or give module.path:Class)"
            )
        cls = known[target][0]
    if not cls.games:
        raise ConfigError(
            f"bot {target!r} does not say which games it plays; give its class "
            'games = ("<game id>", ...), or ("*",) for a bot that plays any game'
        )
    if not cls.plays(game):
        raise ConfigError(
            f"bot {target!r} does not play {game!r}; it plays: {', '.join(cls.games)}"
        )
    params = _validate_params(target, cls, given)
    chosen = sorted(params.model_fields_set)
    label = target
    if chosen:
        label += ":" + ",".join(f"{key}={_format_value(getattr(params, key))}" for key in chosen)
    return BotSpec(label=label, name=target, cls=cls, params=params)
