"""The lines of a memory export read and checked, without the database: what they would import (the counts the
panel shows before anyone confirms) or every line that is wrong, each as a sentence naming it.

One rule for a hand-written file: a field given as null is the same as a field left out, so `"member_id": null`
is a server fact (the model stores "no member" as ""), except where null means something (`retracted_at`: in
force; `importance`: unscored; `superseded_by`: replaced by nothing).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone as dt_timezone

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from memory.models import Audience, AuthorKind, Fact, Kind, Scope, Summary
from memory.text.limits import CONTENT_MAX_LENGTH, SUMMARY_MAX_LENGTH, validate_key
from teams.models import SNOWFLAKE_REGEX, Server

from .confidence import CONFIDENCE_IMPORTED

FORMAT = "lorekeeper-memory/1"
HEADER_FIELDS = ("format", "guild_id", "name", "exported_at")
FACT_FIELDS = ("number", "scope", "member_id", "key", "content", "confidence", "importance", "author_kind",
               "learned_from_member_id", "created_at", "changed_at", "valid_from", "retracted_at", "retraction_reason",
               "version", "audience", "source_channel_id", "source_thread_id", "kind", "pinned", "mention_count")
# "kind" names the line's kind ("fact", "summary"), so a fact's own kind (rule, lore…) is written as "fact_kind".
FACT_KIND_FIELD = "fact_kind"
# A fact line's fields as the file names them.
FILE_FACT_FIELDS = tuple(FACT_KIND_FIELD if name == "kind" else name for name in FACT_FIELDS) + ("superseded_by",)
SUMMARY_FIELDS = ("content", "author_kind", "created_at", "retracted_at")
DATES = {"created_at", "changed_at", "valid_from", "retracted_at"}
# Where null says something of its own; anywhere else null means "not given".
_NULL_MEANS_SOMETHING = {"retracted_at", "importance", "superseded_by"}
_IDS = {"member_id", "learned_from_member_id", "source_channel_id", "source_thread_id"}
_WHOLE_NUMBERS = {"number", "version", "mention_count"}
_UNIT_NUMBERS = {"confidence", "importance"}
_CHOICES = {"scope": Scope.values, "author_kind": AuthorKind.values, "audience": Audience.values,
            FACT_KIND_FIELD: Kind.values}
_TEXTS = {"content", "retraction_reason"}
# What a fact line left out means: the model's defaults, but for confidence. A line that does not say how sure it
# is (written by hand or by another tool) is trusted less than an export, which always says.
_FACT_DEFAULTS = {"scope": Scope.SERVER, "member_id": "", "retracted_at": None, "audience": Audience.SERVER,
                  "source_channel_id": "", "source_thread_id": "", "confidence": CONFIDENCE_IMPORTED}
_INT_MAX = 2_147_483_647  # PositiveIntegerField's column is a PostgreSQL integer
ERRORS_LISTED = 20  # a file wrong on every line would otherwise answer with a million sentences


class ImportRefused(ValidationError):
    """The import was refused and nothing was written; `messages` are the sentences (each bad line named)."""


class _Bad(Exception):
    """What is wrong with one value or line (the caller adds the line's number)."""


@dataclass
class ImportPlan:
    """What the lines hold: their counts, the replacements to link and every error (the rows themselves are built
    by rows_to_write, once every line is known to be right)."""

    source_name: str = ""
    source_guild_id: str = ""
    exported_at: datetime | None = None
    facts_in_force: int = 0
    facts_retracted: int = 0
    summaries_count: int = 0
    members: set[str] = field(default_factory=set)
    highest_number: int = 0
    replaced_by: dict[int, int] = field(default_factory=dict)
    errors: list[tuple[int, str]] = field(default_factory=list)  # (line, sentence); line 0: the whole file

    @property
    def facts_count(self) -> int:
        return self.facts_in_force + self.facts_retracted

    @property
    def members_named(self) -> int:
        return len(self.members)

    def error_sentences(self) -> list[str]:
        """The first ERRORS_LISTED sentences in line order, and how many more lines were wrong."""
        ordered = [sentence for _line, sentence in sorted(self.errors, key=lambda error: error[0])]
        listed = ordered[:ERRORS_LISTED]
        if len(ordered) > ERRORS_LISTED:
            listed.append(_("… and %(count)s more lines are wrong.") % {"count": len(ordered) - ERRORS_LISTED})
        return listed


def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def _storable(text: str) -> bool:
    """PostgreSQL text holds neither NUL nor a lone surrogate (which a JSON "\\ud800" escape gives)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


def _object_without_repeats(pairs: list[tuple[str, object]]) -> dict:
    row = dict(pairs)
    if len(row) < len(pairs):
        seen: set[str] = set()
        twice = next(name for name, _value in pairs if name in seen or seen.add(name))
        raise _Bad(_("the field “%(field)s” is given twice.") % {"field": twice})
    return row


def _refuse_constant(name: str):
    raise _Bad(_("%(value)s is not a number JSON allows.") % {"value": name})


def _row(raw: str | bytes) -> dict:
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise _Bad(_("the line is not UTF-8 text.")) from None
    try:
        row = json.loads(raw.lstrip("\ufeff"), object_pairs_hook=_object_without_repeats,
                         parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise _Bad(_("the line is not JSON (it goes wrong at character %(column)s).") % {"column": error.colno}) \
            from None
    except (RecursionError, ValueError):
        # Lists nested thousands deep, or a number of more digits than Python converts (4,300): JSON, but no export.
        raise _Bad(_("the line is not a memory export's line (nested too deeply, or a number far too long).")) \
            from None
    if not isinstance(row, dict):
        raise _Bad(_("the line is not a JSON object ({…})."))
    return row


def _date(name: str, value) -> datetime:
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        # A time without an offset, as a hand-written line may give it, is read as UTC; stored as UTC, year 1 at
        # +05:00 would fall before the first year a date may have.
        moment = moment and (moment if moment.tzinfo else moment.replace(tzinfo=dt_timezone.utc)) \
            .astimezone(dt_timezone.utc)
    except (ValueError, OverflowError):
        moment = None
    if moment is None:
        raise _Bad(_("%(field)s %(value)s is not a date and time (write it as 2025-05-03T18:00:00+00:00).")
                   % {"field": name, "value": _shown(value)})
    return moment


def _checked(name: str, value):
    """The value as the model stores it, or _Bad with what is wrong."""
    if name in DATES:
        return None if value is None else _date(name, value)
    if name in _IDS:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            value = str(value)
        if not isinstance(value, str) or (value and not re.fullmatch(SNOWFLAKE_REGEX, value)):
            raise _Bad(_("%(field)s %(value)s is not a Discord id (a number of 1–20 digits, written as a string).")
                       % {"field": name, "value": _shown(value)})
        return value
    if name in _WHOLE_NUMBERS or name == "superseded_by":
        if value is None and name == "superseded_by":
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= _INT_MAX:
            raise _Bad(_("%(field)s must be a whole number from 1 up, not %(value)s.")
                       % {"field": name, "value": _shown(value)})
        return value
    if name in _UNIT_NUMBERS:
        if value is None and name == "importance":
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or not 0 <= value <= 1:
            raise _Bad(_("%(field)s must be a number from 0 to 1, not %(value)s.")
                       % {"field": name, "value": _shown(value)})
        return float(value)
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise _Bad(_("%(field)s must be one of %(choices)s, not %(value)s.")
                       % {"field": name, "choices": ", ".join(_CHOICES[name]), "value": _shown(value)})
        return value
    if name == "pinned":
        if not isinstance(value, bool):
            raise _Bad(_("pinned must be true or false, not %(value)s.") % {"value": _shown(value)})
        return value
    if name == "key":
        try:
            stored = validate_key(value) if isinstance(value, str) else None
        except ValidationError:
            stored = None
        # The database check cannot tell upper from lower case beyond ASCII ("Äpfel"), and a lone surrogate would
        # fail it as an encoding error instead of a sentence.
        if stored != value:
            raise _Bad(_("the key %(value)s is not written as keys are stored (lower case, “_” for spaces, no "
                         "punctuation but “_”, “.” and “-”, at most 64 characters).")
                       % {"value": _shown(value)})
        return value
    if not isinstance(value, str) or not _storable(value):
        raise _Bad(_("%(field)s must be text (without NUL characters), not %(value)s.")
                   % {"field": name, "value": _shown(value)})
    return value


def _values(row: dict, fields: tuple[str, ...], kind: str) -> dict:
    unknown = sorted(set(row) - set(fields) - {"kind"})
    if unknown:
        raise _Bad(_("unknown field %(fields)s on a %(kind)s line.")
                   % {"fields": ", ".join(f"“{name}”" for name in unknown), "kind": kind})
    return {name: _checked(name, value) for name, value in row.items()
            if name != "kind" and (value is not None or name in _NULL_MEANS_SOMETHING)}


def _fact(row: dict) -> tuple[dict, int | None]:
    """A fact line's values as Fact takes them (the checks read a dict: building a model instance costs more than
    the checks, and the check step keeps no rows), and the number of the fact that replaced it."""
    for required in ("number", "key", "content"):
        if row.get(required) is None:
            raise _Bad(_("a fact line needs “%(field)s”.") % {"field": required})
    values = {**_FACT_DEFAULTS, **_values(row, FILE_FACT_FIELDS, "fact")}
    replaced_by = values.pop("superseded_by", None)
    if FACT_KIND_FIELD in values:
        values["kind"] = values.pop(FACT_KIND_FIELD)
    if not 1 <= len(values["content"]) <= CONTENT_MAX_LENGTH:
        raise _Bad(_("the content is %(length)s characters long; it must be 1–%(limit)s.")
                   % {"length": len(values["content"]), "limit": CONTENT_MAX_LENGTH})
    if values["scope"] == Scope.MEMBER and not values["member_id"]:
        raise _Bad(_("a member fact (scope “member”) needs the member's Discord id in member_id."))
    if values["scope"] == Scope.SERVER and values["member_id"]:
        raise _Bad(_("a server fact (scope “server”) is about no member: leave member_id out or null, or say "
                     "scope “member”."))
    if replaced_by is not None and values["retracted_at"] is None:
        raise _Bad(_("superseded_by is set but retracted_at is not: only a retracted fact is replaced."))
    if replaced_by == values["number"]:
        raise _Bad(_("fact #%(number)s cannot be replaced by itself.") % {"number": values["number"]})
    if values["audience"] == Audience.CHANNEL and not values["source_channel_id"]:
        raise _Bad(_("a fact with the channel audience needs its channel's id in source_channel_id."))
    if values["source_thread_id"] and not values["source_channel_id"]:
        raise _Bad(_("source_thread_id needs the thread's channel in source_channel_id."))
    return values, replaced_by


def _summary(server: Server, row: dict) -> Summary:
    summary = Summary(server=server, **_values(row, SUMMARY_FIELDS, "summary"))
    if len(summary.content) > SUMMARY_MAX_LENGTH:
        raise _Bad(_("the summary is %(length)s characters long; it may be at most %(limit)s.")
                   % {"length": len(summary.content), "limit": SUMMARY_MAX_LENGTH})
    return summary


def _read_header(plan: ImportPlan, row: dict) -> None:
    if row.get("format") != FORMAT:
        raise _Bad(_("this is not a Lorekeeper memory export (the first line must say \"format\": \"%(format)s\").")
                   % {"format": FORMAT})
    unknown = sorted(set(row) - set(HEADER_FIELDS))
    if unknown:
        raise _Bad(_("unknown field %(fields)s on the first line.")
                   % {"fields": ", ".join(f"“{name}”" for name in unknown)})
    plan.source_name, plan.source_guild_id = str(row.get("name") or ""), str(row.get("guild_id") or "")
    try:
        plan.exported_at = _date("exported_at", row["exported_at"]) if row.get("exported_at") else None
    except _Bad:
        plan.exported_at = None  # only shown: an unreadable date of export is left out, not refused


@dataclass
class _Reading:
    """What the lines read so far say about the ones to come."""

    fact_lines: dict[int, int] = field(default_factory=dict)  # number → the line that holds it
    replacements: list[tuple[int, int, int]] = field(default_factory=list)  # (line, number, the one replacing it)
    current_summary_line: int = 0


def plan_from_lines(server: Server, lines: Iterable[str | bytes], *, has_memory: bool) -> ImportPlan:
    """Read every line; the plan's errors say why the import is refused (nothing is ever written here)."""
    plan, reading = ImportPlan(), _Reading()
    if has_memory:
        plan.errors.append((0, _("This server already has memory; import only into a server without facts or "
                                 "summary (wipe it first).")))
        return plan
    header_seen = False
    for line, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        is_header, header_seen = not header_seen, True
        try:
            row = _row(raw)
            if is_header:
                _read_header(plan, row)
            elif row.get("kind") == "summary":
                _take_summary(plan, reading, line, _summary(server, row))
            elif row.get("kind") == "fact":
                _take_fact(plan, reading, line, *_fact(row))
            else:
                raise _Bad(_("“kind” must be \"fact\" or \"summary\", not %(value)s.")
                           % {"value": _shown(row.get("kind"))})
        except _Bad as bad:
            plan.errors.append((line, _("Line %(line)s: %(problem)s") % {"line": line, "problem": bad}))
            if is_header:
                return plan  # not an export we can read: its other lines would only repeat that
    for line, number, replacement in reading.replacements:
        if replacement not in reading.fact_lines:
            plan.errors.append((line, _("Line %(line)s: superseded_by names fact #%(replacement)s, which is not in "
                                        "the file.") % {"line": line, "replacement": replacement}))
        else:
            plan.replaced_by[number] = replacement
    if not header_seen:
        plan.errors.append((0, _("The file is empty: a Lorekeeper memory export starts with a line saying "
                                 "\"format\": \"%(format)s\".") % {"format": FORMAT}))
    elif not plan.errors and not plan.facts_count and not plan.summaries_count:
        plan.errors.append((0, _("The file holds no facts and no summary: there is nothing to import.")))
    return plan


def _take_summary(plan: ImportPlan, reading: _Reading, line: int, summary: Summary) -> None:
    if summary.retracted_at is None:
        if reading.current_summary_line:
            raise _Bad(_("a second summary in force (line %(first)s is one): only one may be; give the others "
                         "retracted_at.") % {"first": reading.current_summary_line})
        reading.current_summary_line = line
    plan.summaries_count += 1


def _take_fact(plan: ImportPlan, reading: _Reading, line: int, values: dict, replaced_by: int | None) -> None:
    number = values["number"]
    if number in reading.fact_lines:
        raise _Bad(_("the file holds fact #%(number)s more than once (first on line %(first)s).")
                   % {"number": number, "first": reading.fact_lines[number]})
    reading.fact_lines[number] = line
    if replaced_by is not None:
        reading.replacements.append((line, number, replaced_by))
    if values["retracted_at"] is None:
        plan.facts_in_force += 1
    else:
        plan.facts_retracted += 1
    if values["member_id"]:
        plan.members.add(values["member_id"])
    plan.highest_number = max(plan.highest_number, number)


def rows_to_write(server: Server, lines: Iterable[str | bytes]) -> Iterator[Fact | Summary]:
    """The rows of lines plan_from_lines found no fault in, one at a time: a batch can be written and let go
    (holding 100,000 model instances at once cost the garbage collector as much again as building them)."""
    header_seen = False
    for raw in lines:
        if not raw.strip():
            continue
        if not header_seen:
            header_seen = True
            continue
        row = _row(raw)
        if row["kind"] == "summary":
            yield _summary(server, row)
        else:
            yield Fact(server=server, **_fact(row)[0])
