"""Retried API writes apply once: the first answer to an `Idempotency-Key` is kept for a day and given again."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from teams.models import Team


class IdempotentRequestState(models.TextChoices):
    IN_PROGRESS = "in_progress", "Being answered"
    ANSWERED = "answered", "Answered"


class IdempotentRequest(models.Model):
    """One `Idempotency-Key` of one team: which request it named (method, path and a hash of the body) and, once
    answered, the answer. The same key with the same request within a day gets that answer again and changes
    nothing; with another request, 409. Keys are per team: two teams' bots never see each other's answers."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    request_hash = models.CharField(max_length=64, help_text="SHA-256 of method, path and body.")
    state = models.CharField(max_length=12, choices=IdempotentRequestState.choices,
                             default=IdempotentRequestState.IN_PROGRESS)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    response = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["team", "key"], name="idempotent_request_one_per_key"),
            models.CheckConstraint(condition=Q(state__in=IdempotentRequestState.values),
                                   name="idempotent_request_state_known"),
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotent_request_age")]
