"""The one results reader: a damaged, foreign or hand-edited results directory fed to any
command that reads it (report, balance, compare, regress, the resume of run) is one line
on stderr naming the file and what to do, exit code 2, never a traceback; and resuming
treats the same folder as the same run however it is named."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import toygame
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from cgsim.api import load_results
from cgsim.cli import main
from cgsim.play.config import load_config
from cgsim.play.results import ResultsError, open_results
from cgsim.play.runner import run_games
from cgsim.play.schedules import plan_for
from cgsim.play.storage import ResultsStore
from cgsim.reporting.report import build_report
from cgsim.studies.golden import default_games, record_golden

toygame.register()

GAMES, CHUNK = 12, 4
"""The run every test damages: three chunks of four games."""

Corruption = Callable[[Path], object]


def write_config(folder: Path, **fields: Any) -> Path:
    values = {
        "name": "trial",
        "game": "toy",
        "players": 2,
        "games": GAMES,
        "chunk_size": CHUNK,
        "seed": 3,
        "workers": 1,
        "out": str(folder / "out"),
    } | fields
    lines = [f"{key} = {json.dumps(value)}" for key, value in values.items()]
    seats = json.dumps([toygame.target(toygame.Greedy), toygame.target(toygame.Wanderer)])
    path = folder / "trial.toml"
    path.write_text("\n".join([*lines, f"seats = {seats}", ""]), encoding="utf-8")
    return path


def play(config: Path, **options: Any) -> Path:
    loaded = load_config(config)
    result = run_games(loaded, plan_for(loaded, "run"), progress=False, **options)
    return result.results_dir


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A complete toy run (games, seats and the toy's own ``moves`` table)."""
    folder = tmp_path_factory.mktemp("pristine")
    return play(write_config(folder))


@pytest.fixture
def damaged(pristine: Path, tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    """A copy of the pristine run and its config, to damage: (config, results dir)."""
    config = write_config(tmp_path)
    results = tmp_path / "out" / "trial"
    shutil.copytree(pristine, results)
    yield config, results


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Golden games one of which changed, so ``regress`` goes on to read the baseline run."""
    folder = tmp_path_factory.mktemp("golden")
    record_golden(folder, default_games(1, ["random"])[:1])
    path = folder / "golden.jsonl"
    digest = json.loads(path.read_text().splitlines()[0])
    path.write_text(json.dumps(digest | {"hash": "0" * 64}) + "\n")
    return folder


# ---------------------------------------------------------------- ways to damage a run


def chunk(results: Path, table: str, index: int) -> Path:
    return results / f"{table}.parquet" / f"chunk-{index:06d}.parquet"


def truncate(table: str, index: int) -> Corruption:
    def apply(results: Path) -> None:
        path = chunk(results, table, index)
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])

    return apply


def scribble_footer(results: Path) -> None:
    path = chunk(results, "seats", 0)
    data = bytearray(path.read_bytes())
    data[-8:] = b"garbage!"
    path.write_bytes(bytes(data))


def rewrite(table: str, index: int, change: Callable[[pl.DataFrame], pl.DataFrame]) -> Corruption:
    def apply(results: Path) -> None:
        path = chunk(results, table, index)
        change(pl.read_parquet(path)).write_parquet(path)

    return apply


def copy_chunk(
    source: int, target: int, tables: tuple[str, ...] = ("seats", "games")
) -> Corruption:
    def apply(results: Path) -> None:
        for table in tables:
            shutil.copyfile(chunk(results, table, source), chunk(results, table, target))

    return apply


def edit_manifest(change: Callable[[dict[str, Any]], Any]) -> Corruption:
    def apply(results: Path) -> None:
        path = results / "manifest.json"
        path.write_text(json.dumps(change(json.loads(path.read_text()))))

    return apply


def without(key: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda data: {k: v for k, v in data.items() if k != key}


def write_text(name: str, text: str) -> Corruption:
    return lambda results: (results / name).write_text(text)


CORRUPTIONS: dict[str, Corruption] = {
    "truncated games chunk": truncate("games", 1),
    "truncated seats chunk": truncate("seats", 2),
    "scribbled footer": scribble_footer,
    "not parquet at all": lambda r: chunk(r, "games", 2).write_bytes(b"PAR1 but nothing else"),
    "empty chunk file": lambda r: chunk(r, "moves", 0).write_bytes(b""),
    "retyped column": rewrite("games", 1, lambda f: f.with_columns(pl.col("turns").cast(float))),
    "dropped column": rewrite("seats", 0, lambda f: f.drop("score")),
    "added column": rewrite("games", 0, lambda f: f.with_columns(extra=pl.lit(1))),
    "reordered columns": rewrite("seats", 1, lambda f: f.select(reversed(f.columns))),
    "duplicated chunk, new number": copy_chunk(1, 3),
    "duplicated chunk over another": copy_chunk(0, 2),
    "repeated games": rewrite("games", 0, lambda f: pl.concat([f.head(2), f.head(2)])),
    "missing games": rewrite("games", 2, lambda f: f.head(1)),
    "misnamed chunk": lambda r: shutil.copyfile(
        chunk(r, "games", 0), r / "games.parquet" / "chunk-copy.parquet"
    ),
    "chunk under two names": lambda r: shutil.copyfile(
        chunk(r, "seats", 1), r / "seats.parquet" / "chunk-0000001.parquet"
    ),
    "seats chunk deleted": lambda r: chunk(r, "seats", 1).unlink(),
    "rows of another game": rewrite("games", 0, lambda f: f.with_columns(game=pl.lit("chess"))),
    "empty manifest": write_text("manifest.json", "{}"),
    "manifest not JSON": write_text("manifest.json", '{"name": "trial", "run_'),
    "manifest a list": write_text("manifest.json", "[1, 2]"),
    "manifest without run_seed": edit_manifest(without("run_seed")),
    "manifest without engine": edit_manifest(without("engine_version")),
    "manifest with a blank engine": edit_manifest(lambda d: d | {"engine_version": ""}),
    "manifest with a text count": edit_manifest(lambda d: d | {"games_planned": "12"}),
    "manifest with a float seed": edit_manifest(lambda d: d | {"run_seed": 3.5}),
    "manifest of an unknown game": edit_manifest(lambda d: d | {"game": "chess"}),
    "manifest of another game": edit_manifest(lambda d: d | {"game": "kitchen-garden"}),
    "manifest of another engine": edit_manifest(lambda d: d | {"engine_version": "toy-0"}),
    "manifest with more done than planned": edit_manifest(lambda d: d | {"games_done": 99}),
    "manifest with chunks of 0": edit_manifest(lambda d: d | {"chunk_size": 0}),
    "manifest with smaller chunks": edit_manifest(lambda d: d | {"chunk_size": 3}),
    "manifest with a malformed schema": edit_manifest(
        lambda d: d | {"schema": {"games": [{"name": "x", "type": "complex"}]}}
    ),
}


def command_line(
    command: str, config: Path, results: Path, pristine: Path, golden: Path
) -> list[str]:
    out = str(results.parent / "elsewhere")
    return {
        "report": ["report", str(results)],
        "balance": ["balance", str(results), "--out", out],
        "compare": ["compare", str(pristine), str(results), "--out", out],
        "regress": ["regress", str(golden), "--results", str(results), "--metric", "mean_score:1"],
        "run": ["run", str(config), "--no-report"],
    }[command]


def run_main(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    monkeypatch.setattr("sys.argv", ["cgsim", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    return int(exit_info.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize("command", ["report", "balance", "compare", "regress", "run"])
@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_damaged_run_is_one_line_and_exit_2_for_every_reader(
    corruption: str,
    command: str,
    damaged: tuple[Path, Path],
    pristine: Path,
    golden: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config, results = damaged
    CORRUPTIONS[corruption](results)
    args = command_line(command, config, results, pristine, golden)
    code, err = run_main(args, monkeypatch, capsys)
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert str(results) in err, err
    assert "Traceback" not in err


# ---------------------------------------------------------------- what the line says


def reading_error(results: Path) -> str:
    with pytest.raises(ResultsError) as raised:
        open_results(results).load()
    return str(raised.value)


def test_the_report_of_a_run_with_a_corrupt_chunk_names_it(damaged: tuple[Path, Path]) -> None:
    _, results = damaged
    truncate("games", 1)(results)
    with pytest.raises(ResultsError) as raised:
        build_report(results)
    assert str(raised.value) == (
        f"{chunk(results, 'games', 1)}: not a readable Parquet file (truncated or corrupt: "
        "parquet: File out of specification: The file must end with PAR1 or PARE); delete it, "
        "then run the same command again to play those games again (or with --fresh to start "
        "over)"
    )


def test_a_damaged_chunk_of_another_table_names_the_games_chunk_to_delete_too(
    damaged: tuple[Path, Path],
) -> None:
    _, results = damaged
    scribble_footer(results)
    assert "delete it and games.parquet/chunk-000000.parquet, then run" in reading_error(results)


def test_a_schema_change_says_which_column(damaged: tuple[Path, Path]) -> None:
    _, results = damaged
    CORRUPTIONS["retyped column"](results)
    assert "its columns are not this run's (turns is Float64, expected Int64)" in reading_error(
        results
    )


def test_a_run_without_a_stamped_schema_is_checked_against_its_first_chunk(
    damaged: tuple[Path, Path], pristine: Path
) -> None:
    _, results = damaged
    edit_manifest(without("schema"))(results)
    assert open_results(results).load()["games"].height == GAMES
    CORRUPTIONS["retyped column"](results)
    assert "(turns is Float64, expected Int64)" in reading_error(results)
    shutil.copyfile(chunk(pristine, "games", 1), chunk(results, "games", 1))
    CORRUPTIONS["dropped column"](results)
    assert "its columns are not a results table's (missing column score)" in reading_error(results)


def test_a_chunk_copied_under_a_new_number_is_not_counted(damaged: tuple[Path, Path]) -> None:
    _, results = damaged
    copy_chunk(1, 3)(results)
    assert reading_error(results) == (
        f"{chunk(results, 'games', 3)}: chunk 3 is beyond this run's last one (12 planned "
        "games in chunks of 4 make 3 chunks); it is not part of this run: delete it"
    )
    chunk(results, "games", 3).unlink()
    chunk(results, "seats", 3).unlink()
    copy_chunk(0, 2, ("games",))(results)
    assert "holds game ids 0..3, but chunk 2 holds games 8..11" in reading_error(results)


def test_an_empty_manifest_lists_the_missing_keys(damaged: tuple[Path, Path]) -> None:
    _, results = damaged
    (results / "manifest.json").write_text("{}")
    assert reading_error(results) == (
        f"{results / 'manifest.json'}: missing keys name, command, game, engine_version, "
        "config, run_seed, chunk_size, games_planned, games_done; restore it, or run the same "
        "command with --fresh to start over"
    )


def test_a_manifest_edited_to_another_game_disagrees_with_its_rows(
    damaged: tuple[Path, Path],
) -> None:
    _, results = damaged
    edit_manifest(
        lambda d: d | {"game": "kitchen-garden", "config": d["config"] | {"game": "kitchen-garden"}}
    )(results)
    assert reading_error(results) == (
        f"{chunk(results, 'games', 0)}: holds games with game 'toy', but manifest.json says "
        "'kitchen-garden': one of them was changed; restore manifest.json, or run the same "
        "command with --fresh to start over"
    )


def damage_a_data_page(path: Path) -> None:
    """Flip one byte inside the file so that its footer and schema still read but its data
    does not (the first such byte, so the test is deterministic)."""
    original = path.read_bytes()
    for position in range(4, len(original) - 8):
        data = bytearray(original)
        data[position] ^= 0xFF
        path.write_bytes(bytes(data))
        try:
            pl.read_parquet_schema(path)
        except pl.exceptions.PolarsError:
            continue
        try:
            pl.read_parquet(path)
        except pl.exceptions.ComputeError:
            return
    raise AssertionError("no byte whose change only the data pages reveal")


def test_a_chunk_damaged_inside_its_data_is_named_when_read(damaged: tuple[Path, Path]) -> None:
    _, results = damaged
    path = chunk(results, "seats", 1)
    damage_a_data_page(path)
    message = reading_error(results)
    assert message.startswith(f"{path}: not a readable Parquet file (damaged: ")
    with pytest.raises(ResultsError, match=r"chunk-000001\.parquet: not a readable"):
        build_report(results)


def test_a_failing_read_of_sound_chunks_is_not_blamed_on_them(pristine: Path) -> None:
    results = open_results(pristine)
    with pytest.raises(pl.exceptions.ColumnNotFoundError), results.reading():
        results.scan("games").select("no_such_column").collect()


def test_a_changed_directory_is_checked_again(damaged: tuple[Path, Path]) -> None:
    _, results = damaged
    assert open_results(results).done_chunks() == {0, 1, 2}
    assert open_results(results) is open_results(results)
    truncate("seats", 0)(results)
    assert "chunk-000000.parquet: not a readable Parquet file" in reading_error(results)


def test_the_api_reads_through_the_same_checks(damaged: tuple[Path, Path]) -> None:
    _, results = damaged
    assert load_results(results)["games"].height == GAMES
    CORRUPTIONS["empty manifest"](results)
    with pytest.raises(ResultsError, match="missing keys"):
        load_results(results)


def test_other_tables_of_an_unfinished_chunk_are_not_read(damaged: tuple[Path, Path]) -> None:
    _, results = damaged
    chunk(results, "games", 2).unlink()
    tables = open_results(results).load()
    assert tables["games"]["game_id"].max() == 7
    assert tables["seats"]["game_id"].max() == 7
    assert tables["moves"]["game_id"].is_between(0, 7).all()


# ---------------------------------------------------------------- resuming


def test_the_same_folder_named_relatively_then_absolutely_is_the_same_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    config = write_config(tmp_path, out="runs")
    first = load_config(config)
    assert not first.out.is_absolute()
    played = run_games(first, plan_for(first, "run"), progress=False)
    again = load_config(config, {"out": tmp_path / "runs"})
    resumed = run_games(again, plan_for(again, "run"), progress=False)
    assert (played.games_played, resumed.games_played) == (GAMES, 0)
    monkeypatch.chdir(tmp_path / "runs")
    elsewhere = load_config(config, {"out": Path(".")})
    assert run_games(elsewhere, plan_for(elsewhere, "run"), progress=False).games_played == 0


def test_re_running_a_finished_run_keeps_its_start_and_timings(damaged: tuple[Path, Path]) -> None:
    config, results = damaged
    before = json.loads((results / "manifest.json").read_text())
    assert before["timings"]["wall_seconds"] > 0
    play(config)
    after = json.loads((results / "manifest.json").read_text())
    for key in ("started", "finished", "timings", "games_done", "status"):
        assert after[key] == before[key], key


def test_resuming_after_deleting_the_named_chunks_plays_them_again(
    damaged: tuple[Path, Path], pristine: Path
) -> None:
    config, results = damaged
    before = json.loads((results / "manifest.json").read_text())
    for table in ("games", "seats", "moves"):
        chunk(results, table, 1).unlink(missing_ok=True)
    play(config)
    resumed, whole = open_results(results).load(), open_results(pristine).load()
    for name, frame in whole.items():
        assert (
            resumed[name]
            .drop("wall_time", strict=False)
            .equals(frame.drop("wall_time", strict=False))
        ), name
    timings = json.loads((results / "manifest.json").read_text())["timings"]
    assert timings["games_played"] == before["timings"]["games_played"] + CHUNK
    assert timings["wall_seconds"] > before["timings"]["wall_seconds"]


def test_a_damaged_partial_chunk_is_named_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write_config(tmp_path)
    original = ResultsStore.write_chunk
    written: list[int] = []

    def write_then_stop(self: ResultsStore, index: int, *args: Any, **kwargs: Any) -> None:
        if len(written) == 1:
            raise KeyboardInterrupt
        written.append(index)
        original(self, index, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(ResultsStore, "write_chunk", write_then_stop)
        results = play(config)
    partial = results / "partial" / "chunk-000001"
    (partial / "games.parquet").write_bytes(b"not parquet")
    with pytest.raises(ResultsError) as raised:
        play(config)
    assert str(raised.value).startswith(f"{partial}: a damaged partial chunk (")
    assert str(raised.value).endswith(
        "delete it, then run the same command again to play its games again"
    )
    shutil.rmtree(partial)
    assert open_results(play(config)).load()["games"].height == GAMES


# ---------------------------------------------------------------- random damage

settings.register_profile(
    "results-quick",
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "results-fuzz",
    max_examples=3000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
FUZZ_PROFILE = "results-fuzz" if os.environ.get("HYPOTHESIS_PROFILE") == "fuzz" else "results-quick"
"""A few seconds of random damage in ``make test``; thousands of cases with
``HYPOTHESIS_PROFILE=fuzz`` (``pytest -m fuzz``)."""

MANIFEST_KEYS = (
    "name",
    "command",
    "game",
    "engine_version",
    "config",
    "run_seed",
    "chunk_size",
    "games_planned",
    "games_done",
    "status",
    "timings",
    "schema",
    "started",
    "finished",
)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 40)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
CHUNK_DAMAGE = st.one_of(
    st.tuples(st.just("truncate"), st.floats(0, 1)),
    st.tuples(st.just("flip"), st.floats(0, 1), st.integers(1, 255)),
    st.tuples(st.just("replace"), st.binary(max_size=64)),
    st.tuples(st.just("copy"), st.integers(0, 4)),
    st.tuples(
        st.just("rename"),
        st.from_regex(
            r"chunk-\d{1,8}\.parquet|chunk-[a-z0-9]{1,6}\.parquet|[a-z]{1,8}", fullmatch=True
        ),
    ),
    st.tuples(st.just("delete")),
    st.tuples(st.just("retype"), st.integers(0, 20)),
    st.tuples(st.just("drop"), st.integers(0, 20)),
)
MANIFEST_DAMAGE = st.one_of(
    st.tuples(st.just("remove"), st.sampled_from(MANIFEST_KEYS)),
    st.tuples(st.just("set"), st.sampled_from(MANIFEST_KEYS) | st.text(max_size=6), JSON),
    st.tuples(st.just("whole"), JSON),
    st.tuples(st.just("cut"), st.floats(0, 1)),
)
DAMAGE = st.one_of(
    st.tuples(st.just("chunk"), st.integers(0, 100), CHUNK_DAMAGE),
    st.tuples(st.just("manifest"), MANIFEST_DAMAGE),
)


REFUSALS = (
    "not a readable Parquet file (damaged",
    "not a readable Parquet file (truncated",
    "columns are not",
    "is beyond this run",
    "holds game ids",
    "distinct game ids",
    "holds games with",
    "holds no games",
    "missing although",
    "not a chunk file name",
    "cannot read",
    "JSON object",
    "missing key",
    "not a known game",
)
"""The kinds of refusal, to see in ``--hypothesis-show-statistics`` that each is reached."""


def damage_chunk(path: Path, how: tuple[Any, ...]) -> None:
    kind, *args = how
    data = path.read_bytes()
    if kind == "truncate":
        path.write_bytes(data[: int(len(data) * args[0])])
    elif kind == "flip" and data:
        position = min(int(len(data) * args[0]), len(data) - 1)
        path.write_bytes(data[:position] + bytes([data[position] ^ args[1]]) + data[position + 1 :])
    elif kind == "replace":
        path.write_bytes(args[0])
    elif kind == "copy":
        target = path.with_name(f"chunk-{args[0]:06d}.parquet")
        if target != path:
            shutil.copyfile(path, target)
    elif kind == "rename":
        path.rename(path.with_name(args[0]))
    elif kind == "delete":
        path.unlink()
    elif kind in ("retype", "drop"):
        try:  # a chunk already damaged beyond reading keeps that damage
            frame = pl.read_parquet(path)
            column = frame.columns[args[0] % frame.width]
            if kind == "retype":
                frame = frame.with_columns(pl.col(column).cast(pl.String))
            else:
                frame = frame.drop(column)
        except pl.exceptions.PolarsError:
            return
        frame.write_parquet(path)


def damage_manifest(path: Path, how: tuple[Any, ...]) -> None:
    kind, *args = how
    text = path.read_text()
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if kind in ("remove", "set") and not isinstance(data, dict):
        return  # nothing to edit in a manifest already broken
    if kind == "remove":
        data.pop(args[0], None)
    elif kind == "set":
        data[args[0]] = args[1]
    elif kind == "whole":
        data = args[0]
    else:
        path.write_text(text[: int(len(text) * args[0])])
        return
    path.write_text(json.dumps(data))


def apply_damage(results: Path, damage: tuple[Any, ...]) -> None:
    if damage[0] == "manifest":
        if (results / "manifest.json").is_file():
            damage_manifest(results / "manifest.json", damage[1])
        return
    files = sorted(results.glob("*.parquet/*"))
    if files:
        damage_chunk(files[damage[1] % len(files)], damage[2])


@pytest.mark.fuzz
@settings(settings.get_profile(FUZZ_PROFILE))
@given(damages=st.lists(DAMAGE, min_size=1, max_size=3))
@example(damages=[("chunk", 3, ("flip", 0.6832256125246686, 64))])  # fails only under a filter
def test_random_damage_is_read_or_refused_in_one_line(
    pristine: Path, damages: list[tuple[Any, ...]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        results = Path(folder) / "trial"
        shutil.copytree(pristine, results)
        for damage in damages:
            apply_damage(results, damage)
        try:
            checked = open_results(results)
            tables = checked.load()
            report = build_report(results, n_bootstrap=0)
        except ResultsError as error:
            message = str(error)
            assert "\n" not in message and str(results) in message, message
            event(next((kind for kind in REFUSALS if kind in message), "a manifest value"))
            return
        event("read")
        games = tables["games"]["game_id"]
        assert games.is_unique().all() and games.is_between(0, GAMES - 1).all()
        assert set(tables["seats"]["game_id"]) <= set(games)
        assert report.overview
