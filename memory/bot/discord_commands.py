"""The Discord adapter's slash commands, all answered ephemerally (only the one who asked sees the answer).
Members: `/memory me` shows what the bot knows about them, `/memory forget-me` asks it to forget them. Staff with
Discord's Manage Server permission: `/memory remember key content` writes a staff fact, `/memory forget number`
takes one back as staff do on the memory page (retracted, restorable, from Ledger up; deleted under Classic); both
audited as the Discord user, who has no panel account.

As in memory.bot.discord, the answers are plain functions (tested without a network), the database side is
synchronous and reached through `in_django` (the adapter's database threads), and the handlers only wire the two to
Discord's interaction. A command looks only at the bot's team's server of the guild.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord
from discord import app_commands
from django.core.exceptions import ValidationError

from memory.configuration.selectors import ai_settings_for_server, channel_names
from memory.facts.deletes import fact_delete
from memory.facts.forget_requests import ForgetOutcome, forget_me
from memory.facts.selectors import fact_by_number, member_facts
from memory.facts.services import FactAuthor, fact_create, fact_retract_by_staff
from memory.facts.versions import Actor
from memory.models import Audience, AuthorKind, Fact, ForgetRequestVia
from memory.types import profile_for
from teams.services import discord_user_label

from .discord_concurrency import in_django
from .discord_servers import guild_server

logger = logging.getLogger(__name__)

DISCORD_MESSAGE_LIMIT = 2000
FAILED = "Something went wrong and nothing was changed; please try again later."
NO_SERVER = "Lorekeeper keeps no memory for this server."
NOTHING_KNOWN = "I don't remember anything about you on this server."
ABOUT_TITLE = "What I know about you"
LEARNED_TITLE = "What I learned from your messages"
STAFF_ONLY = "Only members with the Manage Server permission can change what the bot remembers; nothing was changed."
FACT_NUMBER_MAX = 2**31 - 1  # Fact.number


# Answers (no network, no database) ------------------------------------------------------


def audience_label(fact: Fact, names: dict[str, str]) -> str:
    """Who may see the fact, in the member's words: everyone here, one channel (by name when reported), staff."""
    if fact.audience == Audience.CHANNEL:
        name = names.get(fact.source_channel_id)
        return f"only in #{name}" if name else f"only in channel {fact.source_channel_id}"
    if fact.audience == Audience.STAFF:
        return "staff only"
    return "whole server"


def _fact_line(fact: Fact, names: dict[str, str]) -> str:
    return f"• [#{fact.number}] {fact.content} ({audience_label(fact, names)})"


def _left_out(count: int) -> str:
    return f"… and {count} more."


def member_facts_text(about: list[Fact], learned_from: list[Fact], names: dict[str, str], *,
                      limit: int = DISCORD_MESSAGE_LIMIT) -> str:
    """The `/memory me` answer: both lists with each fact's audience, newest first, within one Discord message;
    what does not fit is counted ("… and 12 more.")."""
    if not about and not learned_from:
        return NOTHING_KNOWN
    lines: list[tuple[str, bool]] = []  # (line, whether it is a fact)
    for title, facts in ((ABOUT_TITLE, about), (LEARNED_TITLE, learned_from)):
        if facts:
            lines.append((f"**{title}** ({len(facts)})", False))
            lines += [(_fact_line(fact, names), True) for fact in facts]
    everything = "\n".join(line for line, _ in lines)
    if len(everything) <= limit:
        return everything
    total = len(about) + len(learned_from)
    room = limit - len("\n" + _left_out(total))
    kept: list[str] = []
    shown = 0
    for line, is_fact in lines:
        if len("\n".join([*kept, line])) > room:
            break
        kept.append(line)
        shown += is_fact
    return "\n".join([*kept, _left_out(total - shown)])


def forget_me_text(outcome: ForgetOutcome) -> str:
    """The `/memory forget-me` answer: what was done, or that staff have the request."""
    if outcome.wiped:
        facts = f"{outcome.facts_removed} fact{'s' if outcome.facts_removed != 1 else ''}"
        return f"Done: I forgot what I knew about you on this server ({facts}) and our conversations."
    asked = int(outcome.request.requested_at.timestamp())
    return (f"Your request to be forgotten is with this server's staff (asked <t:{asked}:R>); they decide on "
            "Lorekeeper's memory page. Nothing has been removed yet.")


# The database side (synchronous; called through in_django) ---------------------------------


@dataclass(frozen=True)
class MemberMemory:
    about: list[Fact]
    learned_from: list[Fact]
    channel_names: dict[str, str]


def member_memory_in_guild(guild_id: str, team_id: int, member_id: str) -> MemberMemory | None:
    """What the bot knows about the member on the guild's server (None for a guild without one)."""
    server = guild_server(guild_id, team_id)
    if server is None:
        return None
    about, learned_from = member_facts(server, member_id)
    return MemberMemory(about=about, learned_from=learned_from, channel_names=channel_names(server))


def forget_me_in_guild(guild_id: str, team_id: int, member_id: str, member_name: str) -> ForgetOutcome | None:
    server = guild_server(guild_id, team_id)
    if server is None:
        return None
    return forget_me(server=server, member_id=member_id, member_name=member_name, via=ForgetRequestVia.DISCORD)


def memory_me_answer(guild_id: str, team_id: int, member_id: str) -> str:
    memory = member_memory_in_guild(guild_id, team_id, member_id)
    if memory is None:
        return NO_SERVER
    return member_facts_text(memory.about, memory.learned_from, memory.channel_names)


def forget_me_answer(guild_id: str, team_id: int, member_id: str, member_name: str) -> str:
    outcome = forget_me_in_guild(guild_id, team_id, member_id, member_name)
    return NO_SERVER if outcome is None else forget_me_text(outcome)


def staff_remember_answer(guild_id: str, team_id: int, user_id: str, user_name: str, key: str, content: str) -> str:
    """`/memory remember`: a staff fact for the whole server, as the panel's Add writes one, by the Discord user."""
    server = guild_server(guild_id, team_id)
    if server is None:
        return NO_SERVER
    try:
        fact = fact_create(server=server, author=FactAuthor(kind=AuthorKind.STAFF), key=key, content=content,
                           actor=Actor.discord_user(user_id, user_name))
    except ValidationError as refused:
        return f"Nothing was remembered: {' '.join(refused.messages)}"
    return f"Remembered as [#{fact.number}] {fact.key}: {fact.content}"


def staff_forget_answer(guild_id: str, team_id: int, user_id: str, user_name: str, number: int) -> str:
    """`/memory forget`: the fact in force taken back as staff take it back on the memory page for the server's
    type: retracted with the reason (restorable) where the type keeps retracted facts, deleted under Classic."""
    server = guild_server(guild_id, team_id)
    if server is None:
        return NO_SERVER
    try:
        fact = fact_by_number(server, number) if 1 <= number <= FACT_NUMBER_MAX else None
    except Fact.DoesNotExist:
        fact = None
    if fact is None:
        return f"There is no fact #{number} on this server; nothing was changed."
    if fact.retracted_at is not None:
        return f"Fact #{number} is already retracted; nothing was changed."
    reason = f"forgotten on Discord with /memory forget by {user_name}"
    if profile_for(ai_settings_for_server(server).memory_type).retract_deletes:
        fact_delete(fact=fact, actor=None, reason=reason, actor_label=discord_user_label(user_id, user_name))
        return f"Forgot fact #{number}: deleted, as this server's memory type keeps no retracted facts."
    fact_retract_by_staff(fact=fact, reason=reason, actor=None, by=Actor.discord_user(user_id, user_name))
    return f"Forgot fact #{number}: retracted; staff can restore it from its page."


# Talking to Discord ---------------------------------------------------------------------------


def _team_id(interaction: discord.Interaction) -> int | None:
    return getattr(interaction.client, "team_id", None)


def _user_name(interaction: discord.Interaction) -> str:
    return interaction.user.display_name.replace("\x00", "")[:100]


async def _answer_privately(interaction: discord.Interaction, answer, *args) -> str:
    """Acknowledge at once (Discord waits three seconds; a wipe may take longer), then send the answer only the
    member sees, pinging nobody whatever a fact says. `answer` takes the guild id and the bot's team id first."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        text = await in_django(answer)(str(interaction.guild_id), _team_id(interaction), *args)
    except Exception:  # noqa: BLE001 - the member must not be left waiting; the log has the error
        logger.exception("/memory answer failed in guild %s", interaction.guild_id)
        text = FAILED
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
    return text


async def _staff_answer_privately(interaction: discord.Interaction, answer, *args) -> str:
    """As _answer_privately, for staff only: Discord's Manage Server permission (in this channel), checked here
    since Discord can hide only whole top-level commands, and /memory's member commands are for everyone."""
    permissions = interaction.permissions
    if not (permissions.manage_guild or permissions.administrator):  # an administrator holds every permission
        await interaction.response.send_message(STAFF_ONLY, ephemeral=True)
        return STAFF_ONLY
    return await _answer_privately(interaction, answer, str(interaction.user.id), _user_name(interaction), *args)


memory_commands = app_commands.Group(name="memory", description="What Lorekeeper remembers about you here.",
                                     guild_only=True)


@memory_commands.command(name="me", description="See what the bot knows about you and who may see it (only you "
                                                "see the answer).")
async def memory_me(interaction: discord.Interaction) -> None:
    await _answer_privately(interaction, memory_me_answer, str(interaction.user.id))


@memory_commands.command(name="forget-me", description="Ask the bot to forget you: done at once or by staff, as "
                                                       "this server chose.")
async def memory_forget_me(interaction: discord.Interaction) -> None:
    await _answer_privately(interaction, forget_me_answer, str(interaction.user.id), _user_name(interaction))


@memory_commands.command(name="remember", description="Staff (Manage Server): remember a fact for the whole "
                                                      "server, as staff.")
@app_commands.describe(key="A short name, e.g. raid_time", content="What to remember, one statement")
async def memory_remember(interaction: discord.Interaction, key: str, content: str) -> None:
    await _staff_answer_privately(interaction, staff_remember_answer, key, content)


@memory_commands.command(name="forget", description="Staff (Manage Server): take back fact #number, as staff do "
                                                    "on the memory page.")
@app_commands.describe(number="The fact's number, as in [#12]")
async def memory_forget(interaction: discord.Interaction, number: int) -> None:
    await _staff_answer_privately(interaction, staff_forget_answer, number)
