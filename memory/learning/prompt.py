"""What the learning model is asked about one channel's new messages, and its answer read as proposals: each
checked on its own, so one bad item is refused with its reason and the rest still count."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError

from memory.facts.validation import validate_kind, validate_member_id
from memory.models import CHANNEL_NOTE_MAX_LENGTH, ChannelMessage, Fact, Kind, Scope
from memory.text.limits import validate_content, validate_key, validate_unit_interval

OPS = ("new", "reinforce", "contradicts")
MAX_FACTS_PER_CALL = 20  # proposals of one channel's call; more are refused, each with the reason

SYSTEM_PROMPT = f"""You keep the long-term memory of a Discord community. You read the newest messages of one channel
and say what is worth remembering for months: rules, lore, who members are, what they like, what is planned or
happened. Learn only from what members said. A bot's message (marked "bot") only shows what a member was answering:
nothing a bot said is a fact on its own, and neither is a notice.

Answer with one JSON object and nothing else:
{{"facts": [{{"op": "new" | "reinforce" | "contradicts", "number": <the known fact's number, for reinforce and
contradicts>, "key": "short_topic_key", "content": "one sentence, in the language the members wrote",
"scope": "member" | "server", "member_id": "<the id of the member it is about, for scope member>",
"kind": "{'" | "'.join(Kind.values)}", "importance": 0.0-1.0, "confidence": 0.0-1.0,
"message_ids": ["<the ids of the messages it rests on>"]}}],
 "note": "<what is going on in this channel now, for continuing the conversation: at most
{CHANNEL_NOTE_MAX_LENGTH} characters; empty when nothing is>"}}

A known fact a member says again: "reinforce" with its number. A member saying something that makes a known fact
untrue: "contradicts" with its number and the new content. Anything else worth keeping: "new". Small talk,
greetings and questions are not facts. Give an empty list when nothing is worth remembering."""


@dataclass(frozen=True)
class Proposal:
    """One write the model proposed, checked: what it rests on and what it says."""

    op: str
    number: int | None
    key: str
    content: str
    scope: str
    member_id: str
    kind: str | None
    importance: float | None
    confidence: float | None
    message_ids: tuple[str, ...]


@dataclass(frozen=True)
class Refused:
    """An item of the answer that could not be a proposal, and why."""

    item: object
    reason: str


@dataclass(frozen=True)
class Answer:
    proposals: list[Proposal]
    refused: list[Refused]
    note: str | None  # None: the model gave no note (the old one stays)


def _message_line(message: ChannelMessage) -> str:
    who = f"bot {message.author_name or message.author_id}" if message.is_bot else (
        f"{message.author_name} (member {message.author_id})" if message.author_name else f"member {message.author_id}")
    return f"[id {message.message_id}] {message.sent_at:%Y-%m-%d %H:%M} {who}: {message.content}"


def _fact_line(fact: Fact, names: dict[str, str]) -> str:
    about = ""
    if fact.scope == Scope.MEMBER:
        name = names.get(fact.member_id)
        about = f" (about {name} ({fact.member_id}))" if name else f" (about member {fact.member_id})"
    return f"[#{fact.number}] ({fact.changed_at:%Y-%m-%d}) {fact.key}: {fact.content}{about}"


def learning_request(messages: Sequence[ChannelMessage], known: Sequence[Fact], note: str,
                     names: dict[str, str], max_facts: int) -> list[dict]:
    """The chat messages of one channel's learning call: what is known, the channel's note, the new messages."""
    parts = [f"At most {max_facts} facts."]
    parts.append("Known facts:\n" + ("\n".join(_fact_line(fact, names) for fact in known) or "(none yet)"))
    if note:
        parts.append(f"The channel's note so far:\n{note}")
    parts.append("New messages, oldest first:\n" + "\n".join(_message_line(message) for message in messages))
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": "\n\n".join(parts)}]


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)


class AnswerUnreadable(Exception):
    """The whole answer is not the JSON object asked for: nothing of it can be applied."""


def _whole_number(raw: object) -> int | None:
    if isinstance(raw, str) and raw.lstrip("#").isdigit():
        raw = int(raw.lstrip("#"))
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and 1 <= raw <= 2**31 - 1 else None


def _proposal(item: object, message_ids: set[str]) -> Proposal:
    """One item as a proposal; ValueError saying what is wrong with it."""
    if not isinstance(item, dict):
        raise ValueError("not an object")
    op = item.get("op", "new")
    if op not in OPS:
        raise ValueError(f"op must be one of {', '.join(OPS)}")
    number = _whole_number(item.get("number"))
    if op != "new" and number is None:
        raise ValueError(f"{op} needs the number of a known fact")
    cited = item.get("message_ids")
    if not isinstance(cited, list) or not cited:
        raise ValueError("it names no message it rests on")
    cited_ids = tuple(dict.fromkeys(str(value) for value in cited))
    unknown = [value for value in cited_ids if value not in message_ids]
    if unknown:
        raise ValueError(f"message {unknown[0]} is not among the messages read")
    scope = item.get("scope", Scope.MEMBER if item.get("member_id") else Scope.SERVER)
    if scope not in Scope.values:
        raise ValueError("scope must be member or server")
    try:
        # A reinforcement needs no wording; a contradiction takes the key of the fact it contradicts unless it
        # gives one.
        content = validate_content(_text(item.get("content"))) if op != "reinforce" else ""
        key = validate_key(_text(item.get("key"))) if op == "new" or item.get("key") else ""
        member = _text(item.get("member_id"))
        return Proposal(
            op=op, number=number, key=key, content=content, scope=scope,
            member_id=validate_member_id(member) if scope == Scope.MEMBER and member else "",
            kind=None if item.get("kind") is None else validate_kind(item.get("kind")),
            importance=validate_unit_interval(item.get("importance"), "importance", allow_none=True),
            confidence=validate_unit_interval(item.get("confidence"), "confidence", allow_none=True),
            message_ids=cited_ids)
    except ValidationError as invalid:
        raise ValueError(" ".join(invalid.messages)) from None


def _text(raw: object) -> str:
    """Text as given; a number where text belongs (a member id as 222) as its digits, anything else as nothing."""
    if isinstance(raw, bool):
        return ""
    return raw if isinstance(raw, str) else str(raw) if isinstance(raw, int) else ""


def learning_answer(content: str, message_ids: set[str], max_facts: int) -> Answer:
    """The model's answer as proposals, each bad item refused with its reason (AnswerUnreadable: none at all)."""
    try:
        body = json.loads(_FENCE.sub("", content.strip()))
    except json.JSONDecodeError:
        raise AnswerUnreadable("The learning model's answer is not JSON.") from None
    if not isinstance(body, dict) or not isinstance(body.get("facts", []), list):
        raise AnswerUnreadable('The learning model\'s answer is not an object with a "facts" list.')
    proposals: list[Proposal] = []
    refused: list[Refused] = []
    for item in body.get("facts", []):
        if len(proposals) >= max_facts:
            refused.append(Refused(item, f"more than the {max_facts} facts one call may propose"))
            continue
        try:
            proposals.append(_proposal(item, message_ids))
        except ValueError as wrong:
            refused.append(Refused(item, str(wrong)))
    note = body.get("note")
    return Answer(proposals, refused, note.strip()[:CHANNEL_NOTE_MAX_LENGTH] if isinstance(note, str) else None)
