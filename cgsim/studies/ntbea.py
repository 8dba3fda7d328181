"""The N-Tuple Bandit Evolutionary Algorithm (NTBEA), batched: a search for noisy objectives.

NTBEA (Lucas, Liu and Perez-Liebana, 2018; the tuner of the TAG framework) searches a grid
of discrete values, one list per dimension, when every evaluation is a handful of games
and so mostly noise. It keeps a *model* rather than trusting any single evaluation: for
every N-tuple of dimensions (each single dimension, each pair, and the whole point) the
count and mean of the values seen with each combination of their values. A point's
*estimate* is the mean, over its tuples, of those means: a point seen once borrows
strength from every evaluation sharing one of its values.

Each round evaluates a batch of points (in parallel, on shared deals): the best point by
estimate so far is mutated into a neighbourhood (one dimension always changes, each
other with probability 1/dimensions), and the batch is the neighbours with the highest
upper confidence bound: the estimate plus, per tuple, ``exploration * spread *
sqrt(ln(1 + N) / (n + 0.5))`` (``N`` evaluations so far, ``n`` of that tuple's value
combination, ``spread`` the standard deviation of the evaluations, so the constant is in
units of noise). Points picked earlier in the same batch count as visits, so the batch
spreads out. Unseen combinations count at the overall mean. Round one is the start point
and random points. Everything random comes from ``random.Random(seed)``, and values are
taken in candidate order: the same seed and the same evaluations give the same search.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

Point = tuple[int, ...]
"""One index into each dimension's list of values."""
EvaluateRound = Callable[[int, Sequence[Point]], Sequence[float]]
"""Plays round ``r``'s points (all on the same deals) and returns one value per point."""

PRIOR_COUNT = 0.5
"""The ``+ 0.5`` of the exploration term: an unseen combination has a finite bonus."""


@dataclass(frozen=True, slots=True)
class NtbeaSettings:
    """How long and how widely to search."""

    rounds: int
    batch: int
    """Points evaluated per round."""
    neighbours: int = 50
    """Mutants of the best point considered per round."""
    exploration: float = 1.0
    """Weight of the confidence bonus, in standard deviations of one evaluation."""
    tuple_sizes: tuple[int, ...] = (1, 2)
    """Sizes of the N-tuples modelled besides the whole point."""
    seed: int = 1


def model_tuples(dimensions: int, sizes: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Every tuple of dimensions of the given sizes, then the whole point (no repeats)."""
    found: dict[tuple[int, ...], None] = {}
    for size in sorted(set(sizes)):
        if 1 <= size < dimensions:
            found.update(dict.fromkeys(itertools.combinations(range(dimensions), size)))
    found[tuple(range(dimensions))] = None
    return tuple(found)


@dataclass
class NTupleModel:
    """Counts and sums per value combination of each modelled tuple of dimensions."""

    tuples: tuple[tuple[int, ...], ...]
    stats: list[dict[tuple[int, ...], list[float]]] = field(init=False)
    count: int = 0
    total: float = 0.0
    squares: float = 0.0

    def __post_init__(self) -> None:
        self.stats = [{} for _ in self.tuples]

    def keys(self, point: Point) -> list[tuple[int, ...]]:
        """The value combination of ``point`` on each tuple."""
        return [tuple(point[d] for d in dims) for dims in self.tuples]

    def add(self, point: Point, value: float) -> None:
        """One evaluation of ``point``."""
        for table, key in zip(self.stats, self.keys(point), strict=True):
            entry = table.setdefault(key, [0.0, 0.0])
            entry[0] += 1.0
            entry[1] += value
        self.count += 1
        self.total += value
        self.squares += value * value

    @property
    def mean(self) -> float:
        """Mean of every evaluation (0 before the first)."""
        return self.total / self.count if self.count else 0.0

    @property
    def spread(self) -> float:
        """Standard deviation of the evaluations (1 before there are two)."""
        if self.count < 2:
            return 1.0
        variance = (self.squares - self.count * self.mean**2) / (self.count - 1)
        return math.sqrt(max(variance, 0.0))

    def estimate(self, point: Point) -> float:
        """The model's value of ``point``: the mean over its tuples of their means."""
        prior = self.mean
        values = []
        for table, key in zip(self.stats, self.keys(point), strict=True):
            entry = table.get(key)
            values.append(entry[1] / entry[0] if entry else prior)
        return math.fsum(values) / len(values)

    def upper_bound(
        self, point: Point, exploration: float, pending: dict[tuple[int, tuple[int, ...]], int]
    ) -> float:
        """The estimate plus the exploration bonus; ``pending`` counts visits of points
        already chosen for this round, per (tuple, combination)."""
        prior = self.mean
        scale = exploration * self.spread
        log_n = math.log(1.0 + self.count)
        values = []
        for index, (table, key) in enumerate(zip(self.stats, self.keys(point), strict=True)):
            entry = table.get(key)
            seen = entry[0] if entry else 0.0
            mean = entry[1] / entry[0] if entry else prior
            visits = seen + pending.get((index, key), 0)
            values.append(mean + scale * math.sqrt(log_n / (visits + PRIOR_COUNT)))
        return math.fsum(values) / len(values)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """One point played in one round, and what it scored there."""

    round: int
    point: Point
    value: float


@dataclass
class NtbeaResult:
    """Every evaluation in order, and the evaluated points ranked by the final model."""

    evaluations: list[Evaluation]
    ranked: list[tuple[Point, float]]
    """Distinct evaluated points, best estimate first (ties: first evaluated first)."""
    model: NTupleModel


def random_point(sizes: Sequence[int], rng: random.Random) -> Point:
    """A uniformly random point of the grid."""
    return tuple(rng.randrange(size) for size in sizes)


def mutate(point: Point, sizes: Sequence[int], rng: random.Random) -> Point:
    """A neighbour: one mutable dimension always changes, each other with probability
    1/dimensions, each to another of its values drawn uniformly."""
    mutable = [d for d, size in enumerate(sizes) if size > 1]
    if not mutable:
        return point
    forced = rng.choice(mutable)
    rate = 1.0 / len(sizes)
    values = list(point)
    for d in mutable:
        if d == forced or rng.random() < rate:
            other = rng.randrange(sizes[d] - 1)
            values[d] = other if other < point[d] else other + 1
    return tuple(values)


def first_round(
    sizes: Sequence[int], start: Point | None, batch: int, rng: random.Random
) -> list[Point]:
    """The start point (when given) and random points, all distinct, ``batch`` at most."""
    grid = math.prod(sizes)
    points: dict[Point, None] = {} if start is None else {start: None}
    tries = 0
    while len(points) < min(batch, grid) and tries < 100 * batch:
        points.setdefault(random_point(sizes, rng))
        tries += 1
    return list(points)


def next_round(
    model: NTupleModel,
    incumbent: Point,
    sizes: Sequence[int],
    settings: NtbeaSettings,
    rng: random.Random,
) -> list[Point]:
    """The batch of a later round: the neighbours of the incumbent with the highest upper
    bounds, each chosen one counting as a visit for the next choice."""
    neighbourhood = list(
        dict.fromkeys(mutate(incumbent, sizes, rng) for _ in range(settings.neighbours))
    )
    chosen: list[Point] = []
    pending: dict[tuple[int, tuple[int, ...]], int] = {}
    while neighbourhood and len(chosen) < settings.batch:
        bounds = [model.upper_bound(p, settings.exploration, pending) for p in neighbourhood]
        best = max(range(len(neighbourhood)), key=lambda i: (bounds[i], -i))
        point = neighbourhood.pop(best)
        chosen.append(point)
        for index, key in enumerate(model.keys(point)):
            pending[(index, key)] = pending.get((index, key), 0) + 1
    return chosen


def ranked_points(
    model: NTupleModel, evaluations: Sequence[Evaluation]
) -> list[tuple[Point, float]]:
    """Distinct evaluated points by estimate, best first (ties: first evaluated first)."""
    points = list(dict.fromkeys(e.point for e in evaluations))
    scored = [(p, model.estimate(p)) for p in points]
    order = sorted(range(len(scored)), key=lambda i: (-scored[i][1], i))
    return [scored[i] for i in order]


def ntbea(
    sizes: Sequence[int],
    evaluate: EvaluateRound,
    settings: NtbeaSettings,
    *,
    start: Point | None = None,
    echo: Callable[[int, NtbeaResult], object] = lambda _r, _s: None,
) -> NtbeaResult:
    """Search the grid of ``sizes`` values per dimension for the point of highest value.

    ``echo(round, result so far)`` hears the state after every round.
    """
    if not sizes or min(sizes) < 1:
        raise ValueError("every dimension needs at least one value")
    rng = random.Random(settings.seed)
    model = NTupleModel(model_tuples(len(sizes), settings.tuple_sizes))
    evaluations: list[Evaluation] = []
    for round_index in range(settings.rounds):
        if round_index == 0:
            points = first_round(sizes, start, settings.batch, rng)
        else:
            incumbent = ranked_points(model, evaluations)[0][0]
            points = next_round(model, incumbent, sizes, settings, rng)
        if not points:
            break
        values = evaluate(round_index, points)
        for point, value in zip(points, values, strict=True):
            model.add(point, value)
            evaluations.append(Evaluation(round_index, point, value))
        echo(round_index, NtbeaResult(evaluations, ranked_points(model, evaluations), model))
    return NtbeaResult(evaluations, ranked_points(model, evaluations), model)
