"""The Discord bot (`manage.py runbot`): answers members through the reply pipeline, in this process, and
reports each server's channels and threads, with whether @everyone can view them, so the panel can show their
names and what the bot learns in them takes the right audience. It runs for one team (its installation,
memory.bot.discord_servers): the guilds it is in become that team's servers by themselves. Its slash commands are
in memory.bot.discord_commands.

The decisions (should the bot answer, what it sends to the pipeline, how a long reply is cut) are plain
functions over discord.py objects, so they are tested without a network; the client only wires them to
Discord's events. Django's ORM is synchronous: every database call goes through `_in_django`, which runs it
in the adapter's database threads (memory.bot.discord_concurrency), so the event loop never blocks on it and
messages of different channels are answered at once, those of one channel in order.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

import discord
from discord import app_commands

from memory.configuration.directory import ReportedChannel, SeenMember, channels_forget, channels_report
from memory.configuration.selectors import ai_settings_for_server
from memory.learning.ingest import IngestedMessage, messages_ingest
from teams.models import DiscordBot, Server, Team

from .discord_commands import memory_commands
from .discord_concurrency import ChannelLanes, discord_concurrency
from .discord_concurrency import in_django as _in_django
from .discord_lifecycle import MessageLifecycle
from .discord_servers import guild_join, guild_leave, guild_server, installation_resolve
from .exchanges import MENTIONS_MAX, MESSAGE_MAX_LENGTH, IncomingMessage
from .reply import HistoryMessage, ReplyFailed, ReplyOverBudget, ReplyTimedOut, reply_to_message

logger = logging.getLogger(__name__)

TOKEN_VARIABLE = "DISCORD_TOKEN"
DISCORD_MESSAGE_LIMIT = 2000
HISTORY_MESSAGES = 15
# Joins, pins, thread announcements … are Discord's own notices, not something a member said.
CONVERSATION_TYPES = frozenset({discord.MessageType.default, discord.MessageType.reply})
# Text channels, announcement, voice and stage chats, forums (whose posts are threads); not categories.
MESSAGE_CHANNEL_TYPES = (discord.TextChannel, discord.VoiceChannel, discord.StageChannel, discord.ForumChannel)


def discord_token() -> str:
    """The bot token from the environment ("" when it is not set)."""
    return os.environ.get(TOKEN_VARIABLE, "").strip()


def bot_intents() -> discord.Intents:
    """Only what the bot needs; message content is a privileged intent, switched on in the Developer Portal."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_messages = True
    intents.message_content = True
    return intents


# Deciding and translating (no network, no database) -----------------------------


def channel_ids_of(channel: object) -> tuple[str, str]:
    """(channel id, thread parent id): the parent id is set only for a thread, and is "" otherwise."""
    if isinstance(channel, discord.Thread):
        return str(channel.id), str(channel.parent_id)
    return str(channel.id), ""


def _storable(text: str, max_length: int) -> str:
    # PostgreSQL refuses NUL in text; Discord lets it through in names and messages.
    return text.replace("\x00", "")[:max_length]


def strip_bot_mention(content: str, bot_user_id: int) -> str:
    """The text without `@bot` (either mention form) and the comma or colon people put after it."""
    return re.sub(rf"\s*<@!?{bot_user_id}>[,:]?\s*", " ", content).strip()


def mentions_bot(message: discord.Message, bot_user_id: int) -> bool:
    """Mentioned by name, or a reply to one of the bot's own messages. @everyone and role pings don't count."""
    if any(user.id == bot_user_id for user in message.mentions) or bot_user_id in message.raw_mentions:
        return True
    replied_to = message.reference.resolved if message.reference else None
    return isinstance(replied_to, discord.Message) and replied_to.author.id == bot_user_id


def should_answer(message: discord.Message, *, bot_user_id: int, reply_channel_ids: Collection[str] | None) -> bool:
    """Whether the bot answers: a member's message in a server Lorekeeper knows (`reply_channel_ids` is None
    for a guild without a Server row), with some text, that mentions the bot or was written in one of the
    server's reply channels (or in a thread started in one)."""
    if message.guild is None or reply_channel_ids is None:
        return False
    if message.author.bot or message.author.id == bot_user_id or message.webhook_id is not None:
        return False
    if message.type not in CONVERSATION_TYPES or not strip_bot_mention(message.content, bot_user_id):
        return False
    if mentions_bot(message, bot_user_id):
        return True
    channel_id, parent_id = channel_ids_of(message.channel)
    return channel_id in reply_channel_ids or bool(parent_id and parent_id in reply_channel_ids)


def mentioned_members(message: discord.Message, *, bot_user_id: int) -> tuple[SeenMember, ...]:
    """The members the message mentions (its user mentions: not the bot, not the author, not other bots), each
    once, at most MENTIONS_MAX."""
    mentioned: dict[str, SeenMember] = {}
    for user in message.mentions:
        if user.id in (bot_user_id, message.author.id) or user.bot:
            continue
        mentioned.setdefault(str(user.id), SeenMember(str(user.id), _storable(user.display_name, 100)))
    return tuple(mentioned.values())[:MENTIONS_MAX]


def message_to_request(message: discord.Message, *, bot_user_id: int) -> IncomingMessage:
    """What the reply pipeline gets for the message: where, who (display name), the members it mentions, and the
    text without @bot."""
    channel_id, parent_id = channel_ids_of(message.channel)
    return IncomingMessage(
        channel_id=channel_id,
        thread_parent_id=parent_id,
        author_id=str(message.author.id),
        author_name=_storable(message.author.display_name, 100),
        content=_storable(strip_bot_mention(message.content, bot_user_id), MESSAGE_MAX_LENGTH),
        mentions=mentioned_members(message, bot_user_id=bot_user_id),
        message_id=str(message.id),  # deleting it in Discord withdraws what the bot learned while answering
    )


def message_to_ingest(message: discord.Message, learn_channel_ids: Collection[str]) -> IngestedMessage | None:
    """The message as the learning run reads it, when it was written in a channel the server learns from (or a
    thread started in one) and has text; None otherwise. A bot's message, a webhook's and Discord's own notices are
    kept as context, never learned from (is_bot)."""
    channel_id, parent_id = channel_ids_of(message.channel)
    if message.guild is None or not (channel_id in learn_channel_ids or parent_id in learn_channel_ids):
        return None
    content = _storable(message.content, MESSAGE_MAX_LENGTH)
    if not content.strip():
        return None
    return IngestedMessage(
        message_id=str(message.id), channel_id=channel_id, thread_parent_id=parent_id,
        author_id=str(message.author.id), author_name=_storable(message.author.display_name, 100),
        is_bot=message.author.bot or message.webhook_id is not None or message.type not in CONVERSATION_TYPES,
        content=content, sent_at=message.created_at)


def history_entries(earlier: Iterable[discord.Message], *, bot_user_id: int) -> list[HistoryMessage]:
    """The conversation before the message, oldest first, from messages in any order.

    `is_bot` marks the bot's own messages: the pipeline hands them to the model as its own turns. Other
    bots speak as participants, under their names."""
    entries = []
    for message in sorted(earlier, key=lambda earlier_message: earlier_message.id):
        content = strip_bot_mention(message.content, bot_user_id)
        if message.type in CONVERSATION_TYPES and content:
            entries.append(HistoryMessage(author_name=_storable(message.author.display_name, 100),
                                          content=_storable(content, MESSAGE_MAX_LENGTH),
                                          is_bot=message.author.id == bot_user_id))
    return entries


def split_reply(text: str, limit: int = DISCORD_MESSAGE_LIMIT) -> list[str]:
    """The reply cut into Discord messages of at most `limit` characters, at a line break or a space where
    there is one; [] for an empty reply."""
    chunks = []
    rest = text.strip()
    while len(rest) > limit:
        window = rest[:limit + 1]  # a separator right after the limit still allows a clean cut
        cut = window.rfind("\n")
        if cut < limit // 2:  # a line break early on would leave a stub: a late space is better
            cut = max(cut, window.rfind(" "))
        if cut <= 0:  # one long word: cut it
            cut = limit
        chunks.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        chunks.append(rest)
    return chunks


def everyone_can_view(channel: object) -> bool:
    """Whether @everyone may view the channel (its permission overwrites over the role's own permissions); a
    thread answers for its channel, and a private thread, which only those invited see, is never public. What
    cannot be told (no @everyone role or parent in the cache) counts as private."""
    if isinstance(channel, discord.Thread):
        if channel.is_private():
            return False
        channel = channel.parent
    if not isinstance(channel, discord.abc.GuildChannel):
        return False
    everyone = channel.guild.default_role
    return everyone is not None and channel.permissions_for(everyone).view_channel


def reported_channel(channel: object) -> ReportedChannel | None:
    """The panel's view of one channel or thread, with whether it is public; None for what holds no messages
    (a category)."""
    if isinstance(channel, discord.Thread):
        return ReportedChannel(channel_id=str(channel.id), name=channel.name, parent_id=str(channel.parent_id),
                               is_thread=True, public=everyone_can_view(channel))
    if isinstance(channel, MESSAGE_CHANNEL_TYPES):
        return ReportedChannel(channel_id=str(channel.id), name=channel.name, public=everyone_can_view(channel))
    return None


def reported_channels(guild: discord.Guild) -> list[ReportedChannel]:
    """Every channel of the guild that holds messages, and every thread the bot can see (active ones)."""
    found = (reported_channel(channel) for channel in [*guild.channels, *guild.threads])
    return [channel for channel in found if channel is not None]


def channels_changed_with(channel: discord.abc.GuildChannel) -> list[object]:
    """What a change of this channel's permissions can change the public flag of: the channel, the channels of a
    category (a synced channel takes its category's overwrites), and the threads of all of them."""
    changed: list[object] = [channel]
    if isinstance(channel, discord.CategoryChannel):
        changed += channel.channels
    ids = {item.id for item in changed}
    return changed + [thread for thread in channel.guild.threads if thread.parent_id in ids]


# The database side (synchronous; called through _in_django) ---------------------


@dataclass(frozen=True)
class ReplyTarget:
    server: Server
    reply_channel_ids: frozenset[str]
    learn_channel_ids: frozenset[str] = frozenset()


def reply_target_for_guild(guild_id: str, team_id: int) -> ReplyTarget | None:
    """The team's server of the guild, its reply channels and the channels it learns from, or None when the guild
    is no server of the team."""
    server = guild_server(guild_id, team_id)
    if server is None:
        return None
    ai_settings = ai_settings_for_server(server)
    return ReplyTarget(server=server, reply_channel_ids=frozenset(ai_settings.reply_channel_ids),
                       learn_channel_ids=frozenset(ai_settings.learn_channel_ids))


def message_learn(*, server: Server, message: IngestedMessage) -> int:
    """Store one message of a channel the server learns from (memory.learning.ingest); how many were stored."""
    return messages_ingest(server=server, messages=[message]).accepted


def reply_text(*, server: Server, message: IncomingMessage, history: list[HistoryMessage]) -> str:
    """The bot's reply; past the reply deadline or over the reply model's budget the server's fallback text (AI
    settings; empty: nothing is posted); "" when the model failed (the exchange log says why; memory is unchanged)."""

    try:
        return reply_to_message(server=server, message=message, history=history, source="discord").reply
    except ReplyOverBudget as spent:
        logger.warning("No reply in server %s, channel %s: %s", server.guild_id, message.channel_id, spent.reason)
        return ai_settings_for_server(server).fallback_text
    except ReplyFailed as failure:
        logger.warning("No reply in server %s, channel %s (exchange %s): %s", server.guild_id, message.channel_id,
                       failure.exchange.pk, failure.reason)
        return ai_settings_for_server(server).fallback_text if isinstance(failure, ReplyTimedOut) else ""


def guild_channels_report(guild_id: str, team_id: int, channels: list[ReportedChannel]) -> int | None:
    """Store the channels of a guild of the team; None (nothing stored) for a guild that is no server of it."""
    server = guild_server(guild_id, team_id)
    return None if server is None else channels_report(server=server, channels=channels)


def guild_channels_forget(guild_id: str, team_id: int, channel_ids: list[str]) -> None:
    server = guild_server(guild_id, team_id)
    if server is not None:
        channels_forget(server=server, channel_ids=channel_ids)


# Talking to Discord ---------------------------------------------------------------


async def _earlier_messages(message: discord.Message) -> list[discord.Message]:
    try:
        return [earlier async for earlier in message.channel.history(limit=HISTORY_MESSAGES, before=message)]
    except discord.HTTPException as error:  # no "Read Message History" permission: answer without it
        logger.warning("Could not read the history of channel %s: %s", message.channel.id, error)
        return []


async def post_reply(message: discord.Message, reply: str) -> list[str]:
    """Post the reply in the message's channel, the first part as a reply to it; returns what was posted."""
    posted: list[str] = []
    for chunk in split_reply(reply):
        try:
            if posted:
                await message.channel.send(chunk)
            else:
                await message.channel.send(chunk, reference=message.to_reference(fail_if_not_exists=False),
                                           mention_author=False)
        except discord.HTTPException as error:
            logger.warning("Could not post in channel %s: %s", message.channel.id, error)
            break
        posted.append(chunk)
    return posted


async def message_in_turn(lanes: ChannelLanes, message: discord.Message, *, bot_user_id: int, team_id: int
                          ) -> list[str]:
    """What the gateway's message event runs: handle_message in the message's channel's turn (the lanes say when);
    returns what was posted."""
    if message.guild is None:
        return []
    async with lanes.turn(str(message.channel.id)):
        return await handle_message(message, bot_user_id=bot_user_id, team_id=team_id)


async def handle_message(message: discord.Message, *, bot_user_id: int, team_id: int) -> list[str]:
    """Keep the message to learn from when its channel is one the server learns from (every message there, the
    bot's own as context), then answer it when the bot should; returns what was posted."""
    if message.guild is None:
        return []
    target = await _in_django(reply_target_for_guild)(str(message.guild.id), team_id)
    if target is None:
        return []
    learned = message_to_ingest(message, target.learn_channel_ids)
    if learned is not None:
        await _in_django(message_learn)(server=target.server, message=learned)
    return await answer_message(message, bot_user_id=bot_user_id, team_id=team_id, target=target)


async def answer_message(message: discord.Message, *, bot_user_id: int, team_id: int,
                         target: ReplyTarget | None = None) -> list[str]:
    """Answer the message when the bot should (see should_answer); returns what was posted, [] for nothing.
    `target`: the guild's server as handle_message read it (read here when not given)."""
    if message.guild is None or message.author.bot:
        return []  # spared a database query: the bot never answers these
    if target is None:
        target = await _in_django(reply_target_for_guild)(str(message.guild.id), team_id)
    reply_channel_ids = target.reply_channel_ids if target is not None else None
    if not should_answer(message, bot_user_id=bot_user_id, reply_channel_ids=reply_channel_ids):
        return []
    request = message_to_request(message, bot_user_id=bot_user_id)
    history = history_entries(await _earlier_messages(message), bot_user_id=bot_user_id)
    async with message.channel.typing():
        reply = await _in_django(reply_text)(server=target.server, message=request, history=history)
    return await post_reply(message, reply)


async def report_channels(guild: discord.Guild, channels: Iterable[object], team_id: int) -> None:
    reported = [channel for channel in map(reported_channel, channels) if channel is not None]
    if reported:
        await _in_django(guild_channels_report)(str(guild.id), team_id, reported)


async def guild_arrived(bot: DiscordBot, guild: discord.Guild) -> Server | None:
    """The bot is in the guild: its server (created for the bot's team when new, back when it had left) and its
    channels reported; None for another team's server, which is left alone."""
    server = await _in_django(guild_join)(bot=bot, guild_id=str(guild.id), name=guild.name)
    if server is not None:
        await _in_django(guild_channels_report)(str(guild.id), bot.team_id, reported_channels(guild))
    return server


class LorekeeperBot(MessageLifecycle, discord.Client):
    """The Discord client, run for one team: `team` (runbot --team), or the team its application is registered
    for in admin. Each handler's database work runs in the adapter's database threads."""

    def __init__(self, team: Team | None = None) -> None:
        # The bot never joins voice, so discord.py's warnings about missing voice libraries are only noise.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        # The model writes the replies: it may name members, but never ping everyone or a role.
        super().__init__(intents=bot_intents(), allowed_mentions=discord.AllowedMentions(
            everyone=False, roles=False, users=True, replied_user=False))
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(memory_commands)
        self.team = team
        self.installation: DiscordBot | None = None
        self.lanes = ChannelLanes(discord_concurrency())

    @property
    def team_id(self) -> int | None:
        """The team the bot runs for (None until login found its installation)."""
        return self.installation.team_id if self.installation is not None else None

    async def setup_hook(self) -> None:
        """After login, before the gateway: the installation of the application id Discord reported
        (InstallationRefused ends the run, saying why), then the slash commands told to Discord (the same list
        each time, so this is idempotent; without them the bot still answers messages)."""
        self.installation = await _in_django(installation_resolve)(application_id=str(self.application_id),
                                                                   team=self.team)
        logger.info("Running as Discord bot %s for team %s.", self.application_id, self.installation.team)
        try:
            await self.tree.sync()
        except discord.HTTPException as error:
            logger.warning("Could not register the slash commands with Discord: %s", error)

    async def on_ready(self) -> None:
        logger.info("Connected to Discord as %s, in %d server(s).", self.user, len(self.guilds))
        for guild in self.guilds:
            try:
                await guild_arrived(self.installation, guild)
            except Exception:  # noqa: BLE001 - one guild's failure must not keep the others unregistered
                logger.exception("Could not register guild %s", guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await guild_arrived(self.installation, guild)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await _in_django(guild_leave)(bot=self.installation, guild_id=str(guild.id))

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        await report_channels(channel.guild, channels_changed_with(channel), self.team_id)

    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        await self.on_guild_channel_create(after)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await _in_django(guild_channels_forget)(str(channel.guild.id), self.team_id, [str(channel.id)])

    async def on_thread_create(self, thread: discord.Thread) -> None:
        await report_channels(thread.guild, [thread], self.team_id)

    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        await self.on_thread_create(after)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await _in_django(guild_channels_forget)(str(payload.guild_id), self.team_id, [str(payload.thread_id)])

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """@everyone's own permissions changed: any channel may have become public or private."""
        if after.is_default():
            await _in_django(guild_channels_report)(str(after.guild.id), self.team_id,
                                                    reported_channels(after.guild))

    async def on_message(self, message: discord.Message) -> None:
        if self.user is None or self.installation is None:
            return
        await message_in_turn(self.lanes, message, bot_user_id=self.user.id, team_id=self.installation.team_id)


def run_bot(token: str, team: Team | None = None) -> None:
    """Connect and answer until interrupted, for `team` or the team the application is registered for (raises
    InstallationRefused when there is none). Logging goes through Django's LOGGING, not discord.py's own."""
    LorekeeperBot(team).run(token, log_handler=None)
