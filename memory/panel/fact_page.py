"""What a fact's own page shows besides its row: the facts it replaced, every time it was retracted and restored
(who, when, why), and the newest page of its history. Reads only."""

from __future__ import annotations

from memory.facts.selectors import RETRACTING_CHANGES, fact_retractions, fact_versions
from memory.learning.selectors import fact_learned_from, messages_cited
from memory.models import Exchange, Fact, FactVersion

from .audiences import attach_audiences
from .fact_rows import attach_flags
from .timeline import TIMELINE_PAGE, timeline_entries


def timeline_context(fact: Fact, *, can_configure: bool, before_id: int | None = None) -> dict:
    """One page of the fact's timeline (newest first) and the cursor of the next, older page."""
    versions, more = fact_versions(fact, before_id=before_id, limit=TIMELINE_PAGE)
    return {"fact": fact, "entries": timeline_entries(versions, can_undo=can_configure),
            "older_than": versions[-1].pk if more else None}


def retraction_spans(retractions: list[FactVersion]) -> list[dict]:
    """Each retraction with the restore that ended it (None while it holds), oldest first."""
    spans: list[dict] = []
    for version in retractions:
        if version.change in RETRACTING_CHANGES:
            spans.append({"retracted": version, "restored": None})
        elif spans and spans[-1]["restored"] is None:
            spans[-1]["restored"] = version
    return spans


def fact_page_context(fact: Fact, *, can_configure: bool) -> dict:
    replaced = list(fact.supersedes.select_related("server", "author_user").order_by("-retracted_at"))
    attach_audiences(replaced)
    attach_flags([fact])
    return {"replaced": replaced, "retractions": retraction_spans(fact_retractions(fact)),
            "learned_from": learned_from_context(fact), "answered_message": answered_message(fact),
            **timeline_context(fact, can_configure=can_configure)}


def answered_message(fact: Fact) -> Exchange | None:
    """The exchange the bot learned the fact in, when it names the Discord message it answered (to link it)."""
    if fact.source_exchange_id is None:
        return None
    return Exchange.objects.filter(pk=fact.source_exchange_id).exclude(message_id="").only(
        "message_id", "channel_id", "message").first()


def learned_from_context(fact: Fact) -> list[dict]:
    """The learning runs that wrote or reinforced the fact, each with the messages it rests on (their text where
    still stored; a member's wipe removes theirs)."""
    links = fact_learned_from(fact.pk)
    stored = messages_cited(fact.server, [message_id for link in links for message_id in link.message_ids])
    return [{"link": link, "messages": [(message_id, stored.get(message_id)) for message_id in link.message_ids]}
            for link in links]
