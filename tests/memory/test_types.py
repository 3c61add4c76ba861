"""memory/types.py is the one place that knows how memory types differ: no other module or template compares a
server's type with a type name, or keeps a table keyed by type names. A new difference between types is a field of
the type's profile."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from memory.models import MemoryType
from memory.types import PROFILES, profile_for

ROOT = Path(__file__).resolve().parents[2]
SCANNED_PACKAGES = ("memory", "consolidation", "teams", "config")
# Where type names may stand: the table itself, the tables' choices, and the migrations that created them.
ALLOWED = (ROOT / "memory" / "types.py", ROOT / "memory" / "models")
TYPE_NAMES = set(MemoryType.values)
TEMPLATE_COMPARISON = re.compile(
    r"memory_type\s*(==|!=|\bin\b)|(==|!=)\s*['\"](%s)['\"]|['\"](%s)['\"]\s*(==|!=)"
    % ("|".join(TYPE_NAMES), "|".join(TYPE_NAMES)))
ORM_LOOKUPS = {"filter", "exclude", "get", "get_or_create", "update_or_create", "count", "exists"}


def _is_type_name(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "MemoryType":
        return node.attr in MemoryType.names
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in TYPE_NAMES


def _names_a_type(node: ast.AST) -> bool:
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_is_type_name(element) for element in node.elts)
    return _is_type_name(node)


def type_name_uses(source: str) -> list[tuple[int, str]]:
    """(line, what) for every comparison with a type name, table of type names and ORM filter by a type name."""
    found, inside_a_finding = [], set()
    for node in ast.walk(ast.parse(source)):
        if id(node) in inside_a_finding:
            continue
        if isinstance(node, ast.Compare) and any(_names_a_type(side) for side in [node.left, *node.comparators]):
            found.append((node.lineno, "compares with a type name"))
            inside_a_finding.update(id(side) for side in node.comparators)
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and any(_is_type_name(item) for item in node.elts):
            found.append((node.lineno, "lists type names"))
        elif isinstance(node, ast.Dict) and any(key is not None and _is_type_name(key) for key in node.keys):
            found.append((node.lineno, "keys a table by type names"))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ORM_LOOKUPS
              and any("memory_type" in (keyword.arg or "") and _names_a_type(keyword.value)
                      for keyword in node.keywords)):
            found.append((node.lineno, "filters by a type name"))
            inside_a_finding.update(id(keyword.value) for keyword in node.keywords)
    return sorted(found)


def scanned_python_files():
    for package in SCANNED_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts or any(path == allowed or allowed in path.parents for allowed in ALLOWED):
                continue
            yield path


def test_no_module_but_memory_types_compares_type_names():
    offenders = [f"{path.relative_to(ROOT)}:{line} {what}"
                 for path in scanned_python_files()
                 for line, what in type_name_uses(path.read_text(encoding="utf-8"))]

    assert not offenders, ("Ask the type's profile (memory.types.profile_for) instead of comparing type names; "
                           "a new difference is a new profile field: " + "; ".join(offenders))


def test_no_template_compares_type_names():
    offenders = [f"{path.relative_to(ROOT)}:{number}"
                 for path in sorted((ROOT / "templates").rglob("*.html"))
                 for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if TEMPLATE_COMPARISON.search(line)]

    assert not offenders, "A template compares memory types; let the view pass the profile's flag: " + \
        "; ".join(offenders)


def test_the_guard_finds_each_kind_of_type_name_use():
    source = """
if ai_settings.memory_type == MemoryType.SEMANTIC: pass
if memory_type in ("consolidated", "semantic"): pass
STRATEGIES = {MemoryType.CLASSIC: newest}
SEARCHING = (MemoryType.ARCHIVE, MemoryType.RANKED)
AISettings.objects.filter(memory_type=MemoryType.SEMANTIC)
memory_type_set(server=server, actor=actor, memory_type=MemoryType.SEMANTIC)  # choosing a type is no comparison
"""
    assert [what for _, what in type_name_uses(source)] == [
        "compares with a type name", "compares with a type name", "keys a table by type names", "lists type names",
        "filters by a type name"]
    assert TEMPLATE_COMPARISON.search("{% if ai_settings.memory_type == 'semantic' %}")
    assert TEMPLATE_COMPARISON.search('{% if profile.value == "ranked" %}')
    assert not TEMPLATE_COMPARISON.search("{% if active_profile.embeds %}")


def test_every_type_has_a_profile_in_scale_order():
    assert [profile.value for profile in PROFILES] == list(MemoryType.values)
    assert [profile.position for profile in PROFILES] == list(range(1, len(PROFILES) + 1))
    assert all(profile_for(value).value == value for value in MemoryType.values)
