"""Learning from members' words (issue 23): the messages a bot sends in, the per-server read position and claim of
the learning run, each run with what it asked and what it did, which messages each learned fact rests on, and the
running note of each channel."""

from __future__ import annotations

import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.db.models.lookups import LessThanOrEqual
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from teams.models import SNOWFLAKE_REGEX, Server

from .facts import Fact

CHANNEL_NOTE_MAX_LENGTH = 1000


class ChannelMessage(models.Model):
    """One Discord message as a bot sent it in (POST …/messages): kept for the learning run, read in the order it
    arrived (`id`). A bot's or a system message is kept as context (`is_bot`) but never learned from."""

    id = models.BigAutoField(primary_key=True)
    # No index of its own: the unique index starts with it.
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="+", db_index=False)
    message_id = models.CharField(max_length=20)
    channel_id = models.CharField(max_length=20)
    thread_parent_id = models.CharField(max_length=20, blank=True)
    author_id = models.CharField(max_length=20)
    author_name = models.CharField(max_length=100, blank=True)
    is_bot = models.BooleanField(default=False)
    content = models.TextField()
    sent_at = models.DateTimeField()
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            # The same Discord message sent twice is stored once (ON CONFLICT DO NOTHING).
            models.UniqueConstraint(fields=["server", "message_id"], name="channel_message_once"),
            models.CheckConstraint(condition=Q(message_id__regex=SNOWFLAKE_REGEX) & Q(author_id__regex=SNOWFLAKE_REGEX)
                                   & Q(channel_id__regex=SNOWFLAKE_REGEX), name="channel_message_ids"),
        ]
        indexes = [
            # The run reads a server's messages after its read position, in arrival order.
            models.Index(fields=["server", "id"], name="channel_message_read_order"),
            # A member's wipe removes their messages.
            models.Index(fields=["server", "author_id"], name="channel_message_author"),
        ]

    def __str__(self) -> str:
        return f"Message {self.message_id} in {self.channel_id}"


class LearningState(models.Model):
    """Where a server's learning stands: the last message read (ChannelMessage.id) and who runs it now. A run is
    claimed by one conditional UPDATE (free, expired, or its worker's database session gone), so two never run at
    once for one server; the read position moves only in the transaction that applies a run's writes."""

    server = models.OneToOneField(Server, on_delete=models.CASCADE, primary_key=True, related_name="+")
    read_position = models.BigIntegerField(default=0)
    claim_token = models.UUIDField(null=True, blank=True)
    claimed_until = models.DateTimeField(null=True, blank=True)
    claimed_pid = models.IntegerField(null=True, blank=True, help_text="The claiming worker's database session.")
    claimed_backend_start = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Learning of {self.server_id} at message {self.read_position}"


class LearningRunStatus(models.TextChoices):
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Model failed")
    TIMED_OUT = "timed_out", _("Timed out")
    NO_MODEL = "no_model", _("No learning model")
    SUPERSEDED = "superseded", _("Already applied")


class LearningRun(models.Model):
    """One learning run of a server: the messages it read (after_position < id ≤ upto_position), every model call's
    request and answer (so a resumed run does not ask again), and each proposed write with what became of it."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="learning_runs", db_index=False)
    status = models.CharField(max_length=16, choices=LearningRunStatus.choices, default=LearningRunStatus.RUNNING)
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    after_position = models.BigIntegerField()
    upto_position = models.BigIntegerField()
    message_ids = ArrayField(models.CharField(max_length=20), default=list, blank=True)
    # Whose messages it read: a member's wipe removes the run's requests and results (they hold their words).
    author_ids = ArrayField(models.CharField(max_length=20), default=list, blank=True)
    model_name = models.CharField(max_length=200, blank=True)
    # One entry per channel read: {"channel_id", "request": [messages], "answer": text | null, "usage": {...}}.
    calls = models.JSONField(default=list, blank=True)
    # One entry per proposed write: {"op", "key", "content", "message_ids", "status", "number", "detail"}.
    results = models.JSONField(default=list, blank=True)
    written = models.PositiveIntegerField(default=0)
    reinforced = models.PositiveIntegerField(default=0)
    refused = models.PositiveIntegerField(default=0)
    notes_written = models.PositiveIntegerField(default=0)
    # The usage the endpoint reported, summed; None where it reported none (never guessed).
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    model_ms = models.PositiveIntegerField(default=0)
    database_ms = models.PositiveIntegerField(default=0)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at"]
        indexes = [
            models.Index(F("server"), F("started_at").desc(), name="learning_run_server_newest"),
            models.Index(fields=["server"], name="learning_run_open", condition=Q(status="running")),
        ]

    def __str__(self) -> str:
        return f"Learning run {self.id} of {self.server_id}"


class LearnedFrom(models.Model):
    """A fact the learning run wrote or reinforced, the run and the messages (Discord ids) it rests on."""

    fact = models.ForeignKey(Fact, on_delete=models.CASCADE, related_name="learned_from")
    run = models.ForeignKey(LearningRun, on_delete=models.CASCADE, related_name="learned")
    message_ids = ArrayField(models.CharField(max_length=20))
    reinforced = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["run"], name="learned_from_run")]


class ChannelNote(models.Model):
    """One wording of a channel's running note (what is going on there), written by a learning run; the newest is
    the note, every earlier wording is kept. Seen only in replies in that channel, never turned into facts."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="+", db_index=False)
    channel_id = models.CharField(max_length=20)
    content = models.TextField()
    run = models.ForeignKey(LearningRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="notes")
    written_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-id"]  # the newest wording first: ids only grow
        indexes = [models.Index(F("server"), F("channel_id"), F("id").desc(), name="channel_note_newest")]
        constraints = [
            models.CheckConstraint(condition=LessThanOrEqual(Length("content"), CHANNEL_NOTE_MAX_LENGTH),
                                   name="channel_note_length"),
        ]

    def __str__(self) -> str:
        return f"Note of {self.channel_id}"
