"""Members asking to be forgotten: at once (a member wipe) or as a request staff answer, as the server's AI settings
choose (ForgetMeMode). Either way the audit log says who asked and what went."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from memory.configuration.selectors import ai_settings_for_server
from memory.models import ForgetMeMode, ForgetRequest, ForgetRequestStatus, ForgetRequestVia
from teams.models import Server
from teams.services import audit_record

from .deletes import member_wipe
from .services import validate_member_id

MEMBER_NAME_MAX_LENGTH = 100


@dataclass(frozen=True)
class ForgetOutcome:
    """What a member's ask did: wiped now (with how many facts went), or a request waiting for staff."""

    wiped: bool
    facts_removed: int = 0
    request: ForgetRequest | None = None


def _member_label(member_id: str, member_name: str) -> str:
    return f"member {member_id} ({member_name})" if member_name else f"member {member_id}"


@transaction.atomic
def forget_me(*, server: Server, member_id: str, member_name: str = "", via: str = ForgetRequestVia.DISCORD
              ) -> ForgetOutcome:
    """A member asks the bot to forget them. Under ForgetMeMode.WIPE their memory goes now (member_wipe, audited
    as that member); under REQUEST an open request is filed for staff — asking again while one waits returns it."""
    member_id = validate_member_id(member_id)
    member_name = member_name.strip()[:MEMBER_NAME_MAX_LENGTH]
    if via not in ForgetRequestVia.values:
        raise ValidationError({"via": "Unknown way of asking."})
    label = f"{_member_label(member_id, member_name)} via {ForgetRequestVia(via).label}"
    if ai_settings_for_server(server).forget_me_mode == ForgetMeMode.WIPE:
        result = member_wipe(server=server, actor=None, member_id=member_id, actor_label=label)
        return ForgetOutcome(wiped=True, facts_removed=result.facts)
    waiting = ForgetRequest.objects.filter(server=server, member_id=member_id, status=ForgetRequestStatus.OPEN).first()
    if waiting is not None:
        return ForgetOutcome(wiped=False, request=waiting)
    try:
        with transaction.atomic():
            request = ForgetRequest.objects.create(server=server, member_id=member_id, member_name=member_name, via=via)
    except IntegrityError:  # the same member asked twice at once: the other ask filed it
        request = ForgetRequest.objects.get(server=server, member_id=member_id, status=ForgetRequestStatus.OPEN)
        return ForgetOutcome(wiped=False, request=request)
    audit_record(actor=None, server=server, action="memory.forget_request", target_ids=[], count=1,
                 actor_label=label, result=f"{_member_label(member_id, member_name)} asked to be forgotten")
    return ForgetOutcome(wiped=False, request=request)


class RequestAlreadyAnswered(Exception):
    """Someone else answered the request meanwhile (the page shows what they did)."""


def _open_request(request: ForgetRequest) -> ForgetRequest:
    locked = ForgetRequest.objects.select_for_update().filter(pk=request.pk).first()
    if locked is None or locked.status != ForgetRequestStatus.OPEN:
        status = locked.get_status_display() if locked else gettext("gone")
        raise RequestAlreadyAnswered(gettext("This request was already answered (%(status)s).") % {"status": status})
    return locked


@transaction.atomic
def forget_request_wipe(*, request: ForgetRequest, actor: AbstractBaseUser) -> ForgetRequest:
    """Staff grant the request: the member wipe runs (its own audit row), and the request records who and how much."""
    locked = _open_request(request)
    result = member_wipe(server=locked.server, actor=actor, member_id=locked.member_id)
    locked.status, locked.handled_by, locked.handled_at = ForgetRequestStatus.WIPED, actor, timezone.now()
    locked.facts_removed = result.facts
    locked.save(update_fields=["status", "handled_by", "handled_at", "facts_removed"])
    return locked


@transaction.atomic
def forget_request_dismiss(*, request: ForgetRequest, actor: AbstractBaseUser) -> ForgetRequest:
    """Staff close the request without wiping (e.g. it was not the member who asked); audited."""
    locked = _open_request(request)
    locked.status, locked.handled_by, locked.handled_at = ForgetRequestStatus.DISMISSED, actor, timezone.now()
    locked.save(update_fields=["status", "handled_by", "handled_at"])
    audit_record(actor=actor, server=locked.server, action="memory.forget_request_dismiss", count=0,
                 result=f"request of {_member_label(locked.member_id, locked.member_name)} dismissed")
    return locked
