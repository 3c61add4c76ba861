"""The building blocks of the API's OpenAPI description (memory.bot.api.schema): ids, numbers and the text patterns
that say in the schema what the code refuses."""

from __future__ import annotations

from memory.text.keys import KEY_INPUT_PATTERN, WHITESPACE, code_point_class

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
