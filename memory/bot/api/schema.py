"""The OpenAPI 3.1 description of API v1, served at /api/v1/schema.json.

Written by hand next to the code it describes; tests validate every API test response against it
and schemathesis fuzzes the endpoints from it, so it cannot drift silently.
"""

from __future__ import annotations

from memory.models import MemoryType
from memory.text.keys import KEY_INPUT_PATTERN, KEY_REGEX, WHITESPACE, code_point_class

SNOWFLAKE = {"type": "string", "pattern": "^[0-9]{1,20}$", "description": "A Discord id (snowflake) as a string."}
NULLABLE_SNOWFLAKE = {"anyOf": [SNOWFLAKE, {"type": "null"}]}
UNIT = {"type": "number", "minimum": 0, "maximum": 1}
NUMBER = {"type": "integer", "minimum": 1, "maximum": 2147483647}
REF = "#/components/schemas/"
# What the code refuses, said in the schema too, so that a request the schema accepts is accepted (tests:
# schemathesis' valid examples must answer 2xx). The API refuses NUL in message text (PostgreSQL text
# cannot hold it) and text that is only whitespace; fact text has NUL dropped instead, and a key is
# lower-cased with whitespace runs turned into "_" before its character rule applies. Whitespace is
# spelled out (Python's str.strip() set) because a pattern's \s differs between JavaScript and Python.
SPACE = code_point_class(WHITESPACE)
NO_NUL = "^[^\\u0000]*$"
SOME_TEXT_NO_NUL = f"^[^\\u0000]*[^{SPACE}\\u0000][^\\u0000]*$"
SOME_TEXT = f"[^{SPACE}\\u0000]"
# A key as memory.text.keys defines it: words of any language, "_", "." and "-", no other ASCII or full-width punctuation,
# no controls; upper case, whitespace, NUL and invisible characters are accepted on the way in (lowered, turned
# into "_", dropped).
KEY_INPUT = KEY_INPUT_PATTERN


def _ref(name: str) -> dict:
    return {"$ref": REF + name}


def _error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": _ref("Error")}}}


def _json(schema: dict, description: str = "OK") -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


COMMON_ERRORS = {
    "400": _error("Malformed JSON or a field out of range; the sentence names the field and the range."),
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
}

FACT_CONTENT_INPUT = {"type": "string", "minLength": 1, "maxLength": 1000, "pattern": SOME_TEXT,
                      "description": "Not only whitespace."}

SCHEMAS = {
    "Error": {"type": "object", "required": ["error", "field"], "additionalProperties": False, "properties": {
        "error": {"type": "string", "description": "One clear sentence."},
        "field": {"anyOf": [{"type": "string"}, {"type": "null"}]}}},
    "Fact": {"type": "object", "additionalProperties": False,
             "required": ["number", "key", "content", "scope", "member_id", "confidence"], "properties": {
                 "number": NUMBER, "key": {"type": "string", "pattern": KEY_REGEX},
                 "content": {"type": "string", "minLength": 1, "maxLength": 1000},
                 "scope": {"enum": ["server", "member"]}, "member_id": NULLABLE_SNOWFLAKE, "confidence": UNIT}},
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
        "exchange", "memory_type", "read_allowed", "write_allowed", "can_search", "summary", "facts", "prompt"],
        "properties": {
            "exchange": {"type": "string", "format": "uuid"}, "memory_type": _ref("MemoryType"),
            "read_allowed": {"type": "boolean"}, "write_allowed": {"type": "boolean"},
            "can_search": {"type": "boolean"}, "summary": {"type": "string"},
            "facts": {"type": "array", "items": _ref("Fact")},
            "prompt": {"type": "string", "description": "The memory block to put in the model's context."}}},
    "SearchRequest": {"type": "object", "additionalProperties": False, "required": ["query"], "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 500, "pattern": SOME_TEXT_NO_NUL,
                  "description": "Not only whitespace."}}},
    "SearchResult": {"type": "object", "additionalProperties": False,
                     "required": ["facts", "mode", "fallback_reason"], "properties": {
                         "facts": {"type": "array", "items": _ref("Fact")},
                         "mode": {"enum": ["words", "meaning", "hybrid"]},
                         "fallback_reason": {"anyOf": [{"type": "string"}, {"type": "null"}]}}},
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
                                                     "0.9, anything else the bot infers 0.7); higher is capped."}},
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
        "injected", "searched", "retracted", "superseded", "learned", "actions"], "properties": {
        "injected": {"type": "array", "items": NUMBER},
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
        "author_id", "read_allowed", "write_allowed", "can_search", "model_calls", "reply", "error", "memory"],
        "properties": {
            "exchange": {"type": "string", "format": "uuid"}, "guild_id": SNOWFLAKE,
            "created_at": {"type": "string", "format": "date-time"},
            "status": {"enum": ["context", "replied", "failed"]}, "memory_type": _ref("MemoryType"),
            "channel_id": SNOWFLAKE, "thread_parent_id": NULLABLE_SNOWFLAKE, "author_id": SNOWFLAKE,
            "read_allowed": {"type": "boolean"}, "write_allowed": {"type": "boolean"},
            "can_search": {"type": "boolean"}, "model_calls": {"type": "integer", "minimum": 0, "maximum": 2},
            "reply": {"type": "string"}, "error": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "memory": _ref("MemorySummary")}},
    "Server": {"type": "object", "additionalProperties": False, "required": ["guild_id", "name", "memory_type"],
               "properties": {"guild_id": SNOWFLAKE, "name": {"type": "string"}, "memory_type": _ref("MemoryType")}},
}

GUILD = {"name": "guild_id", "in": "path", "required": True, "schema": SNOWFLAKE}
EXCHANGE = {"name": "exchange", "in": "path", "required": True, "schema": {"type": "string", "format": "uuid"}}


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
                "parameters": [EXCHANGE], "requestBody": _body("ActionsRequest"),
                "responses": {"200": _json(_ref("ActionsResult")), **COMMON_ERRORS,
                              "409": _error("The exchange was answered by Lorekeeper's own model (reply), which "
                                            "made its memory actions.")}}},
            "/servers/{guild_id}/reply": {"post": {
                "operationId": "reply",
                "summary": "The whole reply: context, the server's reply model with memory tools, actions.",
                "parameters": [GUILD], "requestBody": _body("ReplyRequest"),
                "responses": {"200": _json(_ref("Reply")), **COMMON_ERRORS,
                              "503": _error("The reply model failed or is not configured; nothing was changed.")}}},
            "/exchanges/{exchange}": {"get": {
                "operationId": "getExchange",
                "summary": "What was injected, searched, retracted, superseded and learned; model calls.",
                "parameters": [EXCHANGE],
                "responses": {"200": _json(_ref("Exchange")), **COMMON_ERRORS}}},
        },
    }
