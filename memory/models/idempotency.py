"""Retried API writes apply once: the first answer to an `Idempotency-Key` is kept for a day and given again."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from teams.models import Server

from .exchanges import Exchange


class IdempotentRequest(models.Model):
    """One `Idempotency-Key` of one server: which request it named (a hash of the operation, its target and its
    body) and the first answer, byte for byte. The same key with the same request within a day gets that answer
    again and changes nothing; with another request, 409. Keys are per server: another server's same key is
    another key. Only answers that changed something (200) are kept; an error changed nothing, so it is not."""

    # No index of its own: the unique index starts with it.
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="+", db_index=False)
    key = models.CharField(max_length=200)
    request_hash = models.CharField(max_length=64, help_text="SHA-256 of the operation, its target and the body.")
    # The answer is about this exchange (the one acted on, or the one a reply recorded): a wipe that deletes the
    # exchange deletes the answer with it, since a reply's answer holds the member's words.
    exchange = models.ForeignKey(Exchange, on_delete=models.CASCADE, related_name="+")
    status_code = models.PositiveSmallIntegerField()
    response_body = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["server", "key"], name="idempotent_request_one_per_key"),
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotent_request_age")]

    def __str__(self) -> str:
        return f"{self.server_id}:{self.key}"
