"""The Discord adapter's slash commands: `/memory me` shows a member what the bot knows about them, and
`/memory forget-me` asks it to forget them; both answer ephemerally (only that member sees the answer).

As in memory.bot.discord, the answers are plain functions (tested without a network), the database side is
synchronous and reached through `in_django`, and the handlers only wire the two to Discord's interaction.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord
from asgiref.sync import sync_to_async
from discord import app_commands
from django.db import close_old_connections

from memory.configuration.selectors import channel_names
from memory.facts.forget_requests import ForgetOutcome, forget_me
from memory.facts.selectors import member_facts
from memory.models import Audience, Fact, ForgetRequestVia
from teams.models import Server

logger = logging.getLogger(__name__)

DISCORD_MESSAGE_LIMIT = 2000
FAILED = "Something went wrong and nothing was changed; please try again later."
NO_SERVER = "Lorekeeper keeps no memory for this server."
NOTHING_KNOWN = "I don't remember anything about you on this server."
ABOUT_TITLE = "What I know about you"
LEARNED_TITLE = "What I learned from your messages"


def in_django(function):
    """Run the synchronous (ORM) function in asgiref's one thread for such code, off the event loop."""
    return sync_to_async(function, thread_sensitive=True)


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


def member_memory_in_guild(guild_id: str, member_id: str) -> MemberMemory | None:
    """What the bot knows about the member on the guild's server (None for a guild without one)."""
    server = Server.objects.filter(guild_id=guild_id).first()
    if server is None:
        return None
    about, learned_from = member_facts(server, member_id)
    return MemberMemory(about=about, learned_from=learned_from, channel_names=channel_names(server))


def forget_me_in_guild(guild_id: str, member_id: str, member_name: str) -> ForgetOutcome | None:
    server = Server.objects.filter(guild_id=guild_id).first()
    if server is None:
        return None
    return forget_me(server=server, member_id=member_id, member_name=member_name, via=ForgetRequestVia.DISCORD)


def memory_me_answer(guild_id: str, member_id: str) -> str:
    memory = member_memory_in_guild(guild_id, member_id)
    if memory is None:
        return NO_SERVER
    return member_facts_text(memory.about, memory.learned_from, memory.channel_names)


def forget_me_answer(guild_id: str, member_id: str, member_name: str) -> str:
    outcome = forget_me_in_guild(guild_id, member_id, member_name)
    return NO_SERVER if outcome is None else forget_me_text(outcome)


# Talking to Discord ---------------------------------------------------------------------------


async def _answer_privately(interaction: discord.Interaction, answer, *args: str) -> str:
    """Acknowledge at once (Discord waits three seconds; a wipe may take longer), then send the answer only the
    member sees, pinging nobody whatever a fact says. The database call starts with a usable connection, as a
    web request would."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    await in_django(close_old_connections)()
    try:
        text = await in_django(answer)(*args)
    except Exception:  # noqa: BLE001 - the member must not be left waiting; the log has the error
        logger.exception("/memory answer failed in guild %s", interaction.guild_id)
        text = FAILED
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
    return text


memory_commands = app_commands.Group(name="memory", description="What Lorekeeper remembers about you here.",
                                     guild_only=True)


@memory_commands.command(name="me", description="See what the bot knows about you and who may see it (only you "
                                                "see the answer).")
async def memory_me(interaction: discord.Interaction) -> None:
    await _answer_privately(interaction, memory_me_answer, str(interaction.guild_id), str(interaction.user.id))


@memory_commands.command(name="forget-me", description="Ask the bot to forget you: done at once or by staff, as "
                                                       "this server chose.")
async def memory_forget_me(interaction: discord.Interaction) -> None:
    name = interaction.user.display_name.replace("\x00", "")[:100]
    await _answer_privately(interaction, forget_me_answer, str(interaction.guild_id), str(interaction.user.id),
                            name)
