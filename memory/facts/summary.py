"""The summary: the one memory row the bot reads in full; each new wording retracts the previous one."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from memory.models import SUMMARY_MAX_LENGTH, Summary
from memory.text.limits import clean_text
from teams.models import Server
from teams.services import audit_record

from .services import FactAuthor


@transaction.atomic
def summary_set(*, server: Server, content: str, author: FactAuthor) -> Summary:
    """Make `content` the server's summary; the previous wording is retracted, never deleted."""
    content = clean_text(content).strip()
    if len(content) > SUMMARY_MAX_LENGTH:
        raise ValidationError(
            {"content": gettext("The summary is %(count)s characters long; keep it to at most %(limit)s.")
                        % {"count": len(content), "limit": SUMMARY_MAX_LENGTH}}
        )
    # Serialise summary writes per server: two saves at once would both insert a "current" summary. The clock
    # is read after the lock, so a wording's end is never before its start (the history page shows both).
    Server.objects.select_for_update().filter(pk=server.pk).values_list("pk").first()
    now = timezone.now()
    Summary.objects.filter(server=server, retracted_at__isnull=True).update(retracted_at=now)
    summary = Summary.objects.create(
        server=server, content=content, author_kind=author.kind, author_user=author.user, created_at=now
    )
    audit_record(actor=author.user, server=server, action="summary.set", count=1,
                 actor_label="" if author.user else "bot")
    return summary
