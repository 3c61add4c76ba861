"""What each model call used (issue 24): one row per call to a model endpoint, with the tokens the endpoint reported
and NULL where it reported none (never guessed), linked to what it was made for where there is one."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from teams.models import Server

from .exchanges import Exchange
from .learning import LearningRun


class UsagePurpose(models.TextChoices):
    REPLY = "reply", _("Reply")
    CONSOLIDATION = "consolidation", _("Consolidation")
    LEARNING = "learning", _("Learning")
    EMBEDDING = "embedding", _("Embedding")


# The purposes one monthly budget counts (AISettings.reply_token_budget, background_token_budget).
REPLY_PURPOSES = (UsagePurpose.REPLY,)
BACKGROUND_PURPOSES = (UsagePurpose.CONSOLIDATION, UsagePurpose.LEARNING)


class ModelCall(models.Model):
    """One call to a model endpoint. The built-in local embedder has no endpoint and costs nothing: no row. No
    index starts with the server alone: model_call_server_time does."""

    id = models.BigAutoField(primary_key=True)
    # No index of its own: model_call_budget starts with it.
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="+", db_index=False)
    purpose = models.CharField(max_length=16, choices=UsagePurpose.choices)
    called_at = models.DateTimeField(default=timezone.now)
    model_name = models.CharField(max_length=200)
    prompt_tokens = models.PositiveIntegerField(null=True, blank=True)  # for an embedding: its input tokens
    completion_tokens = models.PositiveIntegerField(null=True, blank=True)
    # Kept when what it was for is deleted (a wipe, the exchange log's trim): the month's tokens were still used.
    exchange = models.ForeignKey(Exchange, on_delete=models.SET_NULL, null=True, blank=True, related_name="usage_calls",
                                 db_index=False)
    learning_run = models.ForeignKey(LearningRun, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="usage_calls", db_index=False)
    # A string reference: consolidation's tables sit above memory's (.importlinter), and no import is needed.
    consolidation_round = models.ForeignKey("consolidation.ConsolidationRound", on_delete=models.SET_NULL, null=True,
                                            blank=True, related_name="usage_calls", db_index=False)

    class Meta:
        ordering = ["called_at", "id"]
        indexes = [
            # The usage page's days: a server's calls since a moment, read from the index alone.
            models.Index(fields=["server", "called_at"], name="model_call_server_time",
                         include=["purpose", "prompt_tokens", "completion_tokens"]),
            models.Index(fields=["exchange"], name="model_call_exchange", condition=Q(exchange__isnull=False)),
            models.Index(fields=["learning_run"], name="model_call_learning_run",
                         condition=Q(learning_run__isnull=False)),
            models.Index(fields=["consolidation_round"], name="model_call_round",
                         condition=Q(consolidation_round__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.get_purpose_display()} call of {self.server_id} at {self.called_at:%Y-%m-%d %H:%M}"

    @property
    def known(self) -> bool:
        """Whether the endpoint reported any usage for this call."""
        return self.prompt_tokens is not None or self.completion_tokens is not None

    @property
    def tokens(self) -> int:
        """The tokens reported, 0 for what was not (an unknown call counts as nothing against a budget)."""
        return (self.prompt_tokens or 0) + (self.completion_tokens or 0)


class UsageMonth(models.Model):
    """A server's usage of one purpose in one calendar month (UTC), kept by memory.usage.recording with every call it
    records (same transaction): what a budget check reads, one row instead of the month's calls."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="+", db_index=False)
    month = models.DateField(help_text="The first day of the month (UTC).")
    purpose = models.CharField(max_length=16, choices=UsagePurpose.choices)
    tokens = models.PositiveBigIntegerField(default=0)  # as reported; an unknown call adds nothing
    unknown_calls = models.PositiveIntegerField(default=0)
    calls = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["server", "month", "purpose"], name="usage_month_once")]

    def __str__(self) -> str:
        return f"{self.get_purpose_display()} of {self.server_id} in {self.month:%Y-%m}"
