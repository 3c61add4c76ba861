"""What members ask of the bot's memory about them: to be forgotten, as a request staff act on."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from teams.models import SNOWFLAKE_REGEX, Server


class ForgetRequestStatus(models.TextChoices):
    OPEN = "open", _("Waiting for staff")
    WIPED = "wiped", _("Wiped")
    DISMISSED = "dismissed", _("Dismissed")


class ForgetRequestVia(models.TextChoices):
    DISCORD = "discord", _("Discord (/memory forget-me)")
    API = "api", _("Bot API")


class ForgetRequest(models.Model):
    """A member asked to be forgotten on a server whose AI settings say staff decide (ForgetMeMode.REQUEST)."""

    server = models.ForeignKey(Server, on_delete=models.CASCADE, related_name="forget_requests")
    member_id = models.CharField(max_length=20)
    member_name = models.CharField(max_length=100, blank=True)
    via = models.CharField(max_length=8, choices=ForgetRequestVia.choices, default=ForgetRequestVia.DISCORD)
    requested_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=ForgetRequestStatus.choices, default=ForgetRequestStatus.OPEN)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    handled_at = models.DateTimeField(null=True, blank=True)
    facts_removed = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(member_id__regex=SNOWFLAKE_REGEX), name="forget_request_member_id"),
            models.CheckConstraint(condition=Q(status__in=ForgetRequestStatus.values), name="forget_request_status"),
            # A member asking twice while staff have not answered yet files one request, not two.
            models.UniqueConstraint(fields=["server", "member_id"], condition=Q(status=ForgetRequestStatus.OPEN),
                                    name="forget_request_one_open_per_member"),
        ]

    def __str__(self) -> str:
        return f"Forget request of {self.member_name or self.member_id} on {self.server}"
