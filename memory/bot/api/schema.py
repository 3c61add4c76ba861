"""The OpenAPI 3.1 description of API v1, served at /api/v1/schema.json.

Written by hand next to the code it describes; tests validate every API test response against it
and schemathesis fuzzes the endpoints from it, so it cannot drift silently.
"""

from __future__ import annotations

from memory.bot.prompt import KIND_DESCRIPTION
from memory.models import Audience, Kind, MemoryType
from memory.text.keys import KEY_REGEX

from .schema_types import KEY_INPUT, NO_NUL, NULLABLE_SNOWFLAKE, NUMBER, REF, SNOWFLAKE, SOME_TEXT, SOME_TEXT_NO_NUL, UNIT


def _ref(name: str) -> dict:
    return {"$ref": REF + name}


def _error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}


def _json(schema: dict, description: str = "OK") -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


COMMON_ERRORS = {
    "400": _error("Malformed JSON, a field out of range or a malformed Idempotency-Key header; the sentence names "
                  "the field (or the header) and the range."),
    "401": _error("Missing, wrong or revoked bot token."),
    "404": _error("No such server or exchange for this token (another team's looks the same)."),
    "405": _error("The address exists but not for this method; see the Allow header."),
    "413": _error("The request body is larger than 64 KiB."),
    "429": {**_error("The bot token sent more requests this minute than the server allows (settings: "
                     "LOREKEEPER_API_REQUESTS_PER_MINUTE, 3000 by default); nothing was done."),
            "headers": {"Retry-After": {"description": "Seconds until the next minute's budget starts.",
                                        "schema": {"type": "integer", "minimum": 1}}}},
}

MESSAGE_PROPERTIES = {
    "channel_id": SNOWFLAKE,
    "thread_parent_id": {**NULLABLE_SNOWFLAKE, "description": "Set when the message is in a thread: the channel "
                                                              "the thread was started in."},
    "author_id": SNOWFLAKE,
    "author_name": {"type": "string", "maxLength": 100, "pattern": NO_NUL},
    "content": {"type": "string", "minLength": 1, "maxLength": 4000, "pattern": SOME_TEXT_NO_NUL,
                "description": "Not only whitespace."},
    "mentions": {"type": "array", "maxItems": 20,
                 "description": "The members the message mentions (the author left out, an id twice counted once): "
                                "facts about them share the speaker's reserved slots, and their names are kept "
                                "for the memory block.",
                 "items": {"type": "object", "additionalProperties": False, "required": ["id"], "properties": {
                     "id": SNOWFLAKE, "name": {"type": "string", "maxLength": 100, "pattern": NO_NUL,
                                               "description": "The member's display name."}}}},
    "message_id": {**NULLABLE_SNOWFLAKE, "description": "The Discord message answered. Give it, and a member who "
                                                        "deletes the message (POST …/messages/deleted) withdraws "
                                                        "what was learned in this exchange."},
}

FACT_CONTENT_INPUT = {"type": "string", "minLength": 1, "maxLength": 1000, "pattern": SOME_TEXT,
                      "description": "Not only whitespace."}

AUDIENCE_DESCRIPTION = (
    "Who the fact may reach. server: every channel where memory may be read. channel: only replies in the channel "
    "it was learned in (channel_id) and in that channel's threads. staff: never handed to a bot; kept for staff. "
    "A fact the bot learns takes the audience of its channel: server in a channel @everyone can view, channel in "
    "any other (a channel never reported counts as private); in a thread, its channel's.")

# Why the facts of a context came in (the rest of the block's facts came by the type's own order).
SHOWN_WHY = {
    "pinned": {"type": "array", "items": NUMBER,
               "description": "The pinned facts in the block (staff pinned them: they come first in every context, "
                              "up to the pinned caps)."},
    "about_speaker": {"type": "array", "items": NUMBER,
                      "description": "The facts in the block that came in the slots reserved for facts about the "
                                     "speaker and the members mentioned."},
    "budget_cut": {"type": "array", "items": NUMBER,
                   "description": "The facts the type chose that Maximum memory characters left out (the block "
                                  "stops at the first fact that no longer fits)."},
}

SCHEMAS = {
    "Error": {"type": "object", "required": ["error", "field"], "additionalProperties": False, "properties": {
        "error": {"type": "string", "description": "One clear sentence."},
        "field": {"anyOf": [{"type": "string"}, {"type": "null"}]}}},
    "Fact": {"type": "object", "additionalProperties": False,
             "required": ["number", "key", "content", "scope", "member_id", "confidence", "audience", "channel_id",
                          "kind", "changed_at"],
             "properties": {
                 "number": NUMBER, "key": {"type": "string", "pattern": KEY_REGEX},
                 "content": {"type": "string", "minLength": 1, "maxLength": 1000},
                 "scope": {"enum": ["server", "member"]}, "member_id": NULLABLE_SNOWFLAKE, "confidence": UNIT,
                 "audience": _ref("Audience"),
                 "channel_id": {**NULLABLE_SNOWFLAKE, "description": "The channel the fact was learned in (for a "
                                                                     "thread, the channel it was started in); "
                                                                     "null when it is not known."},
                 "kind": _ref("Kind"),
                 "changed_at": {"type": "string", "format": "date-time",
                                "description": "When the fact last changed: the date it was last known true."}}},
    "Kind": {"enum": list(Kind.values), "description": KIND_DESCRIPTION},
    "Audience": {"enum": list(Audience.values), "description": AUDIENCE_DESCRIPTION},
    "MemoryType": {"enum": list(MemoryType.values)},
    "Message": {"type": "object", "additionalProperties": False,
                "required": ["channel_id", "author_id", "content"], "properties": MESSAGE_PROPERTIES},
    "ReplyRequest": {"type": "object", "additionalProperties": False,
                     "required": ["channel_id", "author_id", "content"], "properties": {
                         **MESSAGE_PROPERTIES,
                         "history": {"type": "array", "maxItems": 30, "description": "Recent messages, oldest first.",
                                     "items": {"type": "object", "additionalProperties": False,
                                               "required": ["content"], "properties": {
                                                   "author_name": {"type": "string", "maxLength": 100,
                                                                   "pattern": NO_NUL},
                                                   "content": {"type": "string", "maxLength": 4000,
                                                               "pattern": NO_NUL,
                                                               "description": "May be empty (an attachment or "
                                                                              "a sticker): left out."},
                                                   "is_bot": {"type": "boolean"}}}}}},
    "Context": {"type": "object", "additionalProperties": False, "required": [
        "exchange", "memory_type", "read_allowed", "write_allowed", "can_search", "summary", "facts", "pinned",
        "about_speaker", "budget_cut", "prompt"],
        "properties": {
            "exchange": {"type": "string", "format": "uuid"}, "memory_type": _ref("MemoryType"),
            "read_allowed": {"type": "boolean"}, "write_allowed": {"type": "boolean"},
            "can_search": {"type": "boolean"}, "summary": {"type": "string"},
            "facts": {"type": "array", "items": _ref("Fact"),
                      "description": "As the memory block lists them: the pinned facts first, then the others "
                                     "oldest change first."},
            **SHOWN_WHY,
            "prompt": {"type": "string", "description": "The memory block to put in the model's context."}}},
    "SearchRequest": {"type": "object", "additionalProperties": False, "required": ["query"], "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 500, "pattern": SOME_TEXT_NO_NUL,
                  "description": "Not only whitespace."}}},
    "SearchResult": {"type": "object", "additionalProperties": False,
                     "required": ["facts", "mode", "fallback_reason", "language", "language_note"], "properties": {
                         "facts": {"type": "array", "items": _ref("Fact")},
                         "mode": {"enum": ["words", "meaning", "hybrid"]},
                         "fallback_reason": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                         "language": {"type": "string", "description": "The memory language words are matched "
                                      "in (a code: en, nl, de, ja, ...)."},
                         "language_note": {"anyOf": [{"type": "string"}, {"type": "null"}],
                                           "description": "Set while the server's facts are re-indexed for a new "
                                                          "memory language: words are then matched as written."}}},
    "ActionsRequest": {"type": "object", "additionalProperties": False, "properties": {
        "retract": {"type": "array", "maxItems": 50, "items": {
            "type": "object", "additionalProperties": False, "required": ["number"], "properties": {
                "number": NUMBER, "reason": {"type": "string", "maxLength": 500}}}},
        "supersede": {"type": "array", "maxItems": 50, "items": {
            "type": "object", "additionalProperties": False, "required": ["number", "content"], "properties": {
                "number": NUMBER, "content": FACT_CONTENT_INPUT,
                "reason": {"type": "string", "maxLength": 500}}}},
        "remember": {"type": "array", "maxItems": 50, "items": {
            "type": "object", "additionalProperties": False, "required": ["key", "content"], "properties": {
                "key": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": KEY_INPUT,
                        "description": "Lower-cased, spaces become _, invisible characters dropped; then letters, "
                                       "digits and symbols of any language and _ . - (no other ASCII or full-width "
                                       "punctuation, no control characters)."},
                "content": FACT_CONTENT_INPUT,
                "scope": {"enum": ["server", "member"],
                          "description": "Default: 'member' when member_id is given, else 'server'."},
                "member_id": {**NULLABLE_SNOWFLAKE,
                              "description": "Whom a member fact is about; refused with scope 'server'."},
                "importance": {"anyOf": [UNIT, {"type": "null"}]},
                "confidence": {**UNIT, "description": "Left out: what the source allows (a member about themselves "
                                                     "0.9, anything else the bot infers 0.7); higher is capped."},
                "audience": {"anyOf": [_ref("Audience"), {"type": "null"}],
                             "description": "Absent or null: the audience of the channel the exchange is in. A value "
                                            "may only narrow it (server > channel > staff); a wider one is ignored, "
                                            "with the reason."},
                "kind": {"anyOf": [_ref("Kind"), {"type": "null"}],
                         "description": "Absent or null: profile for a member fact, lore otherwise."}},
            # A server fact is about no member; a member fact needs one.
            "anyOf": [{"properties": {"scope": {"const": "server"}, "member_id": {"type": "null"}}},
                      {"required": ["member_id"], "properties": {"scope": {"const": "member"},
                                                                 "member_id": SNOWFLAKE}}]}}}},
    "ActionResult": {"type": "object", "additionalProperties": False, "required": ["op", "status"], "properties": {
        "op": {"enum": ["retract", "supersede", "remember", "search", "unknown"],
               "description": "unknown: the model called a tool that does not exist (reply only)."},
        "status": {"enum": ["applied", "ignored", "reinforced"],
                   "description": "reinforced: a remember of a statement already known; no row was written, the "
                                  "fact `number` was said again (its mention count and maybe its confidence rose)."},
        "number": NUMBER,
        "new_number": {**NUMBER, "description": "For an applied supersede: the replacement's number."},
        "detail": {"type": "string", "description": "Why it was ignored, or what the bot should know of an applied "
                                                    "or reinforced remember (a capped confidence, a contradiction)."}}},
    "ActionsResult": {"type": "object", "additionalProperties": False, "required": ["results"], "properties": {
        "results": {"type": "array", "items": _ref("ActionResult")}}},
    "MemorySummary": {"type": "object", "additionalProperties": False, "required": [
        "injected", "pinned", "about_speaker", "budget_cut", "mentioned", "searched", "retracted", "superseded",
        "learned", "actions"], "properties": {
        "injected": {"type": "array", "items": NUMBER,
                     "description": "The facts in the memory block, as it lists them."},
        **SHOWN_WHY,
        "mentioned": {"type": "array", "items": SNOWFLAKE, "description": "The members the message mentioned."},
        "searched": {"anyOf": [{"type": "null"}, {"type": "object", "additionalProperties": False,
                                                  "required": ["query", "mode", "fallback_reason", "found"],
                                                  "properties": {
                                                      "query": {"type": "string"},
                                                      "mode": {"enum": ["words", "meaning", "hybrid"]},
                                                      "fallback_reason": {"anyOf": [{"type": "string"},
                                                                                    {"type": "null"}]},
                                                      "found": {"type": "array", "items": NUMBER}}}]},
        "retracted": {"type": "array", "items": NUMBER},
        "superseded": {"type": "array", "items": {"type": "object", "required": ["number", "replaced_by"],
                                                  "properties": {"number": NUMBER, "replaced_by": NUMBER}}},
        "learned": {"type": "array", "items": NUMBER},
        "actions": {"type": "array", "items": _ref("ActionResult")}}},
    "Reply": {"type": "object", "additionalProperties": False,
              "required": ["reply", "exchange", "model_calls", "memory"], "properties": {
                  "reply": {"type": "string"}, "exchange": {"type": "string", "format": "uuid"},
                  "model_calls": {"enum": [1, 2]}, "memory": _ref("MemorySummary")}},
    "Exchange": {"type": "object", "additionalProperties": False, "required": [
        "exchange", "guild_id", "created_at", "status", "memory_type", "channel_id", "thread_parent_id",
        "author_id", "read_allowed", "write_allowed", "can_search", "model_calls", "reply", "error", "memory",
        "facts"],
        "properties": {
            "exchange": {"type": "string", "format": "uuid"}, "guild_id": SNOWFLAKE,
            "created_at": {"type": "string", "format": "date-time"},
            "status": {"enum": ["context", "replied", "failed", "timed_out"]}, "memory_type": _ref("MemoryType"),
            "channel_id": SNOWFLAKE, "thread_parent_id": NULLABLE_SNOWFLAKE, "author_id": SNOWFLAKE,
            "read_allowed": {"type": "boolean"}, "write_allowed": {"type": "boolean"},
            "can_search": {"type": "boolean"}, "model_calls": {"type": "integer", "minimum": 0, "maximum": 2},
            "reply": {"type": "string"}, "error": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "memory": _ref("MemorySummary"),
            "facts": {"type": "array", "items": _ref("Fact"),
                      "description": "The facts shown or found in this exchange that are still in force and that a "
                                     "reply in its channel may still see, in the order shown, then found."}}},
    "Server": {"type": "object", "additionalProperties": False, "required": ["guild_id", "name", "memory_type"],
               "properties": {"guild_id": SNOWFLAKE, "name": {"type": "string"}, "memory_type": _ref("MemoryType")}},
    "ChannelsRequest": {"type": "object", "additionalProperties": False, "required": ["channels"], "properties": {
        "channels": {"type": "array", "maxItems": 500, "items": {
            "type": "object", "additionalProperties": False, "required": ["id", "name", "public"], "properties": {
                "id": SNOWFLAKE,
                "name": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": SOME_TEXT_NO_NUL,
                         "description": "As Discord shows it, without '#'."},
                "public": {"type": "boolean", "description": "Whether @everyone can view it (for a thread: its "
                                                             "channel). A channel never reported counts as private."},
                "parent_id": {**NULLABLE_SNOWFLAKE, "description": "Set for a thread: the channel it was started "
                                                                   "in; null or absent for a channel."}}}}}},
    "ChannelsResult": {"type": "object", "additionalProperties": False, "required": ["channels"], "properties": {
        "channels": {"type": "integer", "minimum": 0, "maximum": 500,
                     "description": "How many channels were written (an id sent twice counts once)."}}},
    "PurgeRequest": {"type": "object", "additionalProperties": False, "properties": {
        "channel_id": {**SNOWFLAKE, "description": "Every fact learned in this channel or its threads."},
        "exchange": {"type": "string", "format": "uuid", "description": "Every fact learned in this exchange."}},
        "oneOf": [{"required": ["channel_id"]}, {"required": ["exchange"]}]},
    "PurgeResult": {"type": "object", "additionalProperties": False, "required": ["removed"], "properties": {
        "removed": {"type": "integer", "minimum": 0, "description": "How many facts were deleted (0 when "
                                                                    "nothing matched)."}}},
    "MessagesRequest": {"type": "object", "additionalProperties": False, "required": ["messages"], "properties": {
        "messages": {"type": "array", "minItems": 1, "maxItems": 100, "description": "Oldest first.", "items": {
            "type": "object", "additionalProperties": False,
            "required": ["id", "channel_id", "author_id", "content", "sent_at"], "properties": {
                "id": {**SNOWFLAKE, "description": "The Discord message id: the same id twice is stored once."},
                "channel_id": SNOWFLAKE,
                "thread_parent_id": {**NULLABLE_SNOWFLAKE, "description": "Set when the message is in a thread: "
                                                                          "the channel it was started in."},
                "author_id": SNOWFLAKE,
                "author_name": {"type": "string", "maxLength": 100, "pattern": NO_NUL},
                "is_bot": {"type": "boolean", "default": False,
                           "description": "A bot's or a system message: kept as context, never learned from."},
                "content": {"type": "string", "minLength": 1, "maxLength": 4000, "pattern": SOME_TEXT_NO_NUL},
                "sent_at": {"type": "string", "format": "date-time",
                            "description": "ISO 8601; without an offset it is taken as UTC."}}}}}},
    "MessagesAccepted": {"type": "object", "additionalProperties": False, "required": ["accepted", "ignored"],
                         "properties": {
                             "accepted": {"type": "integer", "minimum": 0, "maximum": 100,
                                          "description": "How many messages were stored to learn from."},
                             "ignored": {"type": "array", "description": "Messages not stored, each with why: a "
                                         "channel where memory may not be written, or already received.",
                                         "items": {"type": "object", "additionalProperties": False,
                                                   "required": ["id", "reason"], "properties": {
                                                       "id": SNOWFLAKE, "reason": {"type": "string"}}}}}},
    "DeletedMessagesRequest": {"type": "object", "additionalProperties": False, "required": ["message_ids"],
                               "properties": {"message_ids": {"type": "array", "minItems": 1, "maxItems": 100,
                                                              "items": SNOWFLAKE}}},
    "DeletedMessagesResult": {"type": "object", "additionalProperties": False, "required": ["withdrawn", "removed"],
                              "properties": {
                                  "withdrawn": {"type": "array", "items": NUMBER,
                                                "description": "The facts learned from those messages, now withdrawn "
                                                               "from the bot: retracted from Ledger up, given the "
                                                               "staff audience under Classic."},
                                  "removed": {"type": "integer", "minimum": 0,
                                              "description": "Stored messages and answered messages' texts "
                                                             "removed."}}},
    "MemberFacts": {"type": "object", "additionalProperties": False, "required": ["about", "learned_from"],
                    "properties": {
                        "about": {"type": "array", "items": _ref("Fact"),
                                  "description": "Facts about the member (scope member), newest change first."},
                        "learned_from": {"type": "array", "items": _ref("Fact"),
                                         "description": "Other facts learned from the member's messages, newest "
                                                        "change first."}}},
    "ForgetRequest": {"type": "object", "additionalProperties": False, "properties": {
        "member_name": {"type": "string", "maxLength": 100, "pattern": NO_NUL,
                        "description": "How staff will see the member named on a request."}}},
    "ForgetResult": {"oneOf": [
        {"type": "object", "additionalProperties": False, "required": ["wiped", "facts_removed"], "properties": {
            "wiped": {"const": True}, "facts_removed": {"type": "integer", "minimum": 0}}},
        {"type": "object", "additionalProperties": False, "required": ["wiped", "request"], "properties": {
            "wiped": {"const": False}, "request": {"const": "open", "description": "A request waits for staff "
                                                                                  "(asking again changes nothing)."}}}]},
}

GUILD = {"name": "guild_id", "in": "path", "required": True, "schema": SNOWFLAKE}
EXCHANGE = {"name": "exchange", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}
MEMBER = {"name": "member_id", "in": "path", "required": True, "schema": SNOWFLAKE}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[!-~]{1,200}$"},
    "description": "1 to 200 visible ASCII characters (a UUID is a good key), one per request the bot means to "
                   "make once: sent again with the same key and the same request (the same exchange or server and "
                   "the same JSON) within 24 hours, the call answers its first answer again, the same status and "
                   "bytes with the header Idempotent-Replayed: true, and changes nothing. Keys are per server. Only "
                   "a 200 is kept; after an error (which changed nothing) the key may be sent again. A request whose "
                   "key is being answered waits for that answer (up to 5 seconds; then 409 with Retry-After)."}
REPLAYED = {"Idempotent-Replayed": {"description": "true when this is the first answer to the Idempotency-Key, given "
                                                   "again; absent otherwise.", "schema": {"const": "true"}}}
KEY_CONFLICT = ("The Idempotency-Key was used in the last 24 hours for another request (another exchange or body), "
                "or a request with it is still being answered (with Retry-After); nothing was changed.")


def _body(name: str) -> dict:
    return {"required": True, "content": {"application/json": {"schema": _ref(name)}}}


def openapi_schema(server_url: str) -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "Lorekeeper bot API", "version": "1.0.0",
                 "description": "Long-term memory for a Discord bot. Authenticate with 'Authorization: Bearer "
                                "<token>' (a token belongs to one team). Every error is JSON: "
                                "{\"error\": \"<one sentence>\", \"field\": <name or null>}. A bad request never "
                                "changes memory."},
        "servers": [{"url": server_url}],
        "security": [{"bearerAuth": []}],
        "components": {
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}},
            "schemas": SCHEMAS,
        },
        "paths": {
            "/servers/{guild_id}": {"get": {
                "operationId": "getServer", "summary": "Check that the token reaches a server; its memory type.",
                "parameters": [GUILD],
                "responses": {"200": _json(_ref("Server")), **COMMON_ERRORS}}},
            "/servers/{guild_id}/context": {"post": {
                "operationId": "getContext",
                "summary": "Context for a reply: the summary and up to N facts, rendered as a memory block.",
                "description": "Records an exchange. Where memory may not be read in the channel (or thread), "
                               "facts and summary are empty and read_allowed is false.",
                "parameters": [GUILD], "requestBody": _body("Message"),
                "responses": {"200": _json(_ref("Context")), **COMMON_ERRORS}}},
            "/exchanges/{exchange}/search": {"post": {
                "operationId": "searchMemory",
                "summary": "The exchange's one full-text search over every fact in force.",
                "parameters": [EXCHANGE], "requestBody": _body("SearchRequest"),
                "responses": {"200": _json(_ref("SearchResult")), **COMMON_ERRORS,
                              "409": _error("Search not allowed here, already used in this exchange, or the "
                                            "exchange was answered by Lorekeeper's own model (reply).")}}},
            "/exchanges/{exchange}/actions": {"post": {
                "operationId": "applyActions",
                "summary": "Retract, supersede and remember. Only numbers shown in this exchange can be touched.",
                "parameters": [EXCHANGE, IDEMPOTENCY_KEY], "requestBody": _body("ActionsRequest"),
                "responses": {"200": {**_json(_ref("ActionsResult")), "headers": REPLAYED}, **COMMON_ERRORS,
                              "409": _error("The exchange was answered by Lorekeeper's own model (reply), which "
                                            "made its memory actions. " + KEY_CONFLICT)}}},
            "/servers/{guild_id}/reply": {"post": {
                "operationId": "reply",
                "summary": "The whole reply: context, the server's reply model with memory tools, actions.",
                "parameters": [GUILD, IDEMPOTENCY_KEY], "requestBody": _body("ReplyRequest"),
                "responses": {"200": {**_json(_ref("Reply")), "headers": REPLAYED}, **COMMON_ERRORS,
                              "409": _error(KEY_CONFLICT),
                              "429": {**_error("The reply model's monthly token budget (AI settings) is used up, "
                                               "and nothing was asked or changed; or the bot token sent more "
                                               "requests this minute than the server allows."),
                                      "headers": {"Retry-After": {
                                          "description": "Seconds until the next period: the next calendar month "
                                                         "(UTC) for the budget, the next minute for the rate limit.",
                                          "schema": {"type": "integer", "minimum": 1}}}},
                              "503": _error("The reply model failed or is not configured, or the reply did not "
                                            "finish within the server's reply deadline (the exchange is recorded "
                                            "as timed_out); nothing was changed.")}}},
            "/exchanges/{exchange}": {"get": {
                "operationId": "getExchange",
                "summary": "What was injected, searched, retracted, superseded and learned; model calls; the "
                           "facts it showed that are still in force and visible from its channel.",
                "parameters": [EXCHANGE],
                "responses": {"200": _json(_ref("Exchange")), **COMMON_ERRORS}}},
            "/servers/{guild_id}/channels": {"put": {
                "operationId": "reportChannels",
                "summary": "Add or update channels and threads: names, and whether @everyone can view them.",
                "description": "Idempotent; at most 500 channels and 64 KiB a call. Channels not sent are left as "
                               "they are. Whether a channel is public decides the audience of what the bot "
                               "learns there.",
                "parameters": [GUILD], "requestBody": _body("ChannelsRequest"),
                "responses": {"200": _json(_ref("ChannelsResult")), **COMMON_ERRORS}}},
            "/servers/{guild_id}/messages": {"post": {
                "operationId": "sendMessages",
                "summary": "Members' messages to learn from: stored, then learned from by the server's learning "
                           "model in the background.",
                "description": "Up to 100 messages, oldest first, and up to 3 MiB. Messages of channels where "
                               "memory may not be written are ignored with the reason. A learning run (the "
                               "learning model on AI settings, else the consolidation model) reads them soon "
                               "after; its writes are on the panel's Learning runs page.",
                "parameters": [GUILD], "requestBody": _body("MessagesRequest"),
                "responses": {"202": _json(_ref("MessagesAccepted"), "Accepted: stored to learn from"),
                              **COMMON_ERRORS, "413": _error("The request body is larger than 3 MiB.")}}},
            "/servers/{guild_id}/messages/deleted": {"post": {
                "operationId": "messagesDeleted",
                "summary": "Members deleted these Discord messages: what was learned from them is withdrawn from "
                           "the bot, and their words removed.",
                "description": "Up to 100 ids (Discord's bulk delete). A fact a learning run wrote from one of them, "
                               "or the bot remembered while answering one (give message_id on context/reply), is "
                               "retracted (Ledger and up; staff may restore it) or given the staff audience "
                               "(Classic; nothing is deleted). Ids Lorekeeper never saw change nothing. Audited as "
                               "the bot token.",
                "parameters": [GUILD], "requestBody": _body("DeletedMessagesRequest"),
                "responses": {"200": _json(_ref("DeletedMessagesResult")), **COMMON_ERRORS}}},
            "/servers/{guild_id}/purge": {"post": {
                "operationId": "purgeBySource",
                "summary": "Delete every fact learned in one channel (its threads included) or in one exchange.",
                "description": "Exactly one of channel_id and exchange. Facts in force or not, for good; audited "
                               "as the bot token. An exchange of another server answers 404.",
                "parameters": [GUILD], "requestBody": _body("PurgeRequest"),
                "responses": {"200": _json(_ref("PurgeResult")), **COMMON_ERRORS}}},
            "/servers/{guild_id}/members/{member_id}/facts": {"get": {
                "operationId": "getMemberFacts",
                "summary": "What the bot knows about a member (in force, every audience), to show them privately.",
                "parameters": [GUILD, MEMBER],
                "responses": {"200": _json(_ref("MemberFacts")), **COMMON_ERRORS}}},
            "/servers/{guild_id}/members/{member_id}/forget": {"post": {
                "operationId": "forgetMember",
                "summary": "The member asks to be forgotten: wiped now, or a request filed for staff, as the "
                           "server's AI settings choose.",
                "description": "A wipe deletes the facts about the member, the facts learned from their messages "
                               "and their exchanges (audited as the member). Send {} or the member's name.",
                "parameters": [GUILD, MEMBER], "requestBody": _body("ForgetRequest"),
                "responses": {"200": _json(_ref("ForgetResult")), **COMMON_ERRORS}}},
        },
    }
