"""Teams, their members, the Discord servers they own, their Discord bots, bot tokens and the audit log."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from guardian.models import GroupObjectPermissionBase, UserObjectPermissionBase

SNOWFLAKE_REGEX = r"^[0-9]{1,20}$"


class Team(models.Model):
    name = models.CharField(max_length=100, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's access to a team: view on every server of the team follows it (teams.services)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_memberships")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "user"], name="membership_unique_team_user")]
        ordering = ["team__name", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} in {self.team}"


class Server(models.Model):
    """A Discord guild whose memory a team looks after."""

    guild_id = models.CharField(
        "guild id", max_length=20, unique=True, help_text="The Discord guild id (a snowflake, digits only)."
    )
    name = models.CharField(max_length=100)
    # PROTECT: deleting a team must never silently take its servers' memory with it.
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="servers")
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when the team's Discord bot was removed from the guild; its memory is kept, and a rejoin clears it.
    left_at = models.DateTimeField(null=True, blank=True, help_text="When the team's Discord bot left the guild.")

    class Meta:
        ordering = ["name"]
        permissions = [
            ("configure_server", "Can change memory and AI settings of the server"),
            ("review_proposals", "Can answer the consolidation proposals of the server"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(guild_id__regex=SNOWFLAKE_REGEX), name="server_guild_id_is_snowflake"),
        ]

    def __str__(self) -> str:
        return self.name


class DiscordBot(models.Model):
    """A Discord bot installation (`manage.py runbot`): one Discord application, run for one team. The guilds it
    is in become that team's servers (memory.bot.discord_servers)."""

    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="discord_bots")
    application_id = models.CharField(
        "application id", max_length=20, unique=True,
        help_text="The bot's Discord application id (Developer Portal → your app → General Information).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["team__name", "application_id"]
        verbose_name = "Discord bot"
        constraints = [
            models.CheckConstraint(condition=Q(application_id__regex=SNOWFLAKE_REGEX),
                                   name="discord_bot_application_id_is_snowflake"),
        ]

    def __str__(self) -> str:
        return f"application {self.application_id} ({self.team})"


class ServerUserObjectPermission(UserObjectPermissionBase):
    """Direct foreign-key permission rows (guardian's faster alternative to generic ones)."""

    content_object = models.ForeignKey(Server, on_delete=models.CASCADE)


class ServerGroupObjectPermission(GroupObjectPermissionBase):
    content_object = models.ForeignKey(Server, on_delete=models.CASCADE)


class BotToken(models.Model):
    """A bearer token of one team; only its SHA-256 is stored, the token itself is shown once."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="bot_tokens")
    name = models.CharField(max_length=100, blank=True, help_text="What this token is for, e.g. the bot's host.")
    prefix = models.CharField(max_length=16, help_text="The first characters, to recognise the token.")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.team})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class AuditEntry(models.Model):
    """One row per change worth answering for. Append-only: the database refuses UPDATE and DELETE.

    Foreign keys are not enforced by the database (db_constraint=False, DO_NOTHING) so that
    deleting a user or a server never needs to touch (and so can never erase) its history.
    """

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="+",
    )
    actor_label = models.CharField(max_length=200, help_text="Who did it, as they were called then.")
    server = models.ForeignKey(
        Server, on_delete=models.DO_NOTHING, db_constraint=False, null=True, blank=True, related_name="+"
    )
    action = models.CharField(max_length=64)
    target_ids = models.JSONField(default=list, blank=True)
    count = models.PositiveIntegerField(default=0)
    result = models.TextField(blank=True)
    # What changed, for the audit page to list: [{"field": label, "old": …, "new": …}], or {"field", "said"} for a
    # secret, whose values are never written here (an API key reads "set", "changed" or "removed").
    changes = models.JSONField(default=list, blank=True)
    fact_version = models.PositiveIntegerField(
        null=True, blank=True, help_text="The version of the fact (the first target) this change made.")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["server", "-created_at"], name="audit_server_newest")]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_label} {self.action}"


class PanelLanguage(models.Model):
    """The language a staff member chose in the panel's header: it follows them to every browser they log in
    from, where the browser's own Accept-Language would otherwise decide (teams.languages)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="panel_language")
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    chosen_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user}: {self.language}"
