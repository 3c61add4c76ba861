"""Every AI setting a person can change, as one table: its range, the sentence that names it when a value is
wrong, and how it reads in the audit log (old → new). The settings service validates and audits through it, the
settings form shows its errors beside each field, so a new setting is one row here and one field on the page."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from memory.models import AISettings, EmbeddingProviderChoice, ForgetMeMode
from memory.text.language import LANGUAGES
from memory.text.numbers import grouped
from memory.text.sentence_case import in_sentence
from teams.models import SNOWFLAKE_REGEX

NUMBER, WHOLE, FLAG, CHOICE, TEXT, CHANNELS = "number", "whole", "flag", "choice", "text", "channels"
CHOICE_OR_EMPTY = "choice or empty"  # a choice where empty means something of its own (`empty_reads`)
BUDGET = "budget"  # a whole number of tokens where 0 (or None) means no budget, stored as None


@dataclass(frozen=True)
class Setting:
    """One field of AISettings that the settings page changes."""

    name: str
    label: str  # as the error sentence names it (marked for translation, lazily)
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
        return _("%(setting)s must be a whole number from %(low)s to %(high)s.") % {
            "setting": setting.label, "low": f"{setting.low:g}", "high": f"{setting.high:g}"}
    return None


def _budget(setting: Setting, value: object) -> str | None:
    if value is None or (not isinstance(value, bool) and isinstance(value, int) and 0 <= value <= setting.high):
        return None
    return _("%(setting)s must be a whole number of tokens up to %(high)s, or empty for no budget.") % {
        "setting": setting.label, "high": grouped(setting.high)}


def _number(setting: Setting, value: object) -> str | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not setting.low <= value <= setting.high:
        return _("%(setting)s must be a number from %(low)s to %(high)s.") % {
            "setting": setting.label, "low": f"{setting.low:g}", "high": f"{setting.high:g}"}
    return None


def _flag(setting: Setting, value: object) -> str | None:
    return None if isinstance(value, bool) else _("%(setting)s is on or off.") % {"setting": setting.label}


def _choice(setting: Setting, value: object) -> str | None:
    if value in setting.choices:
        return None
    return _("Choose %(choices)s or %(last)s for %(setting)s.") % {
        "choices": ", ".join(setting.choices[:-1]), "last": setting.choices[-1], "setting": in_sentence(setting.label)}


def _choice_or_empty(setting: Setting, value: object) -> str | None:
    if value == "" or value in setting.choices:
        return None
    return _("%(setting)s must be empty (%(empty)s) or one of %(choices)s.") % {
        "setting": setting.label, "empty": setting.empty_reads, "choices": ", ".join(setting.choices)}


def _text(setting: Setting, value: object) -> str | None:
    if not isinstance(value, str) or not setting.min_length <= len(value.strip()) <= setting.max_length:
        if setting.min_length:
            return _("%(setting)s must be text of %(low)s–%(high)s characters.") % {
                "setting": setting.label, "low": setting.min_length, "high": setting.max_length}
        return _("%(setting)s must be text of at most %(high)s characters.") % {
            "setting": setting.label, "high": setting.max_length}
    return None


def _channels(setting: Setting, value: object) -> str | None:
    if not isinstance(value, (list, tuple)):
        return _("%(setting)s: give channel ids.") % {"setting": setting.label}
    bad = [str(channel) for channel in value if not re.fullmatch(SNOWFLAKE_REGEX, str(channel))]
    if bad:
        return _("Channel ids are numbers of 1–20 digits; not valid: %(ids)s.") % {"ids": ", ".join(bad[:5])}
    return None


_CHECKS: dict[str, Callable[[Setting, object], str | None]] = {
    WHOLE: _whole, NUMBER: _number, FLAG: _flag, CHOICE: _choice, CHOICE_OR_EMPTY: _choice_or_empty, TEXT: _text,
    CHANNELS: _channels, BUDGET: _budget,
}

_WEIGHT = AISettings.WEIGHT_RANGE
SETTINGS: tuple[Setting, ...] = (
    Setting("max_injected_items", gettext_lazy("Maximum injected memory items"), WHOLE,
            *AISettings.MAX_INJECTED_RANGE),
    Setting("weight_recency", gettext_lazy("Each ranking weight"), NUMBER, *_WEIGHT,
            heading=gettext_lazy("Recency weight")),
    Setting("weight_importance", gettext_lazy("Each ranking weight"), NUMBER, *_WEIGHT,
            heading=gettext_lazy("Importance weight")),
    Setting("weight_relevance", gettext_lazy("Each ranking weight"), NUMBER, *_WEIGHT,
            heading=gettext_lazy("Relevance weight")),
    Setting("read_all_channels", gettext_lazy("Memory may be read in every channel"), FLAG),
    Setting("read_channel_ids", gettext_lazy("Read channels"), CHANNELS),
    Setting("write_all_channels", gettext_lazy("Memory may be written in every channel"), FLAG),
    Setting("write_channel_ids", gettext_lazy("Write channels"), CHANNELS),
    Setting("include_threads", gettext_lazy("Include threads"), FLAG),
    Setting("reply_channel_ids", gettext_lazy("Reply channels"), CHANNELS,
            heading=gettext_lazy("Channels where the Discord bot answers every message")),
    Setting("remember_limit_per_hour", gettext_lazy("The remember limit"), WHOLE, *AISettings.REMEMBER_LIMIT_RANGE,
            heading=gettext_lazy("Facts the bot may remember per member and hour")),
    Setting("embedding_provider", gettext_lazy("Embeddings"), CHOICE, choices=tuple(EmbeddingProviderChoice.values),
            heading=gettext_lazy("Embeddings (Semantic)"), choice_labels=tuple(EmbeddingProviderChoice.choices)),
    Setting("exchange_log_days", gettext_lazy("Keep exchange logs for"), WHOLE, *AISettings.EXCHANGE_LOG_DAYS_RANGE,
            heading=gettext_lazy("Keep exchange logs for (days)"), zero_reads="forever"),
    Setting("forget_me_mode", gettext_lazy("When a member asks to be forgotten"), CHOICE,
            choices=tuple(ForgetMeMode.values), choice_labels=tuple(ForgetMeMode.choices)),
    Setting("speaker_share", gettext_lazy("The share of slots for the speaker"), NUMBER, 0.0, 1.0,
            heading=gettext_lazy("Share of the slots for the speaker")),
    Setting("pinned_max_items", gettext_lazy("Pinned facts in every reply"), WHOLE,
            *AISettings.PINNED_MAX_ITEMS_RANGE, heading=gettext_lazy("Pinned facts in every reply, at most")),
    Setting("pinned_max_chars", gettext_lazy("Characters of pinned facts"), WHOLE,
            *AISettings.PINNED_MAX_CHARS_RANGE, heading=gettext_lazy("Characters of pinned facts, at most")),
    Setting("max_memory_chars", gettext_lazy("Maximum memory characters"), WHOLE,
            *AISettings.MAX_MEMORY_CHARS_RANGE),
    # Each kind's sentence whole, so a translation can inflect "rules" and "events" as its language needs.
    *(Setting(f"half_life_{kind}_days", label, WHOLE, *AISettings.HALF_LIFE_DAYS_RANGE, heading=heading,
              zero_reads="never ages")
      for kind, label, heading in (
          ("rule", gettext_lazy("The half-life of rules"), gettext_lazy("Half-life of rules (days)")),
          ("lore", gettext_lazy("The half-life of lore"), gettext_lazy("Half-life of lore (days)")),
          ("profile", gettext_lazy("The half-life of profiles"), gettext_lazy("Half-life of profiles (days)")),
          ("preference", gettext_lazy("The half-life of preferences"),
           gettext_lazy("Half-life of preferences (days)")),
          ("event", gettext_lazy("The half-life of events"), gettext_lazy("Half-life of events (days)")))),
    Setting("memory_language", gettext_lazy("Memory language"), CHOICE_OR_EMPTY, choices=tuple(LANGUAGES),
            empty_reads=gettext_lazy("detect it"),
            choice_labels=(("", "Detect"), *((code, language.label) for code, language in LANGUAGES.items()))),
    Setting("learn_channel_ids", gettext_lazy("Learn channels"), CHANNELS,
            heading=gettext_lazy("Learn from conversations in")),
    Setting("learning_max_messages", gettext_lazy("Messages one learning run reads"), WHOLE,
            *AISettings.LEARNING_MAX_MESSAGES_RANGE, heading=gettext_lazy("Messages one learning run reads, at most")),
    Setting("learning_step_seconds", gettext_lazy("The time limit of each learning step"), WHOLE,
            *AISettings.LEARNING_STEP_SECONDS_RANGE,
            heading=gettext_lazy("Time limit of each learning step (seconds)")),
    Setting("reply_deadline_seconds", gettext_lazy("The reply deadline"), WHOLE,
            *AISettings.REPLY_DEADLINE_SECONDS_RANGE, heading=gettext_lazy("Reply deadline (seconds)")),
    Setting("fallback_text", gettext_lazy("The fallback text"), TEXT, max_length=AISettings.FALLBACK_TEXT_MAX_LENGTH,
            heading=gettext_lazy("Fallback text")),
    Setting("reply_token_budget", gettext_lazy("The reply model's monthly budget"), BUDGET, 0,
            AISettings.TOKEN_BUDGET_RANGE[1], heading=gettext_lazy("Monthly token budget of the reply model")),
    Setting("background_token_budget", gettext_lazy("The background models' monthly budget"), BUDGET, 0,
            AISettings.TOKEN_BUDGET_RANGE[1],
            heading=gettext_lazy("Monthly token budget of the consolidation and learning models")),
    Setting("bot_name", gettext_lazy("The bot's name"), TEXT, max_length=AISettings.BOT_NAME_MAX_LENGTH),
    Setting("bot_description", gettext_lazy("The bot's description"), TEXT,
            max_length=AISettings.PERSONA_TEXT_MAX_LENGTH),
    Setting("style_sample", gettext_lazy("The style sample"), TEXT, max_length=AISettings.PERSONA_TEXT_MAX_LENGTH),
)
BY_NAME: dict[str, Setting] = {setting.name: setting for setting in SETTINGS}
WEIGHT_NAMES = ("weight_recency", "weight_importance", "weight_relevance")
