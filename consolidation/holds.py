"""What a memory wipe needs from consolidation, low enough for memory's services to import: the per-server lock that
keeps rounds off while a wipe runs, and deleting the proposals and drafts that quote wiped facts. Only tables and
the database connection; the rounds themselves build on memory."""

from __future__ import annotations

from django.db import connection
from django.db.models import Q, QuerySet

from memory.models import Fact
from teams.models import Server

from .models import DraftStatus, Proposal, SummaryDraft

ADVISORY_LOCK_NAMESPACE = 0x10E0  # (namespace, server id) transaction lock: a round tries it, a wipe waits for it


def hold_rounds_off(server: Server) -> None:
    """Inside a transaction: wait for a round's database work on the server to end (a moment: the model is
    asked without the lock), and keep rounds from reading or writing until the transaction ends (a round
    that finds the lock taken at its start is retried later by its task; one about to write waits, then
    drops the pairs whose facts are gone). Wipes hold it, so a round never proposes wiped facts again."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_NAMESPACE, server.pk])


def discard_server_results(server: Server) -> int:
    """Delete the server's proposals and summary drafts, answered or not (a wipe: they quote its facts)."""
    proposals, _ = Proposal.objects.filter(server=server).delete()
    drafts, _ = SummaryDraft.objects.filter(server=server).delete()
    return proposals + drafts


def discard_results_quoting(server: Server, facts: QuerySet[Fact]) -> int:
    """Before these facts are deleted (a member wipe): delete the proposals that quote one of them, answered
    or not, and when there are any such facts the summary draft still waiting (it may be drawn from them)."""
    proposals, _ = Proposal.objects.filter(Q(keeper__in=facts) | Q(other__in=facts)).delete()
    drafts = SummaryDraft.objects.filter(server=server, status=DraftStatus.PENDING).delete()[0] if facts.exists() else 0
    return proposals + drafts
