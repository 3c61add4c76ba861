"""Every AI setting a person can change, as one table: its range, the sentence that names it when a value is
wrong, and how it reads in the audit log (old → new). The settings service validates and audits through it, the
settings form shows its errors beside each field, so a new setting is one row here and one field on the page."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from memory.models import AISettings, EmbeddingProviderChoice, ForgetMeMode
from memory.text.language import LANGUAGES
from teams.models import SNOWFLAKE_REGEX

NUMBER, WHOLE, FLAG, CHOICE, TEXT, CHANNELS = "number", "whole", "flag", "choice", "text", "channels"
CHOICE_OR_EMPTY = "choice or empty"  # a choice where empty means something of its own (`empty_reads`)
BUDGET = "budget"  # a whole number of tokens where 0 (or None) means no budget, stored as None


@dataclass(frozen=True)
class Setting:
    """One field of AISettings that the settings page changes."""

    name: str
    label: str  # as the error sentence names it
    kind: str  # NUMBER | WHOLE | FLAG | CHOICE | CHOICE_OR_EMPTY | TEXT | CHANNELS | BUDGET
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    max_length: int | None = None
    min_length: int = 0
    heading: str = ""  # as the settings page and the audit log name it, when the error sentence's label is shared
    choice_labels: tuple[tuple[str, str], ...] = ()  # how each choice reads on the page (and so in the log)
    zero_reads: str = ""  # what 0 means, for a whole number where it is not a number of anything ("forever")
    empty_reads: str = ""  # what empty means, for CHOICE_OR_EMPTY, as the error sentence says it ("detect it")

    @property
    def audit_label(self) -> str:
        return self.heading or self.label

    def problem(self, value: object) -> str | None:
        """The sentence saying what is wrong with `value`, or None."""
        check = _CHECKS[self.kind]
        return check(self, value)

    def shown(self, value: object) -> str:
        """How the value reads in the audit log: short, never a secret (no setting here is one)."""
        if self.kind == FLAG:
            return "on" if value else "off"
        if self.kind == CHANNELS:
            return ", ".join(value) if value else "none"
        if self.kind == TEXT:
            text = " ".join(str(value).split())
            return f"“{text[:40]}…”" if len(text) > 40 else (f"“{text}”" if text else "empty")
        if self.kind == NUMBER:
            return f"{value:g}"
        if self.kind in (CHOICE, CHOICE_OR_EMPTY):
            return dict(self.choice_labels).get(value, str(value))
        if self.kind == BUDGET:
            return f"{value:,} tokens a month" if value else "no budget"
        if self.kind == WHOLE and value == 0 and self.zero_reads:
            return f"0 ({self.zero_reads})"
        return str(value)


def _whole(setting: Setting, value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int) or not setting.low <= value <= setting.high:
        return f"{setting.label} must be a whole number from {setting.low:g} to {setting.high:g}."
    return None


def _budget(setting: Setting, value: object) -> str | None:
    if value is None or (not isinstance(value, bool) and isinstance(value, int) and 0 <= value <= setting.high):
        return None
    return f"{setting.label} must be a whole number of tokens up to {setting.high:,}, or empty for no budget."


def _number(setting: Setting, value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not setting.low <= value <= setting.high:
        return f"{setting.label} must be a number from {setting.low:g} to {setting.high:g}."
    return None


def _flag(setting: Setting, value: object) -> str | None:
    return None if isinstance(value, bool) else f"{setting.label} is on or off."


def _choice(setting: Setting, value: object) -> str | None:
    return None if value in setting.choices else f"Choose {', '.join(setting.choices[:-1])} or {setting.choices[-1]} " \
                                                 f"for {setting.label.lower()}."


def _choice_or_empty(setting: Setting, value: object) -> str | None:
    if value == "" or value in setting.choices:
        return None
    return f"{setting.label} must be empty ({setting.empty_reads}) or one of {', '.join(setting.choices)}."


def _text(setting: Setting, value: object) -> str | None:
    if not isinstance(value, str) or not setting.min_length <= len(value.strip()) <= setting.max_length:
        low = f"{setting.min_length}–" if setting.min_length else "at most "
        return f"{setting.label} must be text of {low}{setting.max_length} characters."
    return None


def _channels(setting: Setting, value: object) -> str | None:
    if not isinstance(value, (list, tuple)):
        return f"{setting.label}: give channel ids."
    bad = [str(channel) for channel in value if not re.fullmatch(SNOWFLAKE_REGEX, str(channel))]
    if bad:
        return f"Channel ids are numbers of 1–20 digits; not valid: {', '.join(bad[:5])}."
    return None


_CHECKS: dict[str, Callable[[Setting, object], str | None]] = {
    WHOLE: _whole, NUMBER: _number, FLAG: _flag, CHOICE: _choice, CHOICE_OR_EMPTY: _choice_or_empty, TEXT: _text,
    CHANNELS: _channels, BUDGET: _budget,
}

_WEIGHT = AISettings.WEIGHT_RANGE
SETTINGS: tuple[Setting, ...] = (
    Setting("max_injected_items", "Maximum injected memory items", WHOLE, *AISettings.MAX_INJECTED_RANGE),
    Setting("weight_recency", "Each ranking weight", NUMBER, *_WEIGHT, heading="Recency weight"),
    Setting("weight_importance", "Each ranking weight", NUMBER, *_WEIGHT, heading="Importance weight"),
    Setting("weight_relevance", "Each ranking weight", NUMBER, *_WEIGHT, heading="Relevance weight"),
    Setting("read_all_channels", "Memory may be read in every channel", FLAG),
    Setting("read_channel_ids", "Read channels", CHANNELS),
    Setting("write_all_channels", "Memory may be written in every channel", FLAG),
    Setting("write_channel_ids", "Write channels", CHANNELS),
    Setting("include_threads", "Include threads", FLAG),
    Setting("reply_channel_ids", "Reply channels", CHANNELS,
            heading="Channels where the Discord bot answers every message"),
    Setting("remember_limit_per_hour", "The remember limit", WHOLE, *AISettings.REMEMBER_LIMIT_RANGE,
            heading="Facts the bot may remember per member and hour"),
    Setting("embedding_provider", "Embeddings", CHOICE, choices=tuple(EmbeddingProviderChoice.values),
            heading="Embeddings (Semantic)", choice_labels=tuple(EmbeddingProviderChoice.choices)),
    Setting("exchange_log_days", "Keep exchange logs for", WHOLE, *AISettings.EXCHANGE_LOG_DAYS_RANGE,
            heading="Keep exchange logs for (days)", zero_reads="forever"),
    Setting("forget_me_mode", "When a member asks to be forgotten", CHOICE, choices=tuple(ForgetMeMode.values),
            choice_labels=tuple(ForgetMeMode.choices)),
    Setting("speaker_share", "The share of slots for the speaker", NUMBER, 0.0, 1.0,
            heading="Share of the slots for the speaker"),
    Setting("pinned_max_items", "Pinned facts in every reply", WHOLE, *AISettings.PINNED_MAX_ITEMS_RANGE,
            heading="Pinned facts in every reply, at most"),
    Setting("pinned_max_chars", "Characters of pinned facts", WHOLE, *AISettings.PINNED_MAX_CHARS_RANGE,
            heading="Characters of pinned facts, at most"),
    Setting("max_memory_chars", "Maximum memory characters", WHOLE, *AISettings.MAX_MEMORY_CHARS_RANGE),
    *(Setting(f"half_life_{kind}_days", f"The half-life of {label}", WHOLE, *AISettings.HALF_LIFE_DAYS_RANGE,
              heading=f"Half-life of {label} (days)", zero_reads="never ages")
      for kind, label in (("rule", "rules"), ("lore", "lore"), ("profile", "profiles"),
                          ("preference", "preferences"), ("event", "events"))),
    Setting("memory_language", "Memory language", CHOICE_OR_EMPTY, choices=tuple(LANGUAGES), empty_reads="detect it",
            choice_labels=(("", "Detect"), *((code, language.label) for code, language in LANGUAGES.items()))),
    Setting("learn_channel_ids", "Learn channels", CHANNELS, heading="Learn from conversations in"),
    Setting("learning_max_messages", "Messages one learning run reads", WHOLE, *AISettings.LEARNING_MAX_MESSAGES_RANGE,
            heading="Messages one learning run reads, at most"),
    Setting("learning_step_seconds", "The time limit of each learning step", WHOLE,
            *AISettings.LEARNING_STEP_SECONDS_RANGE, heading="Time limit of each learning step (seconds)"),
    Setting("reply_deadline_seconds", "The reply deadline", WHOLE, *AISettings.REPLY_DEADLINE_SECONDS_RANGE,
            heading="Reply deadline (seconds)"),
    Setting("fallback_text", "The fallback text", TEXT, max_length=AISettings.FALLBACK_TEXT_MAX_LENGTH,
            heading="Fallback text"),
    Setting("reply_token_budget", "The reply model's monthly budget", BUDGET, 0, AISettings.TOKEN_BUDGET_RANGE[1],
            heading="Monthly token budget of the reply model"),
    Setting("background_token_budget", "The background models' monthly budget", BUDGET, 0,
            AISettings.TOKEN_BUDGET_RANGE[1], heading="Monthly token budget of the consolidation and learning models"),
    Setting("bot_name", "The bot's name", TEXT, max_length=AISettings.BOT_NAME_MAX_LENGTH),
    Setting("bot_description", "The bot's description", TEXT, max_length=AISettings.PERSONA_TEXT_MAX_LENGTH),
    Setting("style_sample", "The style sample", TEXT, max_length=AISettings.PERSONA_TEXT_MAX_LENGTH),
)
BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}
WEIGHT_NAMES = ("weight_recency", "weight_importance", "weight_relevance")
