"""Every write to facts but their deletion (memory.facts.deletes), each kept as a version with who made it
(memory.facts.versions)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _, gettext_noop

from memory.configuration.selectors import channel_display_name, channel_is_public
from memory.indexing.vectors import queue_fact_embeddings
from memory.models import AUDIENCE_BREADTH, Audience, AuthorKind, Exchange, Fact, FactVersion, Scope, VersionChange
from memory.text.limits import clean_text, validate_content, validate_key, validate_unit_interval
from memory.text.sentence_case import in_sentence
from teams.models import Server
from teams.services import audit_change, audit_record, audit_change_said

from .held_back import held_back_refresh_around
from .validation import (  # noqa: F401 - the validators are imported from here too
    default_kind,
    validate_audience,
    validate_channel_id,
    validate_kind,
    validate_member_id,
)
from .inserting import fact_and_version_insert
from .versions import Actor, changed_fields, snapshot, version_new, version_record


@dataclass(frozen=True)
class FactAuthor:
    """Who writes a fact: a staff user, or the bot learning from a member's message."""

    kind: str
    user: AbstractBaseUser | None = None
    learned_from_member_id: str = ""

    @classmethod
    def staff(cls, user: AbstractBaseUser) -> FactAuthor:
        return cls(kind=AuthorKind.STAFF, user=user)

    @classmethod
    def bot(cls, learned_from_member_id: str) -> FactAuthor:
        return cls(kind=AuthorKind.BOT, learned_from_member_id=learned_from_member_id)


def fact_create(
    *,
    server: Server,
    author: FactAuthor,
    key: str,
    content: str,
    scope: str = Scope.SERVER,
    member_id: str = "",
    confidence: float = 1.0,
    importance: float | None = None,
    created_at: datetime | None = None,
    source_exchange: Exchange | None = None,
    audience: str = Audience.SERVER,
    source_channel_id: str = "",
    source_thread_id: str = "",
    kind: str | None = None,
    actor: Actor | None = None,
    replaces: Fact | None = None,
    also: Callable[[Fact], Sequence[tuple[str, list]]] | None = None,
) -> Fact:
    """Validate and store a new fact in force, with the next number of its server, and its first version (by
    `actor`, or whoever `author` says wrote it). A `channel` audience needs the channel (source_channel_id): the
    fact is then handed only to replies there and in its threads. `replaces`: the fact this one supersedes.
    `also`: given the fact validated but not yet written, more writes of the insert's own statement
    (memory.facts.inserting.fact_and_version_insert), as the bot's remember writes its contradiction flags."""
    if scope not in Scope.values:
        raise ValidationError({"scope": _("The scope must be 'server' or 'member'.")})
    audience = validate_audience(audience)
    kind = default_kind(scope) if kind is None else validate_kind(kind)
    source_channel_id = validate_channel_id(source_channel_id) if source_channel_id else ""
    source_thread_id = validate_channel_id(source_thread_id, "thread_id") if source_thread_id else ""
    if audience == Audience.CHANNEL and not source_channel_id:
        raise ValidationError({"audience": _("A fact for one channel needs that channel: choose it.")})
    if source_thread_id and not source_channel_id:
        raise ValidationError({"thread_id": _("A thread is named with the channel it was started in.")})
    fact = Fact(
        server=server,
        key=validate_key(key),
        content=validate_content(content),
        scope=scope,
        member_id=validate_member_id(member_id) if scope == Scope.MEMBER else "",
        confidence=validate_unit_interval(confidence, "confidence"),
        importance=validate_unit_interval(importance, "importance", allow_none=True),
        author_kind=author.kind,
        author_user=author.user,
        learned_from_member_id=author.learned_from_member_id,
        source_exchange=source_exchange,
        audience=audience,
        source_channel_id=source_channel_id,
        source_thread_id=source_thread_id,
        kind=kind,
    )
    moment = created_at or timezone.now()
    fact.created_at = fact.changed_at = fact.valid_from = moment
    by = actor or (Actor.staff(author.user) if author.kind == AuthorKind.STAFF
                   else Actor.bot(source_exchange, author.learned_from_member_id))
    version = version_new(fact, VersionChange.CREATE, by, {}, snapshot(fact), at=moment,
                          related_number=replaces.number if replaces is not None else None)
    # Validated above, outside the transaction; what is left is one statement (and a staff fact's audit row): inside
    # a caller's transaction (the bot's actions) a savepoint around it would cost two round trips and buy nothing.
    with transaction.atomic(savepoint=False):
        fact_and_version_insert(fact, version, also(fact) if also is not None else ())
        _queue_embedding(fact)
        if author.kind == AuthorKind.STAFF:
            # Staff without a panel account (on Discord) are named as the version names them.
            audit_record(actor=author.user, server=server, action="fact.create", target_ids=[fact.number], count=1,
                         fact_version=fact.version, actor_label=by.label if author.user is None else "")
    return fact


def _queue_embedding(fact: Fact) -> None:
    """Under Semantic, the written or rewritten fact is embedded by the worker once this commits."""
    queue_fact_embeddings(fact.server, [fact.pk])


@transaction.atomic
def fact_retract(*, fact: Fact, reason: str, superseded_by: Fact | None = None, at: datetime | None = None,
                 by: Actor | None = None, change: str = "") -> Fact:
    """Close the fact's validity window (Ledger sense); it stays on the page and can be restored. The version says
    who (`by`) and how: retracted, replaced by `superseded_by` (a supersession) or merged into it (change=MERGE)."""
    locked = locked_fact(fact)
    if locked.retracted_at is not None:
        raise ValidationError(_("Fact #%(number)s is already retracted.") % {"number": locked.number})
    if superseded_by is not None and superseded_by.server_id != locked.server_id:
        raise ValidationError(_("A fact can only be replaced by a fact of the same server."))
    if superseded_by is not None and superseded_by.pk == locked.pk:
        raise ValidationError(_("A fact cannot replace itself."))
    locked.retracted_at = at or timezone.now()
    locked.retraction_reason = clean_text(reason).strip()
    locked.superseded_by = superseded_by
    locked.held_back = False
    locked.version += 1
    locked.save(update_fields=["retracted_at", "retraction_reason", "superseded_by", "held_back", "version"])
    change = change or (VersionChange.SUPERSEDE if superseded_by is not None else VersionChange.RETRACT)
    version_record(locked, change, by or Actor.system("Lorekeeper"), reason=locked.retraction_reason,
                   related_number=superseded_by.number if superseded_by is not None else None, at=locked.retracted_at)
    held_back_refresh_around(locked)  # what it held back is handed over again (unless another flag holds it)
    return locked


class FactGone(Exception):
    """The fact was deleted since the caller read it (the panel answers 404)."""


class FactConflict(Exception):
    """Someone else changed the fact since the editor loaded it; `current` is what is stored now."""

    def __init__(self, current: Fact):
        super().__init__(f"Fact #{current.number} was changed by someone else.")
        self.current = current


def locked_fact(fact: Fact) -> Fact:
    """The fact, locked; FactGone when someone deleted it since the caller read it."""
    locked = Fact.objects.select_for_update().filter(pk=fact.pk).first()
    if locked is None:
        raise FactGone(f"Fact #{fact.number} was deleted meanwhile.")
    return locked


class _Unchanged:
    """fact_update's default for importance: callers that do not edit it leave it as it is."""


UNCHANGED = _Unchanged()


@transaction.atomic
def fact_update(
    *,
    fact: Fact,
    actor: AbstractBaseUser,
    expected_version: int,
    key: str,
    content: str,
    confidence: float,
    importance: float | None | _Unchanged = UNCHANGED,
    kind: str | _Unchanged = UNCHANGED,
) -> Fact:
    """Save an edit made from `expected_version`; raises FactConflict if the fact moved on meanwhile.
    Importance None makes the fact unscored (it ranks as middling)."""
    locked = locked_fact(fact)
    if locked.version != expected_version:
        raise FactConflict(locked)
    before = snapshot(locked)
    locked.key = validate_key(key)
    locked.content = validate_content(content)
    locked.confidence = validate_unit_interval(confidence, "confidence")
    if not isinstance(importance, _Unchanged):
        locked.importance = validate_unit_interval(importance, "importance", allow_none=True)
    if not isinstance(kind, _Unchanged):
        locked.kind = validate_kind(kind)
    locked.changed_at = timezone.now()
    locked.version += 1
    old, new = changed_fields(before, snapshot(locked))
    if not new:
        return fact_refreshed(fact)  # saved as it was: nothing to keep, nothing to audit
    locked.save(update_fields=["key", "content", "confidence", "importance", "kind", "changed_at", "version"])
    version = version_record(locked, VersionChange.EDIT, Actor.staff(actor), before=old, after=new,
                             at=locked.changed_at)
    _queue_embedding(locked)  # a wording already embedded is skipped by its hash
    audit_record(actor=actor, server=locked.server, action="fact.edit", target_ids=[locked.number], count=1,
                 result=f"version {version.version}: {', '.join(new)}", changes=_edit_changes(old, new),
                 fact_version=version.version)
    return locked


# How an edit reads in the audit log, which is never wiped: the wording and the key only as "changed", since they
# may be about a member whose memory a wipe must leave nothing of; the fact's page (linked) keeps the words.
# Stored in English (gettext_noop); the audit page shows them in the reader's language (memory_extras.stored_words).
_EDIT_LABELS = {"key": gettext_noop("Key"), "content": gettext_noop("Wording"),
                "confidence": gettext_noop("Confidence"), "importance": gettext_noop("Importance"),
                "kind": gettext_noop("Kind")}


def _edit_changes(old: dict, new: dict) -> list[dict[str, str]]:
    def shown(value: object) -> str:
        return gettext_noop("unscored") if value is None else (f"{value:g}" if isinstance(value, float) else str(value))

    return [audit_change_said(_EDIT_LABELS[name], gettext_noop("changed")) if name in ("key", "content")
            else audit_change(_EDIT_LABELS[name], shown(old[name]), shown(new[name])) for name in new]


def fact_refreshed(fact: Fact) -> Fact:
    return Fact.objects.select_related("server").get(pk=fact.pk)


@transaction.atomic
def fact_pin_set(*, fact: Fact, pinned: bool, actor: AbstractBaseUser) -> Fact:
    """Pin a fact in force (it then goes into every context, before the others and outside Maximum injected memory
    items, up to the pinned cap) or unpin it; audited. Only staff pin: the bot can neither pin nor change a pinned
    fact (memory.bot.actions). A retracted fact cannot be pinned."""
    locked = locked_fact(fact)
    if pinned and locked.retracted_at is not None:
        raise ValidationError({"pinned": _("Fact #%(number)s is retracted; restore it before pinning it.")
                                          % {"number": locked.number}})
    if locked.pinned == pinned:
        return locked
    locked.pinned = pinned
    locked.version += 1
    locked.save(update_fields=["pinned", "version"])
    version_record(locked, VersionChange.PIN if pinned else VersionChange.UNPIN, Actor.staff(actor),
                   before={"pinned": not pinned}, after={"pinned": pinned})
    held_back_refresh_around(locked)  # a pinned fact never gives way to the bot's newer one
    audit_record(actor=actor, server=locked.server, action="fact.pin" if pinned else "fact.unpin",
                 target_ids=[locked.number], count=1, fact_version=locked.version)
    return locked


class WideningNeedsConfirmation(Exception):
    """Staff asked to show a fact learned in a private channel more widely; the page asks them first."""

    def __init__(self, fact: Fact, channel_label: str):
        super().__init__(_("Fact #%(number)s was learned in %(channel)s, a private channel.")
                         % {"number": fact.number, "channel": channel_label})
        self.channel_label = channel_label


def _audience_label(audience: str, channel_label: str) -> str:
    with translation.override("en"):  # for the audit log, which is written once, in English
        return channel_label if audience == Audience.CHANNEL else in_sentence(Audience(audience).label)


@transaction.atomic
def fact_audience_set(*, fact: Fact, audience: str, actor: AbstractBaseUser, channel_id: str = "",
                      confirm_widening: bool = False) -> Fact:
    """Change who may see the fact; audited with old → new. A `channel` audience is the fact's source channel; only
    a fact learned nowhere (a staff fact) may be given one, with `channel_id`. Widening a fact learned in a channel
    that is not public raises WideningNeedsConfirmation unless `confirm_widening`."""
    audience = validate_audience(audience)
    locked = locked_fact(fact)
    if channel_id and locked.source_channel_id and channel_id != locked.source_channel_id:
        raise ValidationError({"channel_id": _("Fact #%(number)s was learned in another channel; a fact's channel "
                                               "is where it was learned.") % {"number": locked.number}})
    source_channel = locked.source_channel_id or (validate_channel_id(channel_id) if channel_id else "")
    if audience == Audience.CHANNEL and not source_channel:
        raise ValidationError({"channel_id": _("Choose the channel this fact is for.")})
    channel_label = channel_display_name(locked.server, source_channel)
    widening = AUDIENCE_BREADTH[audience] > AUDIENCE_BREADTH[locked.audience]
    learned_in_private = bool(locked.source_channel_id) and not channel_is_public(locked.server,
                                                                                  locked.source_channel_id)
    if widening and learned_in_private and not confirm_widening:
        raise WideningNeedsConfirmation(locked, channel_label)
    before = _audience_label(locked.audience, channel_label)
    if audience == locked.audience and source_channel == locked.source_channel_id:
        return locked
    old = snapshot(locked, ("audience", "source_channel_id"))
    locked.audience, locked.source_channel_id = audience, source_channel
    locked.source_deleted_at = None  # staff chose who sees it after its message was deleted: the flag has done its job
    locked.version += 1
    locked.save(update_fields=["audience", "source_channel_id", "source_deleted_at", "version"])
    old, new = changed_fields(old, snapshot(locked, ("audience", "source_channel_id")))
    version_record(locked, VersionChange.AUDIENCE, Actor.staff(actor), before=old, after=new)
    held_back_refresh_around(locked)  # a contradiction's newer side holds the older back only where it is seen
    audit_record(actor=actor, server=locked.server, action="fact.audience", target_ids=[locked.number], count=1,
                 result=f"{before} → {_audience_label(audience, channel_label)}", fact_version=locked.version,
                 changes=[audit_change("Audience", before, _audience_label(audience, channel_label))])
    return locked


def _retraction(fact: Fact) -> dict:
    """What a restore undoes, as its version keeps it: when and why it was retracted, and what replaced it."""
    return {"retracted_at": fact.retracted_at.isoformat() if fact.retracted_at else None,
            "retraction_reason": fact.retraction_reason,
            "superseded_by": fact.superseded_by.number if fact.superseded_by_id else None}


@transaction.atomic
def fact_restore(*, fact: Fact, actor: AbstractBaseUser) -> Fact:
    """Re-open a retracted fact; the fact that replaced it is deliberately left alone. Its version keeps when and
    why it had been retracted, so the fact's page still says so."""
    locked = locked_fact(fact)
    if locked.retracted_at is None:
        raise ValidationError(_("Fact #%(number)s is already in force.") % {"number": locked.number})
    before = _retraction(locked)
    now = timezone.now()
    locked.retracted_at, locked.retraction_reason, locked.superseded_by = None, "", None
    locked.source_deleted_at = None  # staff decided: no longer flagged as withdrawn after a deleted message
    locked.valid_from = locked.changed_at = now
    locked.version += 1
    locked.save(update_fields=["retracted_at", "retraction_reason", "superseded_by", "source_deleted_at",
                               "valid_from", "changed_at", "version"])
    version_record(locked, VersionChange.RESTORE, Actor.staff(actor), before=before, at=now)
    audit_record(actor=actor, server=locked.server, action="fact.restore", target_ids=[locked.number], count=1,
                 fact_version=locked.version)
    return locked


def facts_reopen(facts: list[Fact], *, server: Server, actor: AbstractBaseUser) -> None:
    """Re-open these retracted facts of the server (locked by the caller, superseded_by read with them) in one
    UPDATE and one INSERT of their versions, each keeping when and why it had been retracted; the caller audits."""
    now = timezone.now()
    for fact in facts:
        fact.restored_from = _retraction(fact)
        fact.retracted_at, fact.retraction_reason, fact.superseded_by = None, "", None
        fact.source_deleted_at = None
        fact.valid_from = fact.changed_at = now
        fact.version += 1
    Fact.objects.bulk_update(facts, ["retracted_at", "retraction_reason", "superseded_by", "source_deleted_at",
                                     "valid_from", "changed_at", "version"], batch_size=1000)
    FactVersion.objects.bulk_create([
        FactVersion(fact_id=fact.pk, server_id=server.pk, version=fact.version, change=VersionChange.RESTORE,
                    at=now, actor_kind=Actor.staff(actor).kind, actor_user=actor, actor_label=actor.get_username(),
                    before=fact.restored_from)
        for fact in facts
    ], batch_size=1000)


@transaction.atomic
def facts_restore_all(*, server: Server, actor: AbstractBaseUser) -> int:
    """Re-open every retracted fact of the server; a version each, one audit row with the count."""
    retracted = list(Fact.objects.select_for_update(of=("self",)).select_related("superseded_by")
                     .filter(server=server, retracted_at__isnull=False))
    facts_reopen(retracted, server=server, actor=actor)
    restored = len(retracted)
    audit_record(actor=actor, server=server, action="facts.restore_all", count=restored,
                 result=f"{restored} retracted facts restored")
    return restored


class VersionNoLongerApplies(Exception):
    """The fact changed since the version an undo names; `current` is what it says now (the page shows it)."""

    def __init__(self, current: Fact):
        super().__init__(f"Fact #{current.number} changed since; it now says: {current.content}")
        self.current = current


# The changes a person may undo from a fact's timeline: a staff edit (its key, wording, confidence, importance or
# kind). An audience, a pin, a retraction or a merge has its own way back (change it again, unpin, restore).
UNDOABLE = (VersionChange.EDIT,)
_EDITABLE_FIELDS = {"key": validate_key, "content": validate_content,
                    "confidence": lambda value: validate_unit_interval(value, "confidence"),
                    "importance": lambda value: validate_unit_interval(value, "importance", allow_none=True),
                    "kind": validate_kind}


@transaction.atomic
def fact_version_undo(*, version: FactVersion, actor: AbstractBaseUser) -> Fact:
    """Put back what an edit replaced, as a new version of its own (nothing is rewritten in the history).
    Refused with VersionNoLongerApplies when the fact no longer says what the edit made it say."""
    if version.change not in UNDOABLE:
        raise ValidationError(_("A change of this kind (%(change)s) cannot be undone from the history.")
                              % {"change": in_sentence(version.get_change_display())})
    locked = locked_fact(version.fact)
    if snapshot(locked, version.after) != version.after:
        raise VersionNoLongerApplies(locked)
    for field, value in version.before.items():
        setattr(locked, field, _EDITABLE_FIELDS[field](value))
    locked.changed_at = timezone.now()
    locked.version += 1
    locked.save(update_fields=[*version.before, "changed_at", "version"])
    undo = version_record(locked, VersionChange.UNDO, Actor.staff(actor), before=version.after, after=version.before,
                          undoes=version, at=locked.changed_at)
    _queue_embedding(locked)
    audit_record(actor=actor, server=locked.server, action="fact.undo", target_ids=[locked.number], count=1,
                 result=f"version {undo.version} undoes version {version.version}", fact_version=undo.version)
    return locked


@transaction.atomic
def fact_retract_by_staff(*, fact: Fact, reason: str, actor: AbstractBaseUser | None, by: Actor | None = None
                          ) -> Fact:
    """Staff retract a fact in force from its row, as the bot can (Ledger and up: the page offers it there);
    audited, and kept as a version with the reason. `by`: staff without a panel account (Actor.discord_user)."""
    reason = clean_text(reason).strip()
    if not reason:
        raise ValidationError({"reason": _("Say why the fact no longer holds; the reason stays on its page.")})
    by = by or Actor.staff(actor)
    retracted = fact_retract(fact=fact, reason=reason, by=by)
    audit_record(actor=actor, server=retracted.server, action="fact.retract", target_ids=[retracted.number],
                 count=1, result=reason[:200], fact_version=retracted.version,
                 actor_label=by.label if actor is None else "")
    return retracted
