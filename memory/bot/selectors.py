"""The bot's reads on its hot path, hand-written SQL that still yields model instances (config/rows.py says why):
the token with its server, AI settings, current summary and the context's facts in one query, an exchange of the
token's team and the facts it showed or found that its channel may still see; and the exchange log the panel
shows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import QuerySet

from config.rows import columns, compact_sql
from memory.models import AISettings, AuthorKind, Exchange, Fact
from memory.retrieval.audience import Reader, visible_sql
from memory.retrieval.context import CONTEXT_SQL, ContextFor, context_read_from_json
from memory.retrieval.shown_facts import CONTEXT_COLUMNS, facts_from_rows
from teams.models import BotToken, Server
from teams.selectors import ACTIVE_TOKEN_COLUMNS

# Not when the server was added or when its Discord bot left it: no call reads them on its way, and the statements
# below must stay under psycopg's cache limit. Read when asked (deferred fields).
_SERVER_OFF_HOT_PATH_FIELDS = {"created_at", "left_at"}
_SERVER_COLUMNS = columns(Server, "s", tuple(field.attname for field in Server._meta.concrete_fields
                                             if field.attname not in _SERVER_OFF_HOT_PATH_FIELDS))
# Not what no call naming a guild reads on its way: the words index's language (the words search reads it in its own
# statement, memory.retrieval.words), the learning run's settings (memory.learning reads them itself), how long
# exchange logs are kept (the daily trim), what forget-me does (one query more on that rare call) and where the
# Discord adapter answers (it reads its own), what it posts when it cannot answer, the background models' budget (read
# by the adapter after a failure, by rounds and learning runs) and the reply's deadline and budget (a reply reads
# both in one query of its own, memory.bot.reply: it then waits for a model anyway): this statement must stay under psycopg's cache limit (below). Read
# when asked (a deferred field).
_OFF_HOT_PATH_FIELDS = {"memory_language", "words_language", "words_config", "words_rebuild_started_at",
                        "learn_channel_ids", "learning_max_messages", "learning_step_seconds", "exchange_log_days",
                        "forget_me_mode", "reply_channel_ids", "fallback_text", "background_token_budget",
                        "reply_deadline_seconds", "reply_token_budget"}
_AI_SETTINGS_COLUMNS = columns(AISettings, "a", tuple(field.attname for field in AISettings._meta.concrete_fields
                                                     if field.attname not in _OFF_HOT_PATH_FIELDS))
# The server with its AI settings and current summary, for the tables joined as s and a.
_SERVER_SELECT = f"""{_SERVER_COLUMNS.sql}, a."server_id" IS NOT NULL, {_AI_SETTINGS_COLUMNS.sql},
           (SELECT "content" FROM memory_summary WHERE server_id = s.id AND retracted_at IS NULL LIMIT 1)"""


def _server_from_row(row: Sequence) -> Server:
    """A server row as _SERVER_SELECT reads it: AI settings attached, current summary in current_summary."""
    server_end = len(_SERVER_COLUMNS)
    server = _SERVER_COLUMNS.instance(row[:server_end])
    if row[server_end]:  # the server has AI settings (a new server may not have them yet)
        settings_start = server_end + 1
        settings_row = row[settings_start : settings_start + len(_AI_SETTINGS_COLUMNS)]
        server.ai_settings = _AI_SETTINGS_COLUMNS.instance(settings_row)
    server.current_summary = row[-1]
    return server


# The channel's running note (memory.learning.notes), for the context call: the message's own channel (a thread's
# is the thread), which Reader.params gives as reader_thread.
_CHANNEL_NOTE_SQL = """(SELECT content FROM memory_channelnote WHERE server_id = s.id AND channel_id = %(reader_thread)s
                        ORDER BY id DESC LIMIT 1)"""
_TOKEN_AND_SERVER_SQL = """
    SELECT {token}, s."id" IS NOT NULL, {server}{context}
    FROM teams_bottoken t
    LEFT JOIN teams_server s ON s.team_id = t.team_id AND s.guild_id = %(guild)s
    LEFT JOIN memory_aisettings a ON a.server_id = s.id
    WHERE t.token_hash = %(token_hash)s AND t.revoked_at IS NULL
"""
# Compacted: psycopg caches its conversion of a statement's placeholders only up to 4,096 bytes (compact_sql).
_TOKEN_AND_SERVER_SQL_BY_CONTEXT = {
    with_context: compact_sql(_TOKEN_AND_SERVER_SQL.format(token=ACTIVE_TOKEN_COLUMNS.sql, server=_SERVER_SELECT,
                                                           context=f", {_CHANNEL_NOTE_SQL}, {CONTEXT_SQL}"
                                                           if with_context else ""))
    for with_context in (False, True)
}


def bot_token_and_server(token_hash: str, guild_id: str, *, context_for: ContextFor | None = None
                         ) -> tuple[BotToken | None, Server | None]:
    """The active token with this hash and, when its team has it, the server of this guild with its AI
    settings and current summary: (None, None) for an unknown or revoked token, (token, None) for a
    guild the token's team does not have (another team's and no server alike). Every call that names
    a guild needs all of it: one round trip. Hand-written SQL (config/rows.py says why).

    context_for (the context call, for the reader and the members its body names): what the context reads
    (memory.retrieval.context.CONTEXT_SQL: the pinned facts, the speaker's share, for the types that show the
    newest changes the rest too) in server.context_read as (context_for, ContextRead), where
    memory.retrieval.context takes it instead of asking again."""
    params = {"guild": guild_id, "token_hash": token_hash}
    if context_for is not None:
        params.update(members=list(context_for.members), **context_for.reader.params)
    with connection.cursor() as cursor:
        cursor.execute(_TOKEN_AND_SERVER_SQL_BY_CONTEXT[context_for is not None], params)
        row = cursor.fetchone()
    if row is None:
        return None, None
    token_end = len(ACTIVE_TOKEN_COLUMNS)
    token = ACTIVE_TOKEN_COLUMNS.instance(row[:token_end])
    if not row[token_end]:
        return token, None
    if context_for is None:
        return token, _server_from_row(row[token_end + 1 :])
    server = _server_from_row(row[token_end + 1 : -2])
    server.current_channel_note = (context_for.reader.params["reader_thread"], row[-2] or "")
    if row[-1] is not None:
        server.context_read = (context_for, context_read_from_json(row[-1]))
    return token, server


_EXCHANGE_COLUMNS = columns(Exchange, "e")
_EXCHANGE_FOR_BOT_SQL = f"""
    SELECT {_EXCHANGE_COLUMNS.sql}, {_SERVER_COLUMNS.sql}
    FROM memory_exchange e JOIN teams_server s ON s.id = e.server_id
    WHERE e.id = %s AND s.team_id = %s
"""


def _exchange_from_row(row: Sequence) -> Exchange:
    exchange = _EXCHANGE_COLUMNS.instance(row[: len(_EXCHANGE_COLUMNS)])
    exchange.server = _SERVER_COLUMNS.instance(row[len(_EXCHANGE_COLUMNS) :])
    return exchange


def exchange_for_bot(team_id: int, exchange_id) -> Exchange | None:
    """An exchange of one of the token's team's servers, with its server (None otherwise).
    Hand-written SQL (config/rows.py)."""
    with connection.cursor() as cursor:
        cursor.execute(_EXCHANGE_FOR_BOT_SQL, [exchange_id, team_id])
        row = cursor.fetchone()
    return None if row is None else _exchange_from_row(row)


# The active token and, when it is one of the token's team's servers', the exchange with its server and the server's
# AI settings: what exchange_for_bot reads, and what the search's rules_now asks next, in the token's query.
_TOKEN_AND_EXCHANGE_SQL = compact_sql(f"""
    SELECT {ACTIVE_TOKEN_COLUMNS.sql}, e."id" IS NOT NULL, {_EXCHANGE_COLUMNS.sql}, {_SERVER_COLUMNS.sql},
           a."server_id" IS NOT NULL, {_AI_SETTINGS_COLUMNS.sql}
    FROM teams_bottoken t
    LEFT JOIN (memory_exchange e JOIN teams_server s ON s.id = e.server_id)
           ON e.id = %(exchange)s AND s.team_id = t.team_id
    LEFT JOIN memory_aisettings a ON a.server_id = s.id
    WHERE t.token_hash = %(token_hash)s AND t.revoked_at IS NULL
""")


def bot_token_and_exchange(token_hash: str, exchange_id) -> tuple[BotToken | None, Exchange | None]:
    """The active token with this hash and, when its team's servers have it, the exchange with its server and the
    server's AI settings: (None, None) for an unknown or revoked token, (token, None) for an exchange the team does
    not have. The bot's search and actions calls start here: the token, the exchange and the settings the search's
    rules apply in one round trip, not three (each a hand-over of the core between Django and PostgreSQL,
    bench/dedupe.py: about a millisecond on a busy machine; the settings' ORM query was 0.3 ms of Python more)."""
    with connection.cursor() as cursor:
        cursor.execute(_TOKEN_AND_EXCHANGE_SQL, {"exchange": exchange_id, "token_hash": token_hash})
        row = cursor.fetchone()
    if row is None:
        return None, None
    token_end = len(ACTIVE_TOKEN_COLUMNS)
    token = ACTIVE_TOKEN_COLUMNS.instance(row[:token_end])
    if not row[token_end]:
        return token, None
    server_end = token_end + 1 + len(_EXCHANGE_COLUMNS) + len(_SERVER_COLUMNS)
    exchange = _exchange_from_row(row[token_end + 1 : server_end])
    # As ai_settings_for_server keeps it: a server nobody configured has the defaults, an unsaved row.
    exchange.server.ai_settings = (_AI_SETTINGS_COLUMNS.instance(row[server_end + 1 :]) if row[server_end]
                                   else AISettings(server=exchange.server))
    return token, exchange


# The exchange locked, with its server, the server's AI settings (rules_now) and, for a call with a remember, what
# its first remember reads before it writes: the facts the bot wrote from the member's messages since %(since)s
# (the remember limit per hour) and which of the exchange's channel and thread parent are public (learned_where).
# One round trip instead of three, and no ORM to compile (about 0.3 ms of Python each, bench/dedupe.py). Only the
# exchange row is locked (of e: memory.bot.actions._locked_exchange says why). The count is read in the lock's
# snapshot: a second call on the same exchange that waited for the lock does not see the first's facts in it, as
# calls on two exchanges of one member never see each other's; the limit is a brake, not an exact quota.
_LOCKED_EXCHANGE_SQL = f"""
    SELECT {_EXCHANGE_COLUMNS.sql}, {_SERVER_COLUMNS.sql},
           a."server_id" IS NOT NULL, {_AI_SETTINGS_COLUMNS.sql}{{ahead}}
    FROM memory_exchange e JOIN teams_server s ON s.id = e.server_id LEFT JOIN memory_aisettings a ON a.server_id = s.id
    WHERE e.id = %(exchange)s FOR UPDATE OF e
"""
_READ_AHEAD_SQL = """,
    (SELECT count(*) FROM memory_fact f WHERE f.server_id = e.server_id AND f.author_kind = %(bot)s
       AND f.learned_from_member_id = e.author_id AND f.created_at >= %(since)s),
    ARRAY(SELECT c.channel_id FROM memory_channel c
          WHERE c.server_id = e.server_id AND c.public AND c.channel_id IN (e.channel_id, e.thread_parent_id))"""
_LOCKED_EXCHANGE_SQL_BY_AHEAD = {ahead: _LOCKED_EXCHANGE_SQL.format(ahead=_READ_AHEAD_SQL if ahead else "")
                                 for ahead in (False, True)}


@dataclass(frozen=True)
class LockedExchange:
    exchange: Exchange  # with its server and the server's AI settings (an unsaved default row when it has none)
    remembered_since: int | None = None  # facts the bot wrote from the member's messages since `since`
    public_channels: frozenset[str] | None = None  # those of the exchange's channel and thread parent @everyone sees


def exchange_locked(exchange_id, *, since: datetime | None = None) -> LockedExchange:
    """The exchange locked until the transaction ends (select_for_update of the exchange alone), with its server and
    AI settings; with `since` (a call that remembers), also what its first remember reads (_LOCKED_EXCHANGE_SQL)."""
    ahead = since is not None
    with connection.cursor() as cursor:
        cursor.execute(_LOCKED_EXCHANGE_SQL_BY_AHEAD[ahead],
                       {"exchange": exchange_id, "since": since, "bot": AuthorKind.BOT})
        row = cursor.fetchone()
    if row is None:
        raise Exchange.DoesNotExist("The exchange was deleted meanwhile.")
    server_end = len(_EXCHANGE_COLUMNS) + len(_SERVER_COLUMNS)
    exchange = _exchange_from_row(row[:server_end])
    settings_end = server_end + 1 + len(_AI_SETTINGS_COLUMNS)
    # As ai_settings_for_server keeps it: a server nobody configured has the defaults, an unsaved row.
    exchange.server.ai_settings = (_AI_SETTINGS_COLUMNS.instance(row[server_end + 1 : settings_end])
                                   if row[server_end] else AISettings(server=exchange.server))
    if not ahead:
        return LockedExchange(exchange)
    return LockedExchange(exchange, remembered_since=row[settings_end], public_channels=frozenset(row[-1]))


# The facts an exchange showed or found, by number, that are still in force and that its channel may still see.
_EXCHANGE_FACTS_SQL = f"""
    SELECT {CONTEXT_COLUMNS.sql} FROM memory_fact f
    WHERE f.server_id = %(server)s AND f.number = ANY(%(numbers)s) AND f.retracted_at IS NULL AND {visible_sql("f")}
"""


def exchange_facts_in_force(exchange: Exchange) -> list[Fact]:
    """The facts shown in the exchange's context, then those its search found, that are still in force and
    that the exchange's channel may still see (a fact narrowed since to another channel, or to staff, is left
    out by the statement). Hand-written SQL, like every bot read (config/rows.py)."""
    numbers = list(dict.fromkeys([*exchange.shown_numbers, *exchange.found_numbers]))
    if not numbers:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_EXCHANGE_FACTS_SQL, {"server": exchange.server_id, "numbers": numbers,
                                             **Reader.for_exchange(exchange).params})
        by_number = {fact.number: fact for fact in facts_from_rows(cursor.fetchall())}
    return [by_number[number] for number in numbers if number in by_number]


def exchanges_for_server(server: Server) -> QuerySet[Exchange]:
    return Exchange.objects.filter(server=server).order_by("-created_at")
