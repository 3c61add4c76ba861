"""Consolidation rounds and what they propose: merges of duplicates, contradiction flags, summary drafts.

A round only writes proposals; nothing in memory changes until a person answers one
(consolidation.services). Proposals name their two facts by id and remember each fact's version
at proposal time, so a proposal whose facts were rewritten since is recognised as out of date.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from memory.models import Fact, Summary
from teams.models import Server


class RoundStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    REFUSED = "refused", _("Refused")
    FINISHED = "finished", _("Finished")
    FAILED = "failed", _("Failed")


class RoundTrigger(models.TextChoices):
    QUIET = "quiet", _("The server went quiet")
    WEEKLY = "weekly", _("A week since the last round")
    MANUAL = "manual", _("Started by staff")


class ConsolidationRound(models.Model):
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="consolidation_rounds")
    trigger = models.CharField(max_length=8, choices=RoundTrigger.choices)
    status = models.CharField(max_length=8, choices=RoundStatus.choices, default=RoundStatus.QUEUED)
    refusal = models.CharField(max_length=300, blank=True, help_text="Why the round refused itself.")
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The newest memory change the round saw: the next round refuses itself when nothing is newer.
    memory_mark = models.DateTimeField(null=True, blank=True)
    facts_considered = models.PositiveIntegerField(default=0)
    candidate_pairs = models.PositiveIntegerField(default=0, help_text="Pairs found (classified, before the caps).")
    unjudged_pairs = models.PositiveIntegerField(
        default=0, help_text="Proposals of pairs only the vectors found that no model checked (the block says so).")
    duplicates = models.PositiveIntegerField(default=0)
    contradictions = models.PositiveIntegerField(default=0)
    model_used = models.BooleanField(default=False)
    model_note = models.CharField(max_length=300, blank=True, help_text="What the consolidation model did or why not.")
    duration_ms = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(F("server"), F("created_at").desc(), name="round_server_newest")]
        constraints = [
            # Never two rounds of one server waiting or running at once (the advisory lock guards the run).
            models.UniqueConstraint(fields=["server"], condition=Q(status__in=["queued", "running"]),
                                    name="round_one_open_per_server"),
        ]

    def __str__(self) -> str:
        return f"Round {self.pk} of {self.server} ({self.status})"


class ProposalKind(models.TextChoices):
    DUPLICATE = "duplicate", _("Duplicate")
    CONTRADICTION = "contradiction", _("Contradiction")


class ProposalStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for an answer")
    MERGED = "merged", _("Merged")
    MERGED_OTHER_WAY = "merged_other_way", _("Merged the other way")
    KEPT_BOTH = "kept_both", _("Kept both")
    SETTLED = "settled", _("Settled by retracting one of the two")
    OUT_OF_DATE = "out_of_date", _("Out of date (a fact changed)")


class Proposal(models.Model):
    """A pair of facts a round found. For a duplicate, `keeper` is the fact that would stay and
    `other` the one it would replace; a contradiction is a flag on both, never merged."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="proposals")
    round = models.ForeignKey(ConsolidationRound, on_delete=models.SET_NULL, null=True, related_name="proposals")
    kind = models.CharField(max_length=16, choices=ProposalKind.choices)
    keeper = models.ForeignKey(Fact, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Fact, on_delete=models.CASCADE, related_name="+")
    keeper_version = models.PositiveIntegerField()
    other_version = models.PositiveIntegerField()
    # The pair in id order, so a pair is found again whichever fact the round calls the keeper.
    pair_low = models.BigIntegerField()
    pair_high = models.BigIntegerField()
    wording = models.TextField(blank=True, help_text="The merged wording: the kept fact word for word, or the model's "
                               "wording, which a merge writes as a new fact replacing both.")
    wording_by_model = models.BooleanField(default=False)
    similarity = models.FloatField(default=0.0)
    why = models.CharField(max_length=300, blank=True, help_text="Why the round thinks so, in one sentence.")
    status = models.CharField(max_length=16, choices=ProposalStatus.choices, default=ProposalStatus.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["server", "status"], name="proposal_server_status"),
            models.Index(fields=["pair_low", "pair_high"], name="proposal_pair"),
        ]
        constraints = [
            # A round run twice proposes nothing twice: one waiting proposal per pair.
            models.UniqueConstraint(fields=["pair_low", "pair_high"], condition=Q(status="pending"),
                                    name="proposal_one_pending_per_pair"),
            models.CheckConstraint(condition=Q(pair_low__lt=F("pair_high")), name="proposal_pair_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.keeper_id}/#{self.other_id} ({self.status})"

    @property
    def rewords_keeper(self) -> bool:
        """A plain merge would write the model's wording as a new fact and set the keeper aside too."""
        return self.wording_by_model and bool(self.wording) and self.wording != self.keeper.content


class DraftStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for an answer")
    USED = "used", _("Used")
    KEPT_CURRENT = "kept_current", _("Current summary kept")
    OUT_OF_DATE = "out_of_date", _("Replaced by a newer draft")


class SummaryDraft(models.Model):
    """What the round would say in the summary today; nothing replaces the summary without a yes."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="summary_drafts")
    round = models.ForeignKey(ConsolidationRound, on_delete=models.SET_NULL, null=True, related_name="drafts")
    content = models.TextField()
    status = models.CharField(max_length=16, choices=DraftStatus.choices, default=DraftStatus.PENDING)
    created_at = models.DateTimeField(default=timezone.now)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    # The summary wording a 'use' answer wrote (the history page names the round by it). SET_NULL: a member
    # wipe deletes earlier wordings, and the draft stays on record as answered.
    summary = models.ForeignKey(Summary, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="source_drafts",
                                help_text="The summary wording this draft became when it was used.")

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["server"], condition=Q(status="pending"),
                                    name="draft_one_pending_per_server"),
        ]
