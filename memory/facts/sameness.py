"""Whether a fact about to be remembered is already known: the same statement, in force, about the same subject.
Read-only; memory.facts.remembering reinforces what this finds instead of writing a second row.

The rule errs towards keeping two rows: a wrong match loses what the new wording adds, a missed one only costs a
row (consolidation still proposes it later)."""

from __future__ import annotations

import unicodedata

from consolidation.pairs import Audienced, may_pair, reaches
from memory.models import Fact
from teams.models import Server


def normalised(text: str) -> str:
    """Case, accents' composition, punctuation and spacing do not make another statement."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    kept = "".join(character if character.isalnum() else " " for character in folded)
    return " ".join(kept.split())


def statement_already_known(server: Server, *, key: str, content: str, scope: str, member_id: str,
                            reach: Audienced) -> Fact | None:
    """The fact in force that says the same about the same subject (same scope and member) and is handed over
    wherever the new one (`reach`: its audience and source) would be, or None. A known fact seen more narrowly is
    no reason to drop the new row: where only the new one would reach, the bot would lose the statement."""
    wanted = normalised(content)
    candidates = Fact.objects.filter(server=server, retracted_at__isnull=True, scope=scope, member_id=member_id,
                                     key=key).order_by("-changed_at", "-id")[:50]
    return next((fact for fact in candidates if normalised(fact.content) == wanted and reaches(fact, reach)), None)


def same_key_other_statements(fact: Fact) -> list[Fact]:
    """Facts in force with the key of `fact`, about the same subject, that say something else: a contradiction when
    `fact` is written (Ledger and up flag it). Never two facts for two different channels, which contradict
    nobody (consolidation.pairs.may_pair)."""
    wanted = normalised(fact.content)
    facts = Fact.objects.filter(server_id=fact.server_id, retracted_at__isnull=True, scope=fact.scope,
                                member_id=fact.member_id, key=fact.key).exclude(pk=fact.pk).order_by(
        "-changed_at", "-id")[:20]
    return [other for other in facts if normalised(other.content) != wanted and may_pair(fact, other)]
