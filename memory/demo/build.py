"""Build the demo: teams Demo and Other, users admin/viewer/other, and two servers with memory."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from memory.configuration.services import memory_type_set
from memory.facts.services import FactAuthor, fact_create, fact_retract
from memory.facts.summary import summary_set
from memory.models import Fact, MemoryType
from teams.models import Server, Team
from teams.services import configure_grant, membership_add, server_create, team_create

from .data import DEMO_FACTS, DEMO_GUILD_ID, DEMO_OTHER_SERVER_FACTS, DEMO_RETRACTIONS, DEMO_SUMMARY

OTHER_GUILD_ID = "100000000000000002"
DEMO_USERS = {"admin": "admin", "viewer": "viewer", "other": "other"}


def _user(username: str, *, superuser: bool = False):
    user_model = get_user_model()
    user = user_model.objects.filter(username=username).first()
    if user is None:
        user = user_model(username=username, is_staff=superuser, is_superuser=superuser)
        user.set_password(DEMO_USERS[username])
        user.save()
    return user


def _team(name: str) -> Team:
    return Team.objects.filter(name=name).first() or team_create(name=name)


def _server(team: Team, guild_id: str, name: str) -> Server:
    return Server.objects.filter(guild_id=guild_id).first() or server_create(team=team, guild_id=guild_id, name=name)


def _create_fact(server: Server, row: dict, staff_user, now) -> Fact:
    author = FactAuthor.staff(staff_user) if row["author"] == "staff" else FactAuthor.bot(row["learned_from"])
    return fact_create(
        server=server,
        author=author,
        key=row["key"],
        content=row["content"],
        scope=row["scope"],
        member_id=row["member_id"] or "",
        confidence=row["confidence"],
        importance=row["importance"],
        created_at=now - timedelta(days=row["days_ago"]),
    )


@transaction.atomic
def demo_load() -> bool:
    """Create whatever part of the demo is missing; returns False when it was all there already."""
    admin, viewer, other = _user("admin", superuser=True), _user("viewer"), _user("other")
    demo_team, other_team = _team("Demo"), _team("Other")
    membership_add(team=demo_team, user=admin)
    membership_add(team=demo_team, user=viewer)
    membership_add(team=other_team, user=other)
    arcade = _server(demo_team, DEMO_GUILD_ID, "Retro Arcade")
    synth = _server(other_team, OTHER_GUILD_ID, "Synth Lab")
    configure_grant(server=arcade, user=admin)
    configure_grant(server=synth, user=other)

    if Fact.objects.filter(server__in=[arcade, synth]).exists():
        return False
    now = timezone.now()
    by_key = {row["key"]: _create_fact(arcade, row, admin, now) for row in DEMO_FACTS}
    for row in DEMO_RETRACTIONS:
        old = _create_fact(arcade, row, admin, now)
        replacement = by_key.get(row["replaced_by_key"]) if row["replaced_by_key"] else None
        fact_retract(
            fact=old,
            reason=row["reason"],
            superseded_by=replacement,
            at=now - timedelta(days=row["retracted_days_ago"]),
        )
    for row in DEMO_OTHER_SERVER_FACTS:
        _create_fact(synth, row, other, now)
    summary_set(server=arcade, content=DEMO_SUMMARY, author=FactAuthor.staff(admin))
    summary_set(
        server=synth,
        content="Synth Lab is a community for synthesizer enthusiasts; replies are precise and technical.",
        author=FactAuthor.staff(other),
    )
    # Synth Lab shows Semantic out of the box: the built-in local model embeds its facts (the worker's
    # catch-up round, queued when this commits), so "sound design tips" finds the headroom advice.
    memory_type_set(server=synth, actor=other, memory_type=MemoryType.SEMANTIC)
    return True
