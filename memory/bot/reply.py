"""The reply pipeline: context → model (with memory tools) → at most one search round → memory actions.

Never more than two model calls per exchange. Memory changes only after the model has answered:
if the endpoint fails or times out, the exchange is recorded as failed and memory is untouched.
The whole reply ends by the server's reply deadline (AI settings): each model call waits at most what
remains of it, and past it the exchange is recorded as timed out, with no memory action applied. Over the
reply model's monthly budget nothing is asked and nothing recorded but the refusal (ReplyOverBudget).
Every model call's usage is recorded (memory.usage), linked to the exchange.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError

from memory.clients.chat import DeadlinePassed, ModelAnswer, ModelError, ToolCall, chat_completion
from memory.configuration.selectors import ai_settings_for_server, member_names, model_endpoints_for_server
from memory.models import Exchange, ExchangeStatus, ModelEndpoint, ModelPurpose, Scope, UsagePurpose
from memory.text.limits import clean_text, validate_content
from memory.types import profile_for
from memory.usage.budget import REPLY, BudgetState, over_budget
from memory.usage.recording import CallUsage, model_calls_record
from teams.models import Server

from .actions import (
    ActionResult,
    MemoryOp,
    Retract,
    Supersede,
    build_remember,
    exchange_apply_actions,
    held_to_members_words,
    validate_number,
    validate_reason,
)
from .exchanges import (
    ExchangeContext,
    ExchangeRefused,
    IncomingMessage,
    exchange_finish,
    exchange_open,
    exchange_search,
    search_unavailable_reason,
)
from .prompt import memory_tools, search_results_block, speaker_line, system_prompt

HISTORY_LIMIT = 30
NO_REPLY_MODEL = "No reply model is configured for this server; set one on the AI settings page."


@dataclass(frozen=True)
class HistoryMessage:
    author_name: str
    content: str
    is_bot: bool = False


class ReplyFailed(Exception):
    """The model endpoint failed (API: 503). The exchange is recorded as failed; memory is unchanged."""

    def __init__(self, exchange: Exchange, reason: str):
        super().__init__(reason)
        self.exchange = exchange
        self.reason = reason


class ReplyTimedOut(ReplyFailed):
    """The reply did not end by the server's reply deadline (API: 503). Recorded as timed out; memory unchanged."""


class ReplyOverBudget(Exception):
    """The reply model's monthly budget is used up (API: 429 with Retry-After): nothing was asked or recorded."""

    def __init__(self, state: BudgetState):
        super().__init__(state.sentence())
        self.state = state
        self.reason = state.sentence()


@dataclass
class ReplyOutcome:
    exchange: Exchange
    reply: str
    model_calls: int
    actions: list[ActionResult] = field(default_factory=list)


def _conversation(context: ExchangeContext, message: IncomingMessage, history: list[HistoryMessage],
                  server: Server) -> list[dict]:
    profile = profile_for(context.exchange.memory_type)
    messages = [{"role": "system", "content": system_prompt(server.name, profile, context.exchange.memory_block,
                                                            can_search=context.exchange.can_search,
                                                            persona=context.persona)}]
    for earlier in history[-HISTORY_LIMIT:]:
        # Speaker names on every message, the bot's own included, so the model keeps track of who said what.
        messages.append({"role": "assistant" if earlier.is_bot else "user",
                         "content": speaker_line(earlier.author_name, earlier.content)})
    messages.append({"role": "user", "content": speaker_line(message.author_name, message.content)})
    return messages


def _remember_about(args: dict, speaker_id: str) -> tuple[str, str | None]:
    """The scope and member of a remember call: about_member_id names a member; about 'speaker' is the person
    talking (the message's author), whose id the model need not know; otherwise the server."""
    member_id, about = args.get("about_member_id"), args.get("about")
    if member_id not in (None, ""):
        return Scope.MEMBER, member_id
    if about not in (None, "", "speaker", "server"):
        raise ValidationError({"about": "about must be 'speaker' (the person talking) or 'server', or left out."})
    return (Scope.MEMBER, speaker_id) if about == "speaker" else (Scope.SERVER, None)


def op_from_tool_call(call: ToolCall, speaker_id: str = "") -> MemoryOp | ActionResult:
    """A memory op from the model's tool call, or an 'ignored' result saying what was wrong with it; a remember
    about the 'speaker' is about `speaker_id` (the message's author)."""
    op_names = {"forget_memory": "retract", "replace_memory": "supersede", "remember": "remember"}
    op = op_names.get(call.name, "unknown")
    args = call.arguments
    if args is None:
        return ActionResult(op=op, status="ignored", detail=f"the model sent unreadable arguments for {call.name}")
    try:
        if call.name == "forget_memory":
            return Retract(number=validate_number(args.get("number")), reason=validate_reason(args.get("reason", "")))
        if call.name == "replace_memory":
            return Supersede(number=validate_number(args.get("number")),
                             content=validate_content(args.get("new_content") if isinstance(
                                 args.get("new_content"), str) else ""),
                             reason=validate_reason(args.get("reason", "")))
        if call.name == "remember":
            scope, member_id = _remember_about(args, speaker_id)
            return build_remember(key=args.get("key"), content=args.get("content"), scope=scope, member_id=member_id,
                                  importance=args.get("importance"), kind=args.get("kind"))
    except ValidationError as invalid:
        number = args.get("number")
        number = number if isinstance(number, int) and not isinstance(number, bool) and 1 <= number < 2**31 else None
        return ActionResult(op=op, status="ignored", number=number,
                            detail=f"the model sent invalid arguments: {' '.join(invalid.messages)}")
    return ActionResult(op="unknown", status="ignored", detail=f"the model called an unknown tool {call.name[:100]!r}")


def _split_calls(answer: ModelAnswer) -> tuple[list[ToolCall], list[ToolCall]]:
    searches = [call for call in answer.tool_calls if call.name == "search_memory"]
    others = [call for call in answer.tool_calls if call.name != "search_memory"]
    return searches, others


def _deadline_reason(deadline_s: int) -> str:
    return f"The reply did not finish within the server's reply deadline of {deadline_s} seconds."


class _Calls:
    """The model calls of one reply, each with the usage its endpoint reported (none for a call that failed)."""

    def __init__(self, endpoint: ModelEndpoint, deadline: float):
        self.endpoint, self.deadline, self.usages = endpoint, deadline, []

    def ask(self, conversation: list[dict], tools: list[dict]) -> ModelAnswer:
        try:
            answer = chat_completion(self.endpoint, conversation, tools, deadline=self.deadline)
        except DeadlinePassed:
            raise  # nothing was sent: no call to record
        except ModelError:
            self.usages.append(CallUsage(self.endpoint.model_name))  # asked, and nothing reported: unknown
            raise
        self.usages.append(CallUsage(self.endpoint.model_name, answer.usage.prompt_tokens,
                                     answer.usage.completion_tokens))
        return answer

    @property
    def late(self) -> bool:
        """Past the deadline; a timeout cut to what remained may fire a hair early, hence the margin."""
        return time.monotonic() >= self.deadline - 0.05


def reply_to_message(*, server: Server, message: IncomingMessage, history: list[HistoryMessage],
                     source: str = "reply") -> ReplyOutcome:
    """Answer one message as the bot. Raises ReplyOverBudget (nothing asked, nothing recorded) over the reply
    model's monthly budget, ReplyTimedOut past the reply deadline and ReplyFailed when the model fails (the
    exchange recorded, nothing changed in memory)."""
    started = time.perf_counter()
    ai_settings = ai_settings_for_server(server)
    # Left out of the hot path's statement (memory.bot.selectors): both in one query, not one each.
    deferred = ai_settings.get_deferred_fields() & {"reply_deadline_seconds", "reply_token_budget"}
    if deferred:
        ai_settings.refresh_from_db(fields=sorted(deferred))
    spent = over_budget(ai_settings, REPLY)
    if spent is not None:
        raise ReplyOverBudget(spent)
    deadline_s = ai_settings.reply_deadline_seconds
    deadline = time.monotonic() + deadline_s
    context = exchange_open(server=server, message=message, source=source)
    exchange = context.exchange

    def elapsed_ms() -> int:
        return int((time.perf_counter() - started) * 1000)

    endpoint = model_endpoints_for_server(server).get(ModelPurpose.REPLY)
    if endpoint is None:
        exchange_finish(exchange=exchange, status=ExchangeStatus.FAILED, error=NO_REPLY_MODEL,
                        duration_ms=elapsed_ms())
        raise ReplyFailed(exchange, NO_REPLY_MODEL)
    model = _Calls(endpoint, deadline)

    def end_early(status: str, reason: str, error_class: type[ReplyFailed]) -> ReplyFailed:
        model_calls_record(server_id=server.pk, purpose=UsagePurpose.REPLY, calls=model.usages,
                           exchange_id=exchange.pk)
        exchange_finish(exchange=exchange, status=status, error=reason, model_calls=len(model.usages),
                        duration_ms=elapsed_ms())
        return error_class(exchange, reason)

    if model.late:  # the context alone took the whole deadline
        raise end_early(ExchangeStatus.TIMED_OUT, _deadline_reason(deadline_s), ReplyTimedOut)
    profile = profile_for(exchange.memory_type)
    tools = memory_tools(profile, can_search=exchange.can_search, write_allowed=exchange.write_allowed)
    conversation = _conversation(context, message, history, server)
    first_calls: list[ToolCall] = []  # may only touch facts handed in the context
    later_calls: list[ToolCall] = []  # after the search: may also touch facts it found
    ignored: list[ActionResult] = []
    try:
        answer = model.ask(conversation, tools)
        searches, others = _split_calls(answer)
        first_calls.extend(others)
        reply = answer.content
        if searches and not exchange.can_search:
            # The tool was not offered (type below Searchable archive, or no reading here): no second call.
            ignored.extend(ActionResult(op="search", status="ignored",
                                        detail=search_unavailable_reason(exchange)) for _ in searches)
        elif searches:
            first, *extra = searches
            ignored.extend(_extra_search_ignored() for _ in extra)
            # The model waits for the search: the second and last call gets its results (or why
            # there are none), and every other tool call of the first answer an acknowledgement.
            conversation.append({"role": "assistant", "content": answer.content or None,
                                 "tool_calls": [_raw_call(call) for call in answer.tool_calls]})
            for call in answer.tool_calls:
                conversation.append({"role": "tool", "tool_call_id": call.id,
                                     "content": _tool_reply(call, first, context, ignored)})
            second = model.ask(conversation, [tool for tool in tools if tool["function"]["name"] != "search_memory"])
            more_searches, more_others = _split_calls(second)
            ignored.extend(_extra_search_ignored() for _ in more_searches)
            later_calls.extend(more_others)
            reply = second.content
    except ModelError as failure:
        if model.late:
            raise end_early(ExchangeStatus.TIMED_OUT, f"{_deadline_reason(deadline_s)} {failure}",
                            ReplyTimedOut) from None
        raise end_early(ExchangeStatus.FAILED, str(failure), ReplyFailed) from None
    if model.late:  # answered, but past the deadline: the bot says nothing, so memory must not change either
        raise end_early(ExchangeStatus.TIMED_OUT, _deadline_reason(deadline_s), ReplyTimedOut)

    said, names = _members_words(message, history)
    first_ops = held_to_members_words(_parse_calls(first_calls, ignored, message.author_id), said, names)
    later_ops = held_to_members_words(_parse_calls(later_calls, ignored, message.author_id), said, names)
    results = exchange_apply_actions(exchange=exchange, ops=later_ops, shown_only_ops=first_ops,
                                     already_ignored=ignored)
    model_calls_record(server_id=server.pk, purpose=UsagePurpose.REPLY, calls=model.usages, exchange_id=exchange.pk)
    exchange_finish(exchange=exchange, status=ExchangeStatus.REPLIED, reply=reply, model_calls=len(model.usages),
                    duration_ms=elapsed_ms())
    return ReplyOutcome(exchange=exchange, reply=reply, model_calls=len(model.usages), actions=results)


def _parse_calls(calls: list[ToolCall], ignored: list[ActionResult], speaker_id: str) -> list[MemoryOp]:
    ops: list[MemoryOp] = []
    for call in calls:
        parsed = op_from_tool_call(call, speaker_id)
        (ignored if isinstance(parsed, ActionResult) else ops).append(parsed)
    return ops


def _members_words(message: IncomingMessage, history: list[HistoryMessage]) -> tuple[list[str], list[str]]:
    """What members said in the conversation (the message and the members' turns of the history, never the bot's)
    and their names."""
    members = [turn for turn in history if not turn.is_bot]
    said = [message.content, *(turn.content for turn in members)]
    names = [message.author_name, *(turn.author_name for turn in members),
             *(seen.display_name for seen in message.mentions)]
    return said, [name for name in names if name]


def _extra_search_ignored() -> ActionResult:
    return ActionResult(op="search", status="ignored", detail="a second search in the same exchange is ignored")


def _tool_reply(call: ToolCall, first_search: ToolCall, context: ExchangeContext,
                ignored: list[ActionResult]) -> str:
    if call is first_search:
        return _run_search(context, call, ignored)
    if call.name == "search_memory":
        return "Ignored: only one memory search per reply."
    return "Noted; applied after your reply."


def _run_search(context: ExchangeContext, call: ToolCall, ignored: list[ActionResult]) -> str:
    """The text handed back to the model for its search: the results, or why there are none."""
    exchange = context.exchange
    query = (call.arguments or {}).get("query")
    if not isinstance(query, str) or not clean_text(query).strip():
        ignored.append(ActionResult(op="search", status="ignored", detail="the model sent an empty search query"))
        return "The search was not run: the query was empty. Answer without it."
    try:
        outcome = exchange_search(exchange=exchange, query=clean_text(query).strip()[:500])
    except ExchangeRefused as refused:
        ignored.append(ActionResult(op="search", status="ignored", detail=str(refused)))
        return f"The search was not run: {refused} Answer without it."
    unnamed = {fact.member_id for fact in outcome.facts if fact.member_id and fact.member_id not in context.names}
    return search_results_block(query, outcome.facts, {**member_names(exchange.server, unnamed), **context.names})


def _raw_call(call: ToolCall) -> dict:
    return {"id": call.id, "type": "function",
            "function": {"name": call.name, "arguments": call.raw_arguments or json.dumps(call.arguments or {})}}
