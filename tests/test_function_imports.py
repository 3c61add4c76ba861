"""Project imports sit at the top of a module. One inside a function body hides a dependency (often an import circle
the layers should have removed, docs/ARCHITECTURE.md), so each needs a comment on its line or the line before saying
why it cannot be at the top."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("memory", "consolidation", "teams", "config")


def _is_project_import(node: ast.Import | ast.ImportFrom) -> bool:
    if isinstance(node, ast.ImportFrom):
        return bool(node.level) or (node.module or "").split(".")[0] in PROJECT_PACKAGES
    return any(alias.name.split(".")[0] in PROJECT_PACKAGES for alias in node.names)


def function_imports(source: str) -> list[tuple[int, bool]]:
    """(line, explained) for every project import inside a function body."""
    lines = source.splitlines()
    found = []

    def explained(line: int) -> bool:
        same, before = lines[line - 1], lines[line - 2] if line > 1 else ""
        return "#" in same or before.strip().startswith("#")

    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and _is_project_import(node):
                found.append((node.lineno, explained(node.lineno)))
    return sorted(set(found))


def project_modules():
    for package in PROJECT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def test_every_project_import_inside_a_function_says_why():
    unexplained = [f"{path.relative_to(ROOT)}:{line}" for path in project_modules()
                   for line, explained in function_imports(path.read_text(encoding="utf-8")) if not explained]

    assert not unexplained, ("Move these imports to the top of the module, or say on the line (or the one before) "
                             "why they cannot be there: " + ", ".join(unexplained))


def test_the_guard_finds_an_unexplained_import_and_accepts_an_explained_one():
    source = '''
import json
from memory.models import Fact


def reads():
    from memory.bot.selectors import bot_token_and_server
    from . import helpers
    import consolidation.rounds
    import numpy  # not the project's: not counted
    # Django models cannot be imported before django.setup(), which this command runs first.
    from memory.models import Summary
    from teams.models import Server  # the same, said on the line


async def answers():
    from config.queue import enqueue
'''
    assert function_imports(source) == [(7, False), (8, False), (9, False), (12, True), (13, True), (17, False)]
