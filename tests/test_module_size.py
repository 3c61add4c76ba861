"""No project module grows past about 400 lines: a module that does is split by concept (STYLE.md, Layout). The
limit here leaves a margin; migrations, tests and benchmarks are not counted."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("memory", "consolidation", "teams", "config")
MAX_LINES = 450


def test_no_project_module_is_past_450_lines():
    too_long = {}
    for package in PROJECT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_LINES:
                too_long[str(path.relative_to(ROOT))] = lines

    assert not too_long, f"Split these modules by concept (at most {MAX_LINES} lines): {too_long}"
