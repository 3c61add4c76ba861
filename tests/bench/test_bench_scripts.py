"""The benches stay runnable: every script in bench/ is run by bench.run_all and has a smoke mode, and the
scripts run as modules of the bench package (never with bench/ on sys.path, where bench/consolidation.py
stood in for the consolidation app). No database here: `make test` ends with the smoke run itself
(`python -m bench.run_all --smoke`, on the suite's throw-away services)."""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from bench import run_all

BASE_DIR = Path(__file__).resolve().parents[2]
BENCH_DIR = BASE_DIR / "bench"
HELPERS = ("_", "run_")  # bench/_harness.py, bench/_seed.py, bench/run_all.py, bench/__init__.py


def _modules() -> set[str]:
    return {path.stem for path in BENCH_DIR.glob("*.py") if not path.name.startswith(HELPERS)}


def test_every_bench_script_is_run_by_run_all():
    assert _modules() == set(run_all.SCRIPTS) | set(run_all.NOT_SCRIPTS)
    assert not set(run_all.SCRIPTS) & set(run_all.NOT_SCRIPTS)


@pytest.mark.parametrize("name", run_all.SCRIPTS)
def test_every_bench_script_has_a_smoke_mode(name):
    assert run_all.supports_smoke(name), f"bench.{name}.main takes no `smoke`"
    # Its command line takes --smoke (bench._harness.run), run as bench.run_all runs it: a module, from the root.
    shown = subprocess.run([sys.executable, "-m", f"bench.{name}", "--help"], cwd=BASE_DIR, capture_output=True,
                           text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert "--smoke" in shown.stdout


def test_the_docs_run_benches_as_modules_from_the_repo_root():
    """`python bench/load.py` would put bench/ first on sys.path, where bench/consolidation.py stands in for the
    app: README and the docs say `python -m bench.<name>` (or make bench BENCH=<name>)."""
    documents = [BASE_DIR / "README.md", *(BASE_DIR / "docs").glob("*.md")]
    as_files = {path.name: re.findall(r"python3? bench/\w+\.py", path.read_text()) for path in documents}
    assert {name: found for name, found in as_files.items() if found} == {}


def test_bench_scripts_import_their_helpers_from_the_package():
    """`from _seed import ...` only works with bench/ on sys.path, which is what let bench/consolidation.py
    shadow the app: helpers are imported as bench._seed etc."""
    local = "|".join(re.escape(path.stem) for path in BENCH_DIR.glob("*.py")
                     if path.stem != "__init__" and not (BASE_DIR / path.stem).is_dir())  # not the apps
    bare = re.compile(rf"^\s*(from|import)\s+({local})\b", re.MULTILINE)
    offenders = {path.name: bare.findall(path.read_text()) for path in BENCH_DIR.glob("*.py")}
    assert {name: found for name, found in offenders.items() if found} == {}


def test_run_all_smoke_fails_a_script_without_a_smoke_mode(monkeypatch, capsys):
    """It is not run (it would run the full bench, minutes), and the run fails."""
    module = types.ModuleType("bench._no_smoke")
    module.main = lambda: pytest.fail("a script without a smoke mode was run")
    monkeypatch.setitem(sys.modules, "bench._no_smoke", module)
    monkeypatch.setattr(run_all, "SCRIPTS", ("_no_smoke",))
    assert run_all.main(["--smoke"]) == 1
    assert "# failed: _no_smoke (no smoke mode)" in capsys.readouterr().out


def test_run_all_fails_a_script_that_prints_no_figure(monkeypatch, capsys):
    """Exit status 0 is not enough: a bench prints `bench:` lines (bench.retrieval_data prints none)."""
    monkeypatch.setattr(run_all, "SCRIPTS", ("retrieval_data",))
    assert run_all.main([]) == 1
    assert "# failed: retrieval_data (no bench: line)" in capsys.readouterr().out


def test_run_all_refuses_a_name_that_is_no_bench(capsys):
    with pytest.raises(SystemExit) as stopped:
        run_all.main(["contxt"])
    assert stopped.value.code == 2
    assert "no bench named contxt" in capsys.readouterr().err
