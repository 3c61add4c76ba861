"""Every write to teams, memberships, servers, permissions, Discord bots, bot tokens and the audit log."""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from guardian.shortcuts import assign_perm, remove_perm

from .models import AuditEntry, BotToken, DiscordBot, Membership, Server, ServerUserObjectPermission, Team
from .permissions import CONFIGURE_SERVER, VIEW_SERVER

BOT_TOKEN_PREFIX = "lk_"
SERVER_NAME_MAX = 100  # Server.name

logger = logging.getLogger(__name__)


# Audit -----------------------------------------------------------------------


def audit_change(field: str, old: str, new: str) -> dict[str, str]:
    """One changed field as the audit page lists it: its label as staff read it, old → new (both already short).
    A label marked for translation is kept as text (the JSON column cannot hold it lazily)."""
    return {"field": str(field), "old": str(old), "new": str(new)}


def audit_change_said(field: str, said: str) -> dict[str, str]:
    """A change told only by what happened ("set", "changed", "removed"), never its values: a secret, or words
    that the append-only log must not keep (a fact's wording may be about a member a wipe removes)."""
    return {"field": str(field), "said": str(said)}


def audit_changes_text(changes: Iterable[dict[str, str]]) -> str:
    """The changes as one line ("Label: old → new; API key: changed"), for the result column and the admin."""
    return "; ".join(f"{change['field']}: {change['said']}" if "said" in change
                     else f"{change['field']}: {change['old']} → {change['new']}" for change in changes)


def discord_user_label(user_id: str, name: str) -> str:
    """Who did it, for an audit row or a fact version, when a Discord user did it (a staff slash command): no
    panel account is theirs, so the row names them as Discord showed them, with their id."""
    return f"Discord user {name} ({user_id})"


def discord_bot_label(bot: DiscordBot) -> str:
    """The actor of what a Discord bot did by itself (a server it joined or left)."""
    return f"Discord bot {bot.application_id}"


def audit_record(
    *,
    actor: AbstractBaseUser | None,
    action: str,
    server: Server | None = None,
    target_ids: Iterable[int] = (),
    count: int = 0,
    result: str = "",
    actor_label: str = "",
    changes: Iterable[dict[str, str]] = (),
    fact_version: int | None = None,
) -> AuditEntry:
    """Append one audit row; it can never be changed or removed afterwards. `changes` (audit_change,
    audit_change_said) are what the audit page lists; `fact_version` is the version of the first target fact
    this change made, which the page links to."""
    label = actor_label or (actor.get_username() if actor is not None else "system")
    return AuditEntry.objects.create(
        actor=actor,
        actor_label=label,
        server=server,
        action=action,
        target_ids=list(target_ids),
        count=count,
        result=result,
        changes=list(changes),
        fact_version=fact_version,
    )


# Teams and memberships ---------------------------------------------------------


@transaction.atomic
def team_create(*, name: str) -> Team:
    """Create a team with no members and no servers."""
    team = Team(name=name.strip())
    team.full_clean()
    team.save()
    return team


@transaction.atomic
def membership_add(*, team: Team, user: AbstractBaseUser) -> Membership:
    """Make the user a member; they can view every server of the team from now on."""
    membership, _ = Membership.objects.get_or_create(team=team, user=user)
    for server in team.servers.all():
        assign_perm(VIEW_SERVER, user, server)
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """End a membership; the user loses view and configure on every server of the team."""
    user, team = membership.user, membership.team
    membership.delete()
    _revoke_all_server_permissions(user=user, servers=team.servers.all())


def _revoke_all_server_permissions(*, user: AbstractBaseUser, servers) -> None:
    ServerUserObjectPermission.objects.filter(user=user, content_object__in=servers).delete()


# Servers -----------------------------------------------------------------------


@transaction.atomic
def server_create(*, team: Team, guild_id: str, name: str) -> Server:
    """Create a server owned by the team; every member of the team can view it at once."""
    server = Server(team=team, guild_id=guild_id.strip(), name=name.strip())
    server.full_clean()
    server.save()
    server_sync_permissions(server=server)
    return server


@transaction.atomic
def server_sync_permissions(*, server: Server) -> None:
    """Make object permissions match ownership: members of the owning team view it, nobody else
    keeps any permission on it (used after a server is created or moved to another team)."""
    member_ids = set(server.team.memberships.values_list("user_id", flat=True))
    ServerUserObjectPermission.objects.filter(content_object=server).exclude(user_id__in=member_ids).delete()
    for membership in server.team.memberships.select_related("user"):
        assign_perm(VIEW_SERVER, membership.user, server)


@transaction.atomic
def configure_grant(*, server: Server, user: AbstractBaseUser) -> None:
    """Let a member of the owning team change the server's memory and AI settings."""
    if not Membership.objects.filter(team_id=server.team_id, user=user).exists():
        raise ValidationError(f"{user} is not a member of {server.team}; add them to the team first.")
    assign_perm(CONFIGURE_SERVER, user, server)


@transaction.atomic
def configure_revoke(*, server: Server, user: AbstractBaseUser) -> None:
    """Take configure away; the user keeps viewing while they stay in the team."""
    remove_perm(CONFIGURE_SERVER, user, server)


# Bot tokens --------------------------------------------------------------------


def bot_token_hash(token: str) -> str:
    # Tokens are 256 random bits, so a fast hash is enough: there is nothing to brute-force.
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def bot_token_issue(*, team: Team, name: str = "", created_by: AbstractBaseUser | None = None) -> tuple[BotToken, str]:
    """Create a token for the team. The plaintext is returned once and never stored."""
    plaintext = BOT_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = BotToken.objects.create(
        team=team,
        name=name,
        prefix=plaintext[:10],
        token_hash=bot_token_hash(plaintext),
        created_by=created_by,
    )
    audit_record(actor=created_by, action="bot_token.issue", target_ids=[token.pk], result=f"team {team.name}")
    return token, plaintext


@transaction.atomic
def bot_token_revoke(*, token: BotToken, revoked_by: AbstractBaseUser | None = None) -> None:
    """Stop the token from authenticating, at once; revoking twice is harmless."""
    updated = BotToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    token.refresh_from_db(fields=["revoked_at"])
    if updated:
        audit_record(actor=revoked_by, action="bot_token.revoke", target_ids=[token.pk], result=f"team {token.team}")


def bot_token_mark_used(*, token: BotToken) -> None:
    """Record use at most once a minute, so authentication does not write on every request."""
    now = timezone.now()
    if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
        BotToken.objects.filter(pk=token.pk).update(last_used_at=now)


# Discord bots and the servers they join -------------------------------------------


@transaction.atomic
def discord_bot_register(*, team: Team, application_id: str) -> DiscordBot:
    """The team's bot installation for this Discord application: the one registered (for this team), or a new
    one, audited. An application registered for another team is refused (ValidationError), nothing changed."""
    bot = DiscordBot.objects.select_related("team").filter(application_id=application_id).first()
    if bot is not None:
        if bot.team_id != team.pk:
            raise ValidationError(f"Discord application {application_id} is registered for team {bot.team}; run "
                                  f"the bot with --team {bot.team} or change the team in admin (Discord bots).")
        return bot
    bot = DiscordBot(team=team, application_id=application_id)
    bot.full_clean()
    bot.save()
    audit_record(actor=None, actor_label=discord_bot_label(bot), action="discord_bot.register",
                 target_ids=[bot.pk], result=f"team {team.name}")
    return bot


class GuildJoin:
    """What joining a guild did to its server: created it, cleared its left mark, found it as it was, or found it
    owned by another team (left alone)."""

    CREATED = "created"
    REJOINED = "rejoined"
    KNOWN = "known"
    OTHER_TEAM = "other team"


@dataclass(frozen=True)
class GuildJoined:
    outcome: str
    server: Server | None  # None: the guild is another team's server


def _guild_name(name: str, guild_id: str) -> str:
    # PostgreSQL refuses NUL; Discord's names are 2-100 characters, but a missing one must not stop the join.
    return name.replace("\x00", "").strip()[:SERVER_NAME_MAX] or f"Discord server {guild_id}"


def server_join_by_bot(*, bot: DiscordBot, guild_id: str, name: str) -> GuildJoined:
    """The bot is in the guild: a guild without a server becomes the bot's team's server (named as in Discord), a
    server marked as left is back; both audited as the bot. Another team's server is left alone (logged)."""
    try:
        with transaction.atomic():
            return _server_join(bot=bot, guild_id=guild_id, name=name)
    except IntegrityError:  # another bot process created it first: take it as found
        with transaction.atomic():
            return _server_join(bot=bot, guild_id=guild_id, name=name)


def _server_join(*, bot: DiscordBot, guild_id: str, name: str) -> GuildJoined:
    server = Server.objects.select_for_update().filter(guild_id=guild_id).first()
    if server is not None and server.team_id != bot.team_id:
        logger.warning("Guild %s is a server of another team (%s); Discord bot %s leaves it alone.", guild_id,
                       server.team_id, bot.application_id)
        return GuildJoined(GuildJoin.OTHER_TEAM, None)
    if server is None:
        server = server_create(team=bot.team, guild_id=guild_id, name=_guild_name(name, guild_id))
        audit_record(actor=None, actor_label=discord_bot_label(bot), action="server.join", server=server,
                     target_ids=[server.pk], result=f"Added for team {bot.team.name}: the bot joined the guild.")
        return GuildJoined(GuildJoin.CREATED, server)
    if server.left_at is None:
        return GuildJoined(GuildJoin.KNOWN, server)
    left_at, server.left_at = server.left_at, None
    server.save(update_fields=["left_at"])
    audit_record(actor=None, actor_label=discord_bot_label(bot), action="server.rejoin", server=server,
                 target_ids=[server.pk], changes=[audit_change("Left the guild", f"{left_at:%Y-%m-%d %H:%M} UTC",
                                                               "no")])
    return GuildJoined(GuildJoin.REJOINED, server)


@transaction.atomic
def server_leave_by_bot(*, bot: DiscordBot, guild_id: str) -> Server | None:
    """The bot was removed from the guild: its server (of the bot's team) is marked as left, audited; memory is
    kept and nothing is deleted. None when the guild is no server of the team or was already left."""
    server = Server.objects.select_for_update().filter(guild_id=guild_id, team_id=bot.team_id).first()
    if server is None or server.left_at is not None:
        return None
    server.left_at = timezone.now()
    server.save(update_fields=["left_at"])
    audit_record(actor=None, actor_label=discord_bot_label(bot), action="server.leave", server=server,
                 target_ids=[server.pk], result="The bot left the guild; the memory is kept.")
    return server
