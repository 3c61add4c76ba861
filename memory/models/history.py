"""The history of every fact: each change kept as a version with its time, who made it and the old and new
values, so "what did this fact say before?" always has an answer and a staff edit can be undone."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from teams.models import Server

from .exchanges import Exchange
from .facts import Fact


class VersionChange(models.TextChoices):
    CREATE = "create", _("Written")
    EDIT = "edit", _("Edited")
    SUPERSEDE = "supersede", _("Replaced")
    REINFORCE = "reinforce", _("Said again")
    MERGE = "merge", _("Merged")
    RETRACT = "retract", _("Retracted")
    RESTORE = "restore", _("Restored")
    AUDIENCE = "audience", _("Audience changed")
    PIN = "pin", _("Pinned")
    UNPIN = "unpin", _("Unpinned")
    UNDO = "undo", _("Undone")


class ActorKind(models.TextChoices):
    STAFF = "staff", _("Staff")
    BOT = "bot", _("The bot")  # in an exchange, learning from a member
    ROUND = "round", _("A consolidation round")  # a merge a person accepted is the person's, this is the proposal's
    MEMBER = "member", _("A member")  # a Discord member's own slash command
    SYSTEM = "system", _("Lorekeeper")  # an import, a migration


class FactVersion(models.Model):
    """One change to one fact. `before` and `after` hold only the fields that changed (text fields whole), so the
    timeline reads as what happened and an undo restores exactly what an edit replaced."""

    fact = models.ForeignKey(Fact, on_delete=models.CASCADE, related_name="versions")
    # No index of its own: the member-wipe index starts with it.
    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="+", db_index=False)
    version = models.PositiveIntegerField(help_text="The fact's version after this change.")
    change = models.CharField(max_length=10, choices=VersionChange.choices)
    at = models.DateTimeField(default=timezone.now)
    actor_kind = models.CharField(max_length=8, choices=ActorKind.choices)
    actor_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    actor_label = models.CharField(max_length=200, blank=True)
    exchange = models.ForeignKey(Exchange, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # The member whose message the bot learned it from (or who asked, for their own command): a member wipe
    # removes every version that names them, so no row about them stays.
    member_id = models.CharField(max_length=20, blank=True)
    round_id = models.BigIntegerField(null=True, blank=True, help_text="The consolidation round, for a merge.")
    related_number = models.PositiveIntegerField(null=True, blank=True,
                                                 help_text="The other fact: the replacement, or what it merged into.")
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    undoes = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="undone_by")

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [
            models.Index(F("fact"), F("at").desc(), F("id").desc(), name="fact_version_timeline"),
            models.Index(fields=["server", "member_id"], name="fact_version_member",
                         condition=~Q(member_id="")),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(change__in=VersionChange.values), name="fact_version_change_known"),
            models.CheckConstraint(condition=Q(actor_kind__in=ActorKind.values), name="fact_version_actor_known"),
        ]

    def __str__(self) -> str:
        return f"#{self.fact_id} v{self.version} {self.change}"
