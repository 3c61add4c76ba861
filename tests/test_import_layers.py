"""The import contracts of .importlinter (docs/ARCHITECTURE.md, "Rooms"): they hold on the tree, an upward import
breaks them, and every module of memory and consolidation stands in a layer, so none escapes them."""

from __future__ import annotations

import ast
import configparser
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".importlinter"
PACKAGES = ("memory", "consolidation", "teams", "config")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def lint_imports(tree: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--config", str(tree / ".importlinter")], cwd=tree,
                          capture_output=True, text=True, timeout=120)


def copy_of_the_tree(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(CONFIG, tmp_path / ".importlinter")
    return tmp_path


def test_the_contracts_hold_on_the_tree():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 kept, 0 broken" in result.stdout


def test_a_module_of_retrieval_importing_the_bot_breaks_the_layers(tmp_path):
    tree = copy_of_the_tree(tmp_path)
    (tree / "memory" / "retrieval" / "upward.py").write_text("from memory.bot import exchanges  # noqa: F401\n")

    result = lint_imports(tree)

    assert result.returncode != 0
    assert "memory.retrieval is not allowed to import memory.bot" in result.stdout
    assert "memory.retrieval.upward -> memory.bot.exchanges" in result.stdout


def test_the_bot_importing_consolidation_breaks_its_contract(tmp_path):
    tree = copy_of_the_tree(tmp_path)
    (tree / "memory" / "bot" / "sideways.py").write_text("from consolidation import rounds  # noqa: F401\n")

    result = lint_imports(tree)

    assert result.returncode != 0
    assert "memory's bot and panel do not import consolidation themselves BROKEN" in result.stdout


def test_teams_importing_memory_breaks_the_forbidden_contract(tmp_path):
    tree = copy_of_the_tree(tmp_path)
    with (tree / "teams" / "views_probe.py").open("w") as probe:
        probe.write("from memory.models import Fact  # noqa: F401\n")

    result = lint_imports(tree)

    assert result.returncode != 0
    assert "teams and config never import memory or consolidation BROKEN" in result.stdout


def layer_modules() -> set[str]:
    parser = configparser.ConfigParser()
    parser.read(CONFIG)
    layers = parser["importlinter:contract:layers"]["layers"].split("\n")
    return {name.strip() for line in layers for name in line.replace(":", "|").split("|") if name.strip()}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def test_every_module_of_memory_and_consolidation_is_in_a_layer():
    """A module outside every layer would be free to import anything. Only the packages that hold layers (memory,
    memory.facts …) stand outside, and they hold nothing to import."""
    listed = layer_modules()
    outside, packages_with_imports = [], []
    for package in ("memory", "consolidation"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = module_name(path)
            if any(name == layer or name.startswith(layer + ".") for layer in listed):
                continue
            if path.name == "__init__.py" and any(layer.startswith(name + ".") for layer in listed):
                if any(isinstance(node, (ast.Import, ast.ImportFrom)) for node in ast.walk(ast.parse(path.read_text()))):
                    packages_with_imports.append(name)
                continue
            outside.append(name)

    assert not outside, f"Put these modules in a layer of .importlinter: {outside}"
    assert not packages_with_imports, f"These packages hold layers and so may import nothing: {packages_with_imports}"
