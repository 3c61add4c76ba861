"""The AI settings page's forms: the settings and the model endpoints. They parse what was typed; the settings
table (memory.configuration.settings_fields) and the services decide what is valid."""

from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy as _

from memory.configuration.services import ChannelRule, ai_settings_problems
from memory.configuration.settings_fields import BY_NAME
from memory.models import AISettings, EmbeddingProviderChoice, ForgetMeMode, Kind
from memory.text.language import LANGUAGES


def _range_input(name: str) -> forms.NumberInput:
    setting = BY_NAME[name]
    return forms.NumberInput(attrs={"min": f"{setting.low:g}", "max": f"{setting.high:g}"})


def _problem_sentence(name: str, value: object) -> str:
    return BY_NAME[name].problem(value) or ""


# A field's error message is set when this module is imported: the sentence is made when it is shown, in the
# language of the person reading it.
_problem = lazy(_problem_sentence, str)


def _half_life_help(default: int) -> str:
    if not default:
        return gettext("0–36500 (default 0, never ages): how many days it takes a fact's recency to halve. 0: age never "
                       "lowers it.")
    return gettext("0–36500 (default %(default)s): how many days it takes a fact's recency to halve. 0: age never lowers "
                   "it.") % {"default": default}


def _half_life_field(kind: str, default: int) -> forms.IntegerField:
    name = f"half_life_{kind}_days"
    return forms.IntegerField(
        required=False, label=BY_NAME[name].heading, widget=_range_input(name),
        help_text=lazy(_half_life_help, str)(default), error_messages={"invalid": _problem(name, None)})


class AISettingsForm(forms.Form):
    max_injected_items = forms.IntegerField(label=_("Maximum injected memory items"), help_text=_("1–1000."))
    weight_recency = forms.FloatField(label=_("Recency weight"), help_text=_("0–10."))
    weight_importance = forms.FloatField(label=_("Importance weight"), help_text=_("0–10."))
    weight_relevance = forms.FloatField(label=_("Relevance weight"), help_text=_("0–10."))
    read_all_channels = forms.BooleanField(required=False, label=_("Memory may be read in every channel"))
    read_channel_ids = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                                       label=_("Otherwise only in these channels"),
                                       help_text=_("Channel ids, separated by spaces, commas or new lines."))
    write_all_channels = forms.BooleanField(required=False, label=_("Memory may be written in every channel"))
    write_channel_ids = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                                        label=_("Otherwise only in these channels"),
                                        help_text=_("Channel ids, separated by spaces, commas or new lines."))
    reply_channel_ids = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}),
                                        label=_("Channels where the Discord bot answers every message"),
                                        help_text=_("Elsewhere it answers only when mentioned. Channel ids, "
                                                     "separated by spaces, commas or new lines."))
    learn_channel_ids = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), label=_("Learn from conversations in"),
        help_text=_("The Discord bot sends every message of these channels to be learned from by the learning model, "
                     "not only those it answers. Empty (the default): none. Channel ids, separated by spaces, commas or "
                     "new lines."))
    include_threads = forms.BooleanField(required=False, label=_("Include threads"),
                                         help_text=_("A thread follows the channel it was started in. Off: no memory "
                                                      "is read or written in threads."))
    remember_limit_per_hour = forms.IntegerField(
        required=False, label=_("Facts the bot may remember per member and hour"),
        help_text=_("0–10000 (default 20). A brake on one member flooding memory through the bot; staff are not "
                     "limited."))
    embedding_provider = forms.ChoiceField(choices=EmbeddingProviderChoice.choices, label=_("Embeddings (Semantic)"),
                                           required=False,
                                           help_text=_("Changing it under Semantic re-embeds every fact, with progress "
                                                        "on the memory page; searches use words until it is done."))
    # Not sent at all (an older page, a script): left as they are. Sent empty: the setting's sentence says why not.
    exchange_log_days = forms.IntegerField(
        required=False, label=_("Keep exchange logs for (days)"),
        widget=forms.NumberInput(attrs={"min": AISettings.EXCHANGE_LOG_DAYS_RANGE[0],
                                        "max": AISettings.EXCHANGE_LOG_DAYS_RANGE[1]}),
        help_text=_("0–3650 (default 90; 0 keeps them forever). Older exchanges keep who, where, when, the facts shown "
                     "and the actions taken; their words (message, memory block, reply) are removed once a day. Facts are "
                     "never touched."),
        error_messages={"invalid": _problem("exchange_log_days", None)})
    forget_me_mode = forms.ChoiceField(
        choices=ForgetMeMode.choices, required=False, widget=forms.RadioSelect,
        label=_("When a member asks to be forgotten (/memory forget-me)"),
        help_text=_("Either way the audit log records who asked; requests are listed on the Forget-me requests page."),
        error_messages={"invalid_choice": _problem("forget_me_mode", None)})

    # The context (issue 20): the speaker's share, the pinned caps, the character budget, how fast each kind ages,
    # and the bot's persona. Like the two above, a page that does not send one leaves it as it is.
    speaker_share = forms.FloatField(
        required=False, label=_("Share of the slots for the speaker"),
        widget=forms.NumberInput(attrs={"min": 0, "max": 1, "step": 0.05}),
        help_text=_("0–1 of Maximum injected memory items (default 0.25): facts about the member talking and the "
                     "members they mention get that many slots first, chosen by the type's own order; fewer when they "
                     "have fewer facts. The rest go to the general order."),
        error_messages={"invalid": _problem("speaker_share", None)})
    pinned_max_items = forms.IntegerField(
        required=False, label=_("Pinned facts in every reply, at most"), widget=_range_input("pinned_max_items"),
        help_text=_("0–200 (default 20). Pinned facts come first, outside Maximum injected memory items; past this cap "
                     "the memory page says which do not fit."),
        error_messages={"invalid": _problem("pinned_max_items", None)})
    pinned_max_chars = forms.IntegerField(
        required=False, label=_("Characters of pinned facts, at most"), widget=_range_input("pinned_max_chars"),
        help_text=_("0–20000 (default 2000), counted as the fact lines the bot reads."),
        error_messages={"invalid": _problem("pinned_max_chars", None)})
    max_memory_chars = forms.IntegerField(
        required=False, label=_("Maximum memory characters"), widget=_range_input("max_memory_chars"),
        help_text=_("500–100000 (default 6000): the fact lines of a reply's memory block, pinned facts included. The "
                     "block stops at the first fact that no longer fits, in the order the type chose, so the most useful "
                     "facts are kept; each exchange records the facts it cut."),
        error_messages={"invalid": _problem("max_memory_chars", None)})
    half_life_rule_days = _half_life_field("rule", 0)
    half_life_lore_days = _half_life_field("lore", 0)
    half_life_profile_days = _half_life_field("profile", 0)
    half_life_preference_days = _half_life_field("preference", 180)
    half_life_event_days = _half_life_field("event", 30)
    bot_name = forms.CharField(
        required=False, label=_("The bot's name"), widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text=_("1–80 characters, e.g. Pixel. Empty: the prompt keeps its usual wording."))
    bot_description = forms.CharField(
        required=False, label=_("Description"), widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("At most 2000 characters: what the bot is and what it cares about, in your words."))
    style_sample = forms.CharField(
        required=False, label=_("Style sample"), widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("At most 2000 characters: a short reply in the voice the community wants. The bot reads it as an "
                     "example of tone, not as something to repeat."))
    learning_max_messages = forms.IntegerField(
        required=False, label=_("Messages one learning run reads, at most"), widget=_range_input("learning_max_messages"),
        help_text=_("1–500 (default 100). More wait for the next run, which follows at once."),
        error_messages={"invalid": _problem("learning_max_messages", None)})
    learning_step_seconds = forms.IntegerField(
        required=False, label=_("Time limit of each learning step (seconds)"),
        widget=_range_input("learning_step_seconds"),
        help_text=_("5–600 (default 120). A model call that takes longer ends the run, saying so; its messages are "
                     "read again by the next run."),
        error_messages={"invalid": _problem("learning_step_seconds", None)})
    # Issue 22; like the context settings, a page that does not send it leaves it as it is.
    memory_language = forms.ChoiceField(
        required=False, label=_("Memory language"),
        choices=[("", _("Detect from the server's memory")),
                 *((code, language.label) for code, language in LANGUAGES.items())],
        help_text=_("Searching by words and ranking use this language's stemming, so in Dutch “spreken” finds "
                     "“spreekt”; Japanese, Chinese, Korean and Thai are matched by pairs of characters. Detect: the "
                     "language of the server's facts and messages, checked every hour. Changing it re-indexes the facts "
                     "in the background; until that is done, words are matched as written."),
        error_messages={"invalid_choice": _problem("memory_language", None)})

    # The deadline and the budgets (issue 24); like the context settings, a page that does not send one leaves it.
    reply_deadline_seconds = forms.IntegerField(
        required=False, label=_("Reply deadline (seconds)"), widget=_range_input("reply_deadline_seconds"),
        help_text=_("5–120 (default 20): the whole reply (context, up to two model calls, memory actions) ends by "
                     "then. Past it the exchange is recorded as timed out, memory is untouched, the API answers 503 and "
                     "the Discord bot posts the fallback text (or nothing)."),
        error_messages={"invalid": _problem("reply_deadline_seconds", None)})
    fallback_text = forms.CharField(
        required=False, label=_("Fallback text"), widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("At most 500 characters: what the Discord bot posts when it cannot answer (past the deadline, or "
                     "over the reply model's budget). Empty (the default): it posts nothing."))
    reply_token_budget = forms.IntegerField(
        required=False, min_value=0, label=_("Monthly token budget of the reply model"),
        widget=forms.NumberInput(attrs={"min": 0}),
        help_text=_("Tokens a calendar month (UTC) of reply calls may use, as the endpoint reports them. Once used up, "
                     "the API's reply answers 429 until the 1st and the Discord bot posts the fallback text. Empty: no "
                     "budget."),
        error_messages={"invalid": _problem("reply_token_budget", -1),
                        "min_value": _problem("reply_token_budget", -1)})
    background_token_budget = forms.IntegerField(
        required=False, min_value=0, label=_("Monthly token budget of the consolidation and learning models"),
        widget=forms.NumberInput(attrs={"min": 0}),
        help_text=_("Tokens a calendar month (UTC) of consolidation and learning calls may use together. Once used "
                     "up, consolidation rounds run by rules only and learning waits for the next month. Empty: no "
                     "budget."),
        error_messages={"invalid": _problem("background_token_budget", -1),
                        "min_value": _problem("background_token_budget", -1)})

    CONTEXT_SETTINGS = ("speaker_share", "pinned_max_items", "pinned_max_chars", "max_memory_chars",
                        *(f"half_life_{kind}_days" for kind in Kind.values), "bot_name", "bot_description",
                        "style_sample")
    PERSONA_SETTINGS = ("bot_name", "bot_description", "style_sample")
    # Learning from conversations (issue 23): like the context settings, left as they are when not sent.
    LEARNING_SETTINGS = ("learning_max_messages", "learning_step_seconds")
    DEADLINE_SETTINGS = ("reply_deadline_seconds", "fallback_text", "reply_token_budget", "background_token_budget")
    BUDGETS = ("reply_token_budget", "background_token_budget")  # sent empty: no budget

    def context_settings(self) -> dict[str, object]:
        """The context, learning, deadline and budget settings this page sent (valid form only), to save; those it
        did not send stay as they are. A budget sent empty is 0: no budget."""
        sent = {name: self.cleaned_data[name] for name in self._sent_groups() if name in self.data}
        sent.update({name: sent[name] or 0 for name in self.BUDGETS if name in sent})
        if "learn_channel_ids" in self.data:
            sent["learn_channel_ids"] = self.split_ids(self.cleaned_data["learn_channel_ids"])
        return sent

    def language_setting(self) -> dict[str, str]:
        """Memory language when this page sent it (valid form only), to save; not sent: it stays as it is."""
        return {"memory_language": self.cleaned_data["memory_language"]} if "memory_language" in self.data else {}

    @staticmethod
    def initial_from(ai_settings: AISettings) -> dict:
        return {
            **{name: getattr(ai_settings, name) for name in (*AISettingsForm.CONTEXT_SETTINGS,
                                                              *AISettingsForm.LEARNING_SETTINGS,
                                                              *AISettingsForm.DEADLINE_SETTINGS)},
            "learn_channel_ids": "\n".join(ai_settings.learn_channel_ids),
            "max_injected_items": ai_settings.max_injected_items,
            "weight_recency": ai_settings.weight_recency,
            "weight_importance": ai_settings.weight_importance,
            "weight_relevance": ai_settings.weight_relevance,
            "read_all_channels": ai_settings.read_all_channels,
            "read_channel_ids": "\n".join(ai_settings.read_channel_ids),
            "write_all_channels": ai_settings.write_all_channels,
            "write_channel_ids": "\n".join(ai_settings.write_channel_ids),
            "include_threads": ai_settings.include_threads,
            "reply_channel_ids": "\n".join(ai_settings.reply_channel_ids),
            "embedding_provider": ai_settings.embedding_provider,
            "remember_limit_per_hour": ai_settings.remember_limit_per_hour,
            "exchange_log_days": ai_settings.exchange_log_days,
            "forget_me_mode": ai_settings.forget_me_mode,
            "memory_language": ai_settings.memory_language,
        }

    def _sent_groups(self) -> tuple[str, ...]:
        """The settings left as they are when the page does not send them."""
        return (*self.CONTEXT_SETTINGS, *self.LEARNING_SETTINGS, *self.DEADLINE_SETTINGS)

    @staticmethod
    def split_ids(raw: str) -> tuple[str, ...]:
        return tuple(part for part in raw.replace(",", " ").split() if part)

    def clean(self):
        """The service's own checks, beside each field and together with every other error of the page (an
        endpoint form that is wrong too must not hide these until it is corrected)."""
        cleaned = super().clean()
        numbers = [name for name in (*self.CONTEXT_SETTINGS, *self.LEARNING_SETTINGS, "reply_deadline_seconds")
                   if name not in self.PERSONA_SETTINGS]
        for name in ("exchange_log_days", "forget_me_mode", *numbers):
            if name in self.data and cleaned.get(name) in (None, "") and name not in self.errors:
                self.add_error(name, BY_NAME[name].problem(None))
        context = {name: cleaned.get(name) for name in self._sent_groups()
                   if name in self.data and name not in self.errors and cleaned.get(name) is not None}
        if "learn_channel_ids" in self.data:
            context["learn_channel_ids"] = self.split_ids(cleaned.get("learn_channel_ids", ""))
        for field, message in ai_settings_problems(**context).items():  # told even when the fields below are not
            self.add_error(field, message)
        if any(name in self.errors for name in ("max_injected_items", "weight_recency", "weight_importance",
                                                 "weight_relevance", "remember_limit_per_hour")):
            return cleaned  # not numbers at all: Django's own messages say so
        problems = ai_settings_problems(
            max_injected_items=cleaned.get("max_injected_items"), weight_recency=cleaned.get("weight_recency"),
            weight_importance=cleaned.get("weight_importance"), weight_relevance=cleaned.get("weight_relevance"),
            read=ChannelRule(True, self.split_ids(cleaned.get("read_channel_ids", ""))),
            write=ChannelRule(True, self.split_ids(cleaned.get("write_channel_ids", ""))),
            reply_channel_ids=self.split_ids(cleaned.get("reply_channel_ids", "")),
            embedding_provider=cleaned.get("embedding_provider") or None,
            remember_limit_per_hour=cleaned.get("remember_limit_per_hour"),
            exchange_log_days=cleaned.get("exchange_log_days"), forget_me_mode=cleaned.get("forget_me_mode") or None)
        for field, message in problems.items():
            self.add_error(field, message)
        return cleaned


class ModelEndpointForm(forms.Form):
    base_url = forms.URLField(required=False, max_length=500, label=_("Endpoint URL"), assume_scheme="https",
                              help_text=_("OpenAI-compatible, e.g. http://127.0.0.1:11434/v1"))
    model_name = forms.CharField(required=False, max_length=200, label=_("Model name"))
    api_key = forms.CharField(required=False, max_length=500, label=_("API key"),
                              widget=forms.PasswordInput(render_value=False),
                              help_text=_("Leave empty to keep the stored key. Changing the endpoint URL "
                                           "removes the stored key unless you enter it again."))
    remove_key = forms.BooleanField(required=False, label=_("Remove the stored key"))

    def __init__(self, *args, purpose: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.purpose = purpose

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("base_url") and not cleaned.get("model_name"):
            self.add_error("model_name", gettext("Name the model this endpoint should use."))
        # An embedding model may name only the model: it is then asked at the reply model's address.
        if cleaned.get("model_name") and not cleaned.get("base_url") and self.purpose != "embedding":
            self.add_error("base_url", gettext("Enter the endpoint URL for this model."))
        return cleaned
