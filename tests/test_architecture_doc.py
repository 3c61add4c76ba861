"""docs/ARCHITECTURE.md names only what exists: every memory/…, consolidation/…, teams/… and config/… path is a file
or a package, and every dotted name (memory.bot.reply.reply_to_message) is a module or a name in one."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "ARCHITECTURE.md"
# A path or dotted name that starts at one of the project's packages (not inside another path such as
# templates/memory/home.html).
MENTION = re.compile(r"(?<![\w/.-])((?:memory|consolidation|teams|config)(?:[./][A-Za-z_][\w]*)*(?:\.py)?/?)")


def mentions(text: str) -> set[str]:
    return {match.rstrip(".") for match in MENTION.findall(text)}


def names_something(mention: str) -> bool:
    if "/" in mention or mention.endswith(".py"):
        path = ROOT / mention.rstrip("/")
        return path.exists() or path.with_suffix(".py").exists()
    parts = mention.split(".")
    for split in range(len(parts), 0, -1):
        module_name, attributes = ".".join(parts[:split]), parts[split:]
        try:
            found = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        for attribute in attributes:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_every_path_and_name_in_the_architecture_doc_exists():
    found = mentions(DOC.read_text(encoding="utf-8"))

    assert len(found) > 50, "the doc's paths were found"
    missing = sorted(mention for mention in found if not names_something(mention))
    assert not missing, f"docs/ARCHITECTURE.md names what does not exist: {missing}"


def test_the_check_tells_a_missing_path_and_name_from_real_ones():
    assert mentions("see `memory/bot/reply.py`, memory.bot.reply.reply_to_message and templates/memory/home.html.") \
        == {"memory/bot/reply.py", "memory.bot.reply.reply_to_message"}
    assert names_something("memory/retrieval/") and names_something("memory.retrieval.words")
    assert names_something("memory.bot.reply.reply_to_message")
    assert not names_something("memory/semantic.py")
    assert not names_something("memory.retrieval.CONTEXT_STRATEGIES")
    assert not names_something("memory.selectors.bot_token_and_server")
