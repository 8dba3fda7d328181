"""The built wheel works on its own: installed into a fresh environment outside the
checkout, its commands find everything they need at run time (the shipped configs, the
component files, the bots).

Fast on purpose: the wheel is built with this environment's setuptools and installed
without its dependencies; the fresh environment then sees this environment's installed
packages through a ``.pth`` file, added only after the install so that pip never sees
(nor touches) the editable cgsim here, which Python then leaves out: a ``.pth`` line
adds a folder to the path but does not run that folder's own ``.pth`` files. The wheel
is the pure-Python one (``CGSIM_PURE_PYTHON``): compiling the engines takes minutes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from cgsim.games.compiled import PURE_ENV

pytestmark = pytest.mark.packaging

ROOT = Path(__file__).resolve().parents[1]
LEFT_OUT = shutil.ignore_patterns(
    ".git",
    ".venv",
    "results",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    "*.so",
    "compiled.json",
)
"""Never copied for the build: history, environments, outputs, caches and compiled engines."""


def _run(args: list[str | Path], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        [str(arg) for arg in args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _install(base: Path, env: dict[str, str]) -> Path:
    """A fresh virtual environment in ``base`` with the wheel built from a copy of the
    checkout (so the build leaves nothing behind in it); returns the environment."""
    source, wheels, venv = base / "source", base / "wheels", base / "venv"
    shutil.copytree(ROOT, source, symlinks=True, ignore=LEFT_OUT)
    pip: list[str | Path] = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    build: list[str | Path] = [
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "--no-index",
        "-w",
        wheels,
        source,
    ]
    _run([*pip, *build], base, env)
    (wheel,) = wheels.glob("cgsim-*.whl")
    _run([sys.executable, "-m", "venv", "--without-pip", venv], base, env)
    python = venv / "bin" / "python"
    _run([*pip, "--python", python, "install", "--no-deps", "--no-index", wheel], base, env)
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], base, env)
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(site.strip()) / "dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    return venv


def test_the_wheel_runs_its_commands_outside_the_checkout(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env[PURE_ENV] = "1"  # the pure-Python wheel: compiling the engines takes minutes
    venv = _install(tmp_path, env).resolve()
    (wheel,) = (tmp_path / "wheels").glob("cgsim-*.whl")
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {"cgsim", "bots"} <= tops and "benchmarks" not in tops  # the lab stays out
    work = tmp_path / "work"
    work.mkdir()
    code = "import cgsim, bots; print(cgsim.__file__); print(bots.__file__)"
    for line in _run([venv / "bin" / "python", "-c", code], work, env).splitlines():
        assert Path(line).resolve().is_relative_to(venv), f"{line} is not the installed wheel"
    cgsim = venv / "bin" / "cgsim"
    assert "greedy" in _run([cgsim, "bots"], work, env)
    shipped = _run([cgsim, "validate"], work, env).splitlines()[-1]
    assert shipped.endswith("default.toml: valid")
    assert Path(shipped.removesuffix(": valid")).resolve().is_relative_to(venv)
    _run([cgsim, "run", "smoke", "--out", work / "results"], work, env)
    assert (work / "results" / "smoke" / "report.md").is_file()
    bench = _run([cgsim, "bench", "--games", "20", "--no-parallel"], work, env)
    assert "Bots: mean cost per real decision" in bench
