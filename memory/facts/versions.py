"""Who changed a fact, and the version each change leaves (memory.models.FactVersion): every service that changes
a fact records one here, in its own transaction, so a fact's history is never missing a step."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from memory.models import ActorKind, Exchange, Fact, FactVersion
from teams.services import discord_user_label

# What a version keeps of a fact: the fields a person reads on its page, and that an undo may put back.
TRACKED_FIELDS = ("key", "content", "confidence", "importance", "kind", "audience", "source_channel_id", "pinned",
                  "scope", "member_id")


@dataclass(frozen=True)
class Actor:
    """Who made a change: a staff user, the bot in an exchange (learning from its member), a consolidation round,
    a member through their own command, or Lorekeeper itself (an import)."""

    kind: str
    user: AbstractBaseUser | None = None
    label: str = ""
    exchange: Exchange | None = None
    member_id: str = ""
    round_id: int | None = None

    @classmethod
    def staff(cls, user: AbstractBaseUser | None) -> Actor:
        return cls(kind=ActorKind.STAFF, user=user, label=user.get_username() if user is not None else "staff")

    @classmethod
    def discord_user(cls, user_id: str, name: str) -> Actor:
        """Staff on Discord (a staff slash command): no panel account, named as Discord showed them."""
        return cls(kind=ActorKind.STAFF, label=discord_user_label(user_id, name))

    @classmethod
    def bot(cls, exchange: Exchange | None, member_id: str = "") -> Actor:
        member = exchange.author_id if exchange is not None else member_id
        return cls(kind=ActorKind.BOT, exchange=exchange, member_id=member,
                   label=f"the bot, from member {member}" if member else "the bot")

    @classmethod
    def round(cls, round_id: int | None, user: AbstractBaseUser | None = None) -> Actor:
        who = f", accepted by {user.get_username()}" if user is not None else ""
        return cls(kind=ActorKind.ROUND, user=user, round_id=round_id,
                   label=f"consolidation round {round_id}{who}" if round_id else f"a consolidation proposal{who}")

    @classmethod
    def member(cls, member_id: str, name: str = "") -> Actor:
        return cls(kind=ActorKind.MEMBER, member_id=member_id,
                   label=f"member {member_id} ({name})" if name else f"member {member_id}")

    @classmethod
    def system(cls, label: str) -> Actor:
        return cls(kind=ActorKind.SYSTEM, label=label)


def snapshot(fact: Fact, fields: Iterable[str] = TRACKED_FIELDS) -> dict:
    return {field: getattr(fact, field) for field in fields}


def changed_fields(before: dict, after: dict) -> tuple[dict, dict]:
    """Only what differs, on both sides."""
    names = [name for name in after if before.get(name) != after[name]]
    return {name: before.get(name) for name in names}, {name: after[name] for name in names}


def version_new(fact: Fact, change: str, actor: Actor, before: dict, after: dict, *, reason: str = "",
             related_number: int | None = None, undoes: FactVersion | None = None,
             at: datetime | None = None) -> FactVersion:
    """The version of one change, unsaved (memory.facts.inserting writes a new fact's first one with the fact)."""
    return FactVersion(
        fact_id=fact.pk, server_id=fact.server_id, version=fact.version, change=change, at=at or timezone.now(),
        actor_kind=actor.kind, actor_user=actor.user, actor_label=actor.label[:200], exchange=actor.exchange,
        member_id=actor.member_id, round_id=actor.round_id, related_number=related_number, before=before,
        after=after, reason=reason, undoes=undoes,
    )


def version_record(fact: Fact, change: str, actor: Actor, *, before: dict | None = None, after: dict | None = None,
                   reason: str = "", related_number: int | None = None, undoes: FactVersion | None = None,
                   at: datetime | None = None) -> FactVersion:
    """Keep one change of `fact` (already saved at its new version)."""
    version = version_new(fact, change, actor, before or {}, after or {}, reason=reason, related_number=related_number,
                       undoes=undoes, at=at)
    version.save(force_insert=True)
    return version
