"""Tasks are queued by their registered name (config.queue) and never imported: every name the code queues, and
every name the beat schedule runs, is a registered task; the names stay what they were, so messages already in the
queue still run after a deploy."""

from __future__ import annotations

import ast
from pathlib import Path

from django.conf import settings

from config.celery import app
from config.queue import registered_task

ROOT = Path(__file__).resolve().parent.parent
SCANNED_PACKAGES = ("memory", "consolidation", "teams", "config")
# The names tasks have been registered under; a rename would strand the messages already queued.
REGISTERED = {
    "consolidation.tasks.run_round", "consolidation.tasks.schedule_consolidation_rounds",
    "consolidation.tasks.sweep_consolidation_rounds", "memory.tasks.build_server_indexes", "memory.tasks.embed_facts",
    "memory.tasks.maintain_server_indexes", "memory.tasks.run_catchup", "memory.tasks.sweep_embeddings",
    "memory.tasks.trim_exchange_logs", "memory.tasks.reindex_words", "memory.tasks.detect_memory_languages",
    "memory.tasks.learn_from_messages", "memory.tasks.schedule_learning_runs",
}
QUEUEING = {"enqueue", "enqueue_on_commit"}


QUEUE_MODULE = ROOT / "config" / "queue.py"  # where enqueue_on_commit hands its task name on to enqueue


def project_files():
    for package in SCANNED_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def queue_calls(path: Path) -> list[tuple[int, object]]:
    """(line, task name or None when the name is not written as a string) for every enqueue call."""
    calls = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if called in QUEUEING:
                first = node.args[0] if node.args else None
                calls.append((node.lineno, first.value if isinstance(first, ast.Constant) else None))
    return calls


def test_the_registered_task_names_are_kept():
    app.loader.import_default_modules()  # Celery's autodiscovery, as a worker starts
    assert {name for name in app.tasks if not name.startswith("celery.")} == REGISTERED


def test_every_task_the_code_queues_is_registered_under_that_name():
    queued = [(path.relative_to(ROOT), line, name) for path in project_files() if path != QUEUE_MODULE
              for line, name in queue_calls(path)]

    assert len(queued) >= 8, "the scan found the enqueue calls"
    unnamed = [f"{path}:{line}" for path, line, name in queued if not isinstance(name, str)]
    assert not unnamed, "Queue a task by its name written out as a string: " + ", ".join(unnamed)
    unknown = [f"{path}:{line} {name}" for path, line, name in queued if name not in REGISTERED]
    assert not unknown, "No task is registered under: " + ", ".join(unknown)


def test_every_task_of_the_beat_schedule_is_registered():
    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} <= REGISTERED


def test_a_task_is_found_by_its_registered_name():
    assert registered_task("consolidation.tasks.run_round").name == "consolidation.tasks.run_round"


def test_no_project_module_imports_a_tasks_module():
    importers = []
    for path in project_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] + [f"{node.module}.{alias.name}" for alias in node.names]
                     if isinstance(node, ast.ImportFrom) else
                     [alias.name for alias in node.names] if isinstance(node, ast.Import) else [])
            if isinstance(node, ast.ImportFrom) and node.level and (node.module == "tasks" or any(
                    alias.name == "tasks" for alias in node.names)):
                importers.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            elif any(name.split(".")[-1] == "tasks" and name.split(".")[0] in SCANNED_PACKAGES for name in names):
                importers.append(f"{path.relative_to(ROOT)}:{node.lineno}")

    assert not importers, "Queue the task by its name (config.queue.enqueue) instead of importing it: " + \
        ", ".join(importers)
