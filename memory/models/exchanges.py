"""One message the bot answered, as the exchange log keeps it."""

from __future__ import annotations

import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from teams.models import Server

from .facts import MemoryType


class ExchangeStatus(models.TextChoices):
    CONTEXT = "context", _("Context given")  # the bot asked for context and runs its own model
    REPLIED = "replied", _("Replied")
    FAILED = "failed", _("Failed")
    TIMED_OUT = "timed_out", _("Timed out")  # past the server's reply deadline: no reply, memory untouched


class Exchange(models.Model):
    """One message the bot answered: what it was shown, searched, changed and learned, and why."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # No index of its own: exchange_server_newest starts with it (one fewer to update per bot message).
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="exchanges", db_index=False)
    created_at = models.DateTimeField(default=timezone.now)
    source = models.CharField(max_length=16, default="api", help_text="api, reply, playground or discord")
    channel_id = models.CharField(max_length=20)
    thread_parent_id = models.CharField(max_length=20, blank=True)
    author_id = models.CharField(max_length=20, help_text="The member who wrote the message.")
    author_name = models.CharField(max_length=100, blank=True)
    # The Discord message answered, when the bot gave it: a member who deletes it withdraws what was learned here.
    message_id = models.CharField(max_length=20, blank=True, default="", db_default="")
    message = models.TextField()
    memory_type = models.CharField(max_length=16, choices=MemoryType.choices)
    read_allowed = models.BooleanField(default=False)
    write_allowed = models.BooleanField(default=False)
    can_search = models.BooleanField(default=False)
    access_reason = models.CharField(max_length=200, blank=True)
    shown_numbers = ArrayField(models.PositiveIntegerField(), default=list, blank=True)
    # Why each shown fact came in (issue 20): pinned, about the speaker or a member mentioned, or by the type's
    # own order (the rest of shown_numbers); and the facts the type chose that the character budget cut.
    pinned_numbers = ArrayField(models.PositiveIntegerField(), default=list, blank=True)
    speaker_numbers = ArrayField(models.PositiveIntegerField(), default=list, blank=True)
    budget_cut_numbers = ArrayField(models.PositiveIntegerField(), default=list, blank=True)
    mentioned_ids = ArrayField(models.CharField(max_length=20), default=list, blank=True)
    memory_block = models.TextField(blank=True)
    search_query = models.TextField(blank=True)
    searched_at = models.DateTimeField(null=True, blank=True)
    # How the context judged relevance (types that rank): "words" or "hybrid", and under Semantic why
    # meaning was not used; empty for the types that show the newest facts.
    relevance_mode = models.CharField(max_length=16, blank=True, default="")
    relevance_fallback_reason = models.CharField(max_length=300, blank=True, default="")
    search_mode = models.CharField(max_length=16, blank=True)
    search_fallback_reason = models.CharField(max_length=300, blank=True)
    found_numbers = ArrayField(models.PositiveIntegerField(), default=list, blank=True)
    actions = models.JSONField(default=list, blank=True, help_text="Every memory action asked for, with its result.")
    model_calls = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=16, choices=ExchangeStatus.choices, default=ExchangeStatus.CONTEXT)
    error = models.TextField(blank=True)
    reply = models.TextField(blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    # Members' words are not kept forever (AISettings.exchange_log_days): when the log's text was removed.
    trimmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(F("server"), F("created_at").desc(), name="exchange_server_newest"),
            models.Index(fields=["server", "author_id"], name="exchange_server_author"),
            models.Index(fields=["server", "message_id"], name="exchange_server_message",
                         condition=~models.Q(message_id="")),
            # The daily trim finds the old, untrimmed logs of a server without reading the trimmed ones.
            models.Index(F("server"), F("created_at"), name="exchange_untrimmed",
                         condition=models.Q(trimmed_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"Exchange {self.id} in {self.server}"

    @property
    def reachable_numbers(self) -> set[int]:
        """Numbers the bot may act on: handed in the context, or found by its one search."""
        return set(self.shown_numbers) | set(self.found_numbers)
