"""Facts leave the database only through memory.facts.deletes: the database refuses anything else, and this
test refuses any new code path that tries to get the database's permission."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.db import InternalError, ProgrammingError, connection, transaction

from memory.facts.deletes import fact_delete
from memory.models import Fact
from tests.factories import make_fact

ROOT = Path(__file__).resolve().parents[3]
SCANNED_PACKAGES = ("teams", "memory", "config", "consolidation")
SERVICES = ROOT / "memory" / "facts" / "deletes.py"
PERMIT = "_permit_fact_deletes"
# The only services that may delete facts (SPEC section 3: delete, wipe a server, wipe a member; and the purge by
# source of SPEC section 9).
# facts_delete_many: the many-facts delete behind the purge and the memory page's bulk delete (issue 25).
DELETING_SERVICES = {"fact_delete", "server_wipe", "member_wipe", "facts_purge", "facts_delete_many"}
# Strings that only a deleting path has reason to contain.
DELETE_MARKERS = ("lorekeeper.fact_delete", "delete from memory_fact", PERMIT.lower())
REFUSAL = "only deleted through memory.services"


# The database guard (migration 0004) ---------------------------------------------


def refused_by_the_database():
    return pytest.raises((InternalError, ProgrammingError), match=REFUSAL)


def test_the_database_refuses_a_queryset_delete_of_facts(server):
    fact = make_fact(server)

    with refused_by_the_database(), transaction.atomic():
        Fact.objects.filter(pk=fact.pk).delete()

    assert Fact.objects.filter(pk=fact.pk).exists()


def test_the_database_refuses_deleting_a_single_fact_instance(server):
    fact = make_fact(server)

    with refused_by_the_database(), transaction.atomic():
        fact.delete()

    assert Fact.objects.filter(pk=fact.pk).exists()


def test_the_database_refuses_a_raw_sql_delete_of_facts(server):
    fact = make_fact(server)

    with refused_by_the_database(), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM memory_fact WHERE server_id = %s", [server.pk])

    assert Fact.objects.filter(pk=fact.pk).exists()


def test_deleting_a_server_cannot_silently_take_its_facts_with_it(server):
    fact = make_fact(server)

    with refused_by_the_database(), transaction.atomic():
        server.delete()

    assert Fact.objects.filter(pk=fact.pk).exists()


# The static guard: no new delete paths -------------------------------------------


def scanned_python_files():
    for package in SCANNED_PACKAGES:
        directory = ROOT / package
        if not directory.is_dir():
            continue
        for path in sorted(directory.rglob("*.py")):
            if "migrations" in path.relative_to(ROOT).parts:
                continue
            yield path


def test_only_memory_services_asks_the_database_for_permission_to_delete_facts():
    offenders = [
        f"{path.relative_to(ROOT)} contains {marker!r}"
        for path in scanned_python_files()
        if path != SERVICES
        for marker in DELETE_MARKERS
        if marker in path.read_text(encoding="utf-8").lower()
    ]

    assert not offenders, (
        "A new path deletes facts outside memory/facts/deletes.py (add a service instead): " + "; ".join(offenders)
    )


class _DeletePathFinder(ast.NodeVisitor):
    """Names the innermost function around every use of the permission or of a DELETE on facts."""

    def __init__(self) -> None:
        self.functions: list[str] = []
        self.permit_users: set[str] = set()
        self.raw_deleters: set[str] = set()
        self.setting_writers: set[str] = set()

    def _where(self) -> str:
        return self.functions[-1] if self.functions else "<module level>"

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node.name)
        self.generic_visit(node)
        self.functions.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _visit_function

    def visit_Name(self, node: ast.Name) -> None:
        if node.id == PERMIT:
            self.permit_users.add(self._where())

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr == PERMIT:
            self.permit_users.add(self._where())
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            text = node.value.lower()
            if "delete from memory_fact" in text:
                self.raw_deleters.add(self._where())
            if "lorekeeper.fact_delete" in text:
                self.setting_writers.add(self._where())


def delete_paths_in_services() -> _DeletePathFinder:
    finder = _DeletePathFinder()
    finder.visit(ast.parse(SERVICES.read_text(encoding="utf-8"), filename=str(SERVICES)))
    return finder


def test_only_fact_delete_and_the_two_wipes_get_permission_to_delete_facts():
    finder = delete_paths_in_services()

    assert finder.permit_users, f"No function in memory/facts/deletes.py uses {PERMIT}; update this guard."
    new_paths = sorted(finder.permit_users - DELETING_SERVICES)
    assert not new_paths, (
        f"memory/facts/deletes.py: {', '.join(new_paths)} calls {PERMIT} and so adds a new way to delete facts; "
        f"only {', '.join(sorted(DELETING_SERVICES))} may."
    )


def test_only_the_two_wipes_and_the_permission_helper_speak_sql_about_deleting_facts():
    finder = delete_paths_in_services()

    new_raw_deleters = sorted(finder.raw_deleters - DELETING_SERVICES)
    assert not new_raw_deleters, (
        f"memory/facts/deletes.py: {', '.join(new_raw_deleters)} runs DELETE FROM memory_fact, a new delete path."
    )
    new_setting_writers = sorted(finder.setting_writers - {PERMIT})
    assert not new_setting_writers, (
        f"memory/facts/deletes.py: {', '.join(new_setting_writers)} sets lorekeeper.fact_delete itself instead of "
        f"going through {PERMIT}: a new delete path."
    )


def test_permission_to_delete_ends_with_the_service_that_asked_for_it(server, owner):
    doomed, bystander = make_fact(server, key="doomed"), make_fact(server, key="bystander")

    with transaction.atomic():  # one outer transaction, as in admin or a test
        fact_delete(fact=doomed, actor=owner)
        with refused_by_the_database(), transaction.atomic():
            Fact.objects.filter(pk=bystander.pk).delete()
    assert Fact.objects.filter(pk=bystander.pk).exists()
    assert not Fact.objects.filter(pk=doomed.pk).exists()
