"""A seal on what bots must not change in a worker: the rules, the game, the engine's code.

In-process bots receive the engine's own objects, and "frozen" objects are frozen only
to polite code: ``object.__setattr__`` rewrites a rule setting or swaps a cache, and
every later game of that worker would silently play by other rules. A :class:`Seal`
remembers every object reachable from the game and its rules and what each one refers
to (by identity, never by value, so checking is a pass of C-level comparisons), the
functions of the engine's modules and classes, and the entries of the engine's memo
caches (dataclass fields named ``*cache*``, excluded from comparison, holding a dict:
entries may be added or the cache cleared, an existing entry may not change). ``broken()`` names the first
thing changed since the seal was made.

This catches tampering, not a determined attacker (who can also patch this module): bots
from untrusted authors belong in isolation mode (``cgsim.play.isolation``).
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import itertools
import operator
import sys
import types
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

ATOMIC: frozenset[type] = frozenset({int, float, complex, str, bytes, bool, type(None)})
OPAQUE = (
    type,
    types.ModuleType,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodType,
    types.CodeType,
)
"""Objects the walk does not enter (code and classes are sealed through their modules)."""
CODE = (types.FunctionType, classmethod, staticmethod, property)
"""Class attributes sealed: the behaviour, not the class-level data."""
MAX_OBJECTS = 200_000
"""Objects sealed at most (the walk stops descending beyond; it is a bound on cost)."""
SEALED_PACKAGES = ("cgsim.games", "cgsim.play")
"""The engine's and the match loop's modules: their code is sealed too."""
SEALED_DATA = ("cgsim.games",)
"""The engine's modules: their module-level tables (dicts, lists and sets: dispatch
tables, ranges) are sealed too, a dict's entries like a cache's (added, never changed or
removed). Other module-level objects are left alone: memos of the last call live there."""
_MISSING = object()


@functools.cache
def _memo_fields(cls: type) -> tuple[str, ...]:
    """The memo caches of a dataclass: fields named ``*cache*`` excluded from comparison."""
    if not dataclasses.is_dataclass(cls):
        return ()
    return tuple(f.name for f in dataclasses.fields(cls) if not f.compare and "cache" in f.name)


@functools.cache
def _slot_names(cls: type) -> tuple[str, ...]:
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        slots = klass.__dict__.get("__slots__", ())
        names.extend([slots] if isinstance(slots, str) else slots)
        # A class compiled with mypyc keeps its attributes in C fields it names here.
        names.extend(klass.__dict__.get("__mypyc_attrs__", ()))
    return tuple(name for name in names if name not in ("__dict__", "__weakref__"))


def _attributes(obj: Any) -> Iterator[tuple[str, Any]]:
    """An object's named attributes (slots, then its ``__dict__``)."""
    kind: type = type(obj)
    for name in _slot_names(kind):
        try:
            yield name, object.__getattribute__(obj, name)
        except AttributeError:
            continue
    attrs = getattr(obj, "__dict__", None)
    if isinstance(attrs, dict):
        yield from attrs.items()


def _same(now: Iterable[Any], then: tuple[Any, ...]) -> bool:
    now = tuple(now)
    return len(now) == len(then) and all(map(operator.is_, now, then))


@dataclass(slots=True)
class _Cache:
    """A memo cache: a dict whose entries may be added or (if ``clearable``) cleared,
    never changed."""

    path: str
    data: dict[Any, Any]
    keys: list[Any] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)
    clearable: bool = True

    def remember(self) -> None:
        """Take in the entries added since (all of them after a clear)."""
        count = len(self.keys)
        if len(self.data) < count:
            self.keys, self.values = list(self.data), list(self.data.values())
        elif len(self.data) > count:
            self.keys.extend(itertools.islice(self.data, count, None))
            self.values.extend(itertools.islice(self.data.values(), count, None))

    def intact(self) -> bool:
        """Whether the remembered entries are still the first ones, in order (``map``
        stops at the end of the shorter: new entries are not compared)."""
        if len(self.data) < len(self.keys):  # cleared (and maybe refilled)
            return self.clearable
        return all(map(operator.is_, self.data, self.keys)) and all(
            map(operator.is_, self.data.values(), self.values)
        )


@dataclass(slots=True)
class _Namespace:
    """A module's or a class's names: the sealed ones keep their objects (new names are
    allowed: importing a submodule adds one to its package)."""

    path: str
    data: Any
    keys: tuple[str, ...]
    values: tuple[Any, ...]

    def intact(self) -> bool:
        found = map(self.data.get, self.keys, itertools.repeat(_MISSING))
        return all(map(operator.is_, found, self.values))

    def changed(self) -> str:
        """The first sealed name whose object changed (``module.name``)."""
        for key, value in zip(self.keys, self.values, strict=True):
            if self.data.get(key, _MISSING) is not value:
                return f"{self.path}.{key}"
        return self.path


@dataclass
class Seal:
    """What bots must leave alone, remembered now; :meth:`broken` checks it."""

    objects: list[tuple[Any, tuple[Any, ...], str]] = field(default_factory=list)
    caches: list[_Cache] = field(default_factory=list)
    namespaces: list[_Namespace] = field(default_factory=list)
    sealed: tuple[Any, ...] = ()
    """The objects of ``objects``, for one ``gc.get_referents`` call over all of them."""
    referents: tuple[Any, ...] = ()
    """What they all referred to, in order."""

    @classmethod
    def of(
        cls, roots: dict[str, Any], modules: Iterable[str] = (), data: Iterable[str] = ()
    ) -> Seal:
        """Seal the objects reachable from ``roots`` (named for messages), the code of
        the loaded modules ``modules`` (names) and of every module under them, and the
        module-level data of the modules ``data`` and those under them."""
        seal = cls()
        seal._walk(roots)
        for name in sorted(_loaded_modules(data)):
            seal._seal_tables(sys.modules[name])
        for name in sorted(_loaded_modules(modules)):
            seal._seal_module(sys.modules[name])
        seal.sealed = tuple(obj for obj, _, _ in seal.objects)
        seal.referents = tuple(ref for _, refs, _ in seal.objects for ref in refs)
        return seal

    def _walk(self, roots: dict[str, Any]) -> None:
        seen: set[int] = set()
        stack = [(value, name) for name, value in reversed(roots.items())]
        while stack and len(seen) < MAX_OBJECTS:
            obj, path = stack.pop()
            kind: type = type(obj)
            if kind in ATOMIC or isinstance(obj, OPAQUE) or id(obj) in seen:
                continue
            seen.add(id(obj))
            children: Iterable[tuple[Any, str]]
            if kind is tuple or kind is frozenset:  # immutable: only their items can change
                children = ((item, f"{path}[{i}]") for i, item in enumerate(obj))
            elif isinstance(obj, dict):
                self.objects.append((obj, tuple(gc.get_referents(obj)), path))
                children = ((value, f"{path}[{key!r}]") for key, value in obj.items())
            elif isinstance(obj, list | set):
                self.objects.append((obj, tuple(gc.get_referents(obj)), path))
                children = ((item, f"{path}[{i}]") for i, item in enumerate(obj))
            else:
                attributes = list(_attributes(obj))  # first: this makes a lazy __dict__ real
                self.objects.append((obj, tuple(gc.get_referents(obj)), path))
                attrs = getattr(obj, "__dict__", None)
                if isinstance(attrs, dict):  # an attribute added shows here
                    self.objects.append((attrs, tuple(gc.get_referents(attrs)), path))
                memo = _memo_fields(kind)
                for name in memo:
                    value = getattr(obj, name, None)
                    if isinstance(value, dict):
                        cache = _Cache(f"{path}.{name}", value)
                        cache.remember()
                        self.caches.append(cache)
                        seen.add(id(value))
                named = [
                    (value, f"{path}.{name}")
                    for name, value in attributes
                    if not (name in memo and id(value) in seen)
                ]
                children = named or (  # a C object (a mapping proxy, say): its referents
                    (value, f"{path}/{type(value).__name__}") for value in gc.get_referents(obj)
                )
            stack.extend(reversed(list(children)))

    def _seal_tables(self, module: types.ModuleType) -> None:
        """A module's tables, shallowly: their entries keep their objects."""
        for name, value in vars(module).items():
            path = f"{module.__name__}.{name}"
            if name.startswith("__"):  # the module's own machinery (its builtins)
                continue
            if type(value) is dict:
                table = _Cache(path, value, clearable=False)
                table.remember()
                self.caches.append(table)
            elif type(value) in (list, set):
                self.objects.append((value, tuple(gc.get_referents(value)), path))

    def _seal_module(self, module: types.ModuleType) -> None:
        names = vars(module)
        self.namespaces.append(
            _Namespace(f"{module.__name__}", names, tuple(names), tuple(names.values()))
        )
        for value in list(names.values()):
            if isinstance(value, type) and value.__module__ == module.__name__:
                attrs = vars(value)
                code = [key for key, item in attrs.items() if isinstance(item, CODE)]
                self.namespaces.append(
                    _Namespace(
                        f"{module.__name__}.{value.__qualname__}",
                        attrs,
                        tuple(code),
                        tuple(attrs[key] for key in code),
                    )
                )

    def broken(self) -> str | None:
        """What changed since the seal was made (a path such as ``rules.settings``), or
        None. Caches that passed remember their new entries."""
        try:
            if not _same(gc.get_referents(*self.sealed), self.referents):  # one C call
                for obj, refs, path in self.objects:
                    if not _same(gc.get_referents(obj), refs):
                        return path
            for namespace in self.namespaces:
                if not namespace.intact():
                    return namespace.changed()
            for cache in self.caches:
                if not cache.intact():
                    return cache.path
            for cache in self.caches:
                cache.remember()
        except Exception as error:  # the sealed objects were broken badly enough to fail
            return f"the seal itself ({type(error).__name__})"
        return None


def _loaded_modules(prefixes: Iterable[str]) -> set[str]:
    found: set[str] = set()
    for prefix in prefixes:
        found.update(
            name
            for name, module in list(sys.modules.items())
            if module is not None and (name == prefix or name.startswith(prefix + "."))
        )
    return found
