"""Work on many facts at once (issue 25): staff select rows on the memory page and retract, restore, delete, or set
the confidence, importance, kind or audience of all of them. One service call, one transaction, one audit row with the
count: every selected fact is checked first, and one that cannot take the change refuses the whole change with a
sentence naming it, so nothing is half done. Each fact still keeps a version of its own change."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.template.defaultfilters import pluralize
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from memory.configuration.selectors import ai_settings_for_server, channel_is_public
from memory.models import Audience, Fact, VersionChange
from memory.text.limits import clean_text, validate_unit_interval
from memory.types import profile_for
from teams.models import Server
from teams.services import audit_record

from .deletes import facts_delete_many
from .held_back import held_back_refresh_around
from .services import fact_retract, facts_reopen
from .validation import validate_audience, validate_kind
from .versions import Actor, changed_fields, snapshot, version_record

BULK_MAX_FACTS = 500  # more than a page of the memory page (100), less than one statement should lock

RETRACT, RESTORE, DELETE = "retract", "restore", "delete"
CONFIDENCE, IMPORTANCE, KIND, AUDIENCE = "confidence", "importance", "kind", "audience"
ACTIONS = {RETRACT: "retracted", RESTORE: "restored", DELETE: "deleted", CONFIDENCE: "given confidence",
           IMPORTANCE: "given importance", KIND: "given the kind", AUDIENCE: "given the audience"}
_FIELD_OF = {CONFIDENCE: "confidence", IMPORTANCE: "importance", KIND: "kind", AUDIENCE: "audience"}


def _numbers_named(facts: Iterable[Fact]) -> str:
    numbers = [f"#{fact.number}" for fact in facts]
    shown = ", ".join(numbers[:10])
    if len(numbers) <= 10:
        return shown
    return _("%(numbers)s and %(count)s more") % {"numbers": shown, "count": len(numbers) - 10}


def _locked(server: Server, numbers: list[int]) -> list[Fact]:
    if not numbers:
        raise ValidationError(_("Select at least one fact."))
    if len(numbers) > BULK_MAX_FACTS:
        raise ValidationError(_("Select at most %(count)s facts at once; nothing was changed.")
                              % {"count": BULK_MAX_FACTS})
    facts = list(Fact.objects.select_for_update(of=("self",)).select_related("server", "superseded_by")
                 .filter(server=server, number__in=numbers).order_by("number"))
    missing = sorted(set(numbers) - {fact.number for fact in facts})
    if missing:
        gone = ", ".join(f"#{number}" for number in missing[:10])
        raise ValidationError(ngettext("%(numbers)s is no longer on this server (someone deleted it); nothing was "
                                       "changed.",
                                       "%(numbers)s are no longer on this server (someone deleted them); nothing was "
                                       "changed.", len(missing)) % {"numbers": gone})
    return facts


def _value(action: str, value: object) -> object:
    """The new value of a field change, validated; ValidationError with the sentence otherwise."""
    if action in (CONFIDENCE, IMPORTANCE):
        if value in (None, ""):
            if action == IMPORTANCE:
                return None  # unscored: ranked as middling
            raise ValidationError(_("Give the confidence, a number from 0 to 1."))
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValidationError(_("The confidence is a number from 0 to 1.") if action == CONFIDENCE
                                  else _("The importance is a number from 0 to 1.")) from None
        return validate_unit_interval(number, action)
    if action == KIND:
        return validate_kind(value)
    return validate_audience(value)


def _check_audience(facts: list[Fact], audience: str) -> None:
    if audience == Audience.CHANNEL and (nowhere := [fact for fact in facts if not fact.source_channel_id]):
        raise ValidationError(ngettext("%(numbers)s was learned in no channel, so cannot be kept to one; nothing was "
                                       "changed.",
                                       "%(numbers)s were learned in no channel, so cannot be kept to one; nothing was "
                                       "changed.", len(nowhere)) % {"numbers": _numbers_named(nowhere)})
    if audience == Audience.SERVER:
        private = [fact for fact in facts if fact.audience != Audience.SERVER and fact.source_channel_id
                   and not channel_is_public(fact.server, fact.source_channel_id)]
        if private:
            raise ValidationError(ngettext(
                "%(numbers)s was learned in a channel that is not public: widen each on its own row, which asks "
                "first; nothing was changed.",
                "%(numbers)s were learned in a channel that is not public: widen each on its own row, which asks "
                "first; nothing was changed.", len(private)) % {"numbers": _numbers_named(private)})


def _set_field(facts: list[Fact], action: str, value: object, actor: Actor) -> list[Fact]:
    """Set one field on every fact (those that already hold the value are left alone); a version each."""
    field = _FIELD_OF[action]
    changed = []
    now = timezone.now()
    for fact in facts:
        if getattr(fact, field) == value:
            continue
        before = snapshot(fact, (field,))
        setattr(fact, field, value)
        fact.version += 1
        update = [field, "version"]
        if action == AUDIENCE:
            fact.source_deleted_at = None  # staff chose who sees it (see memory.learning.deletions)
            update.append("source_deleted_at")
        else:
            fact.changed_at = now
            update.append("changed_at")
        fact.save(update_fields=update)
        old, new = changed_fields(before, snapshot(fact, (field,)))
        version_record(fact, VersionChange.AUDIENCE if action == AUDIENCE else VersionChange.EDIT, actor,
                       before=old, after=new, at=now)
        if action == AUDIENCE:
            held_back_refresh_around(fact)  # a contradiction's newer side holds the older back where it is seen
        changed.append(fact)
    return changed


@transaction.atomic
def facts_bulk_change(*, server: Server, numbers: list[int], action: str, actor: AbstractBaseUser,
                      value: object = None, reason: str = "") -> int:
    """Apply one change to the selected facts, all or nothing; returns how many facts changed (facts that already
    were as asked are counted out). ValidationError says what refused it; then nothing changed."""
    if action not in ACTIONS:
        raise ValidationError(_("Choose what to do with the selected facts."))
    facts = _locked(server, sorted(set(numbers)))
    detail = ""
    if action in (RETRACT, RESTORE, DELETE):
        changed = _state_change(server, facts, action, actor, reason)
        detail = f": {clean_text(reason).strip()[:150]}" if action == RETRACT else ""
    else:
        value = _value(action, value)
        if action == AUDIENCE:
            _check_audience(facts, value)
        changed = _set_field(facts, action, value, Actor.staff(actor))
        shown = "unscored" if value is None else (f"{value:g}" if isinstance(value, float) else value)
        detail = f" {shown}"
    count = len(changed)
    audit_record(actor=actor, server=server, action=f"facts.bulk_{action}", target_ids=[f.number for f in changed],
                 count=count, result=f"{count} fact{pluralize(count)} {ACTIONS[action]}{detail}")
    return count


def _state_change(server: Server, facts: list[Fact], action: str, actor: AbstractBaseUser, reason: str
                  ) -> list[Fact]:
    if action == DELETE:
        numbers, _deleted = facts_delete_many(server, Fact.objects.filter(pk__in=[fact.pk for fact in facts]),
                                       reason="deleted by staff (many at once)", note="deleted by staff")
        return [fact for fact in facts if fact.number in set(numbers)]
    if action == RESTORE:
        in_force = [fact for fact in facts if fact.retracted_at is None]
        if in_force:
            raise ValidationError(ngettext("%(numbers)s is in force, not retracted; nothing was restored.",
                                           "%(numbers)s are in force, not retracted; nothing was restored.",
                                           len(in_force)) % {"numbers": _numbers_named(in_force)})
        facts_reopen(facts, server=server, actor=actor)
        return facts
    if profile_for(ai_settings_for_server(server).memory_type).retract_deletes:
        raise ValidationError(_("This server's memory type (Classic) keeps no retracted facts: delete them instead."))
    retracted = [fact for fact in facts if fact.retracted_at is not None]
    if retracted:
        raise ValidationError(ngettext("%(numbers)s is already retracted; nothing was retracted.",
                                       "%(numbers)s are already retracted; nothing was retracted.",
                                       len(retracted)) % {"numbers": _numbers_named(retracted)})
    if not clean_text(reason).strip():
        raise ValidationError(_("Say why these facts no longer hold; the reason stays on each fact's page."))
    return [fact_retract(fact=fact, reason=reason, by=Actor.staff(actor)) for fact in facts]
