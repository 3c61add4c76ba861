"""The bot's reads on its hot path, hand-written SQL that still yields model instances (config/rows.py says why):
the token with its server, AI settings, current summary and the context's facts in one query, an exchange of the
token's team and the facts it showed or found that its channel may still see; and the exchange log the panel
shows."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection
from django.db.models import QuerySet

from config.rows import columns, compact_sql
from memory.models import AISettings, Exchange, Fact
from memory.retrieval.audience import Reader, visible_sql
from memory.retrieval.context import CONTEXT_SQL, ContextFor, context_read_from_json
from memory.retrieval.shown_facts import CONTEXT_COLUMNS, facts_from_rows
from teams.models import BotToken, Server
from teams.selectors import ACTIVE_TOKEN_COLUMNS

_SERVER_COLUMNS = columns(Server, "s")
_AI_SETTINGS_COLUMNS = columns(AISettings, "a")
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
                                                           context=f", {CONTEXT_SQL}" if with_context else ""))
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
    server = _server_from_row(row[token_end + 1 : -1])
    if row[-1] is not None:
        server.context_read = (context_for, context_read_from_json(row[-1]))
    return token, server


_EXCHANGE_COLUMNS = columns(Exchange, "e")
_EXCHANGE_FOR_BOT_SQL = f"""
    SELECT {_EXCHANGE_COLUMNS.sql}, {_SERVER_COLUMNS.sql}
    FROM memory_exchange e JOIN teams_server s ON s.id = e.server_id
    WHERE e.id = %s AND s.team_id = %s
"""


def exchange_for_bot(team_id: int, exchange_id) -> Exchange | None:
    """An exchange of one of the token's team's servers, with its server (None otherwise).
    Hand-written SQL: the bot's search and actions calls start here (config/rows.py)."""
    with connection.cursor() as cursor:
        cursor.execute(_EXCHANGE_FOR_BOT_SQL, [exchange_id, team_id])
        row = cursor.fetchone()
    if row is None:
        return None
    exchange = _EXCHANGE_COLUMNS.instance(row[: len(_EXCHANGE_COLUMNS)])
    exchange.server = _SERVER_COLUMNS.instance(row[len(_EXCHANGE_COLUMNS) :])
    return exchange


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
