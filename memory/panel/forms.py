"""Forms of the memory pages. They parse what was typed; the services decide what is valid. The AI settings page's
forms are in settings_forms.py."""

from __future__ import annotations

import uuid

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from memory.bot.reply import HistoryMessage
from memory.bot.selectors import exchanges_for_server
from memory.facts.selectors import PurgeSource
from memory.models import (
    CONTENT_MAX_LENGTH,
    KEY_MAX_LENGTH,
    SUMMARY_MAX_LENGTH,
    Audience,
    Kind,
    Scope,
)

from .audiences import channel_from_input

_IMPORTANCE_ERROR = _("The importance must be a number from 0 to 1, or empty for unscored.")


def _importance_field() -> forms.FloatField:
    """Importance as staff type it: 0–1, or empty for unscored (ranked as middling, 0.5)."""
    return forms.FloatField(required=False, min_value=0.0, max_value=1.0,
                            help_text=_("0–1: how much the fact matters for later conversations. Empty: unscored "
                                        "(ranked as 0.5)."),
                            error_messages={"invalid": _IMPORTANCE_ERROR, "min_value": _IMPORTANCE_ERROR,
                                            "max_value": _IMPORTANCE_ERROR})


_KIND_ERROR = _("The kind must be 'rule', 'lore', 'profile', 'preference' or 'event'.")
KIND_HELP = _("Rules (how the bot must behave here), lore (server facts, terms, running jokes) and profiles (about a "
              "member) never age; preferences age slowly, events fast (Ranked and after; half-lives on the AI "
              "settings page).")


def _kind_field(*, blank_label: str) -> forms.ChoiceField:
    """A fact's kind as staff choose it; empty: the caller's default (a new fact: by its scope; an edit: unchanged).
    A value outside the five is told in the services' own sentence."""
    return forms.ChoiceField(choices=[("", blank_label), *Kind.choices], required=False, help_text=KIND_HELP,
                             error_messages={"invalid_choice": _KIND_ERROR})


_CONFIDENCE_ERROR = _("The confidence must be a number from 0 to 1.")
_SUMMARY_TOO_LONG = lazy(lambda: gettext("Keep the summary to at most %(limit)s characters.")
                         % {"limit": SUMMARY_MAX_LENGTH}, str)()  # made when shown, in the reader's language
_PURGE_CHOICE_ERROR = _("Choose what to purge: the facts learned in a channel, or in one exchange.")
_USER_ID_ERROR = _("A Discord user id is a number of 1–20 digits.")
_CHANNEL_ID_ERROR = _("A channel id is a number of 1–20 digits.")


class FactCreateForm(forms.Form):
    key = forms.CharField(max_length=200, help_text=_("Short, e.g. server_theme or paul_birthday."))
    content = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=5000)
    confidence = forms.FloatField(initial=1.0, min_value=0.0, max_value=1.0,
                                  error_messages={"min_value": _CONFIDENCE_ERROR, "max_value": _CONFIDENCE_ERROR})
    importance = _importance_field()
    scope = forms.ChoiceField(choices=Scope.choices, initial=Scope.SERVER, widget=forms.RadioSelect)
    member_id = forms.CharField(required=False, max_length=40, label=_("Discord user id"),
                                help_text=_("For a member fact: the Discord user id it is about."))
    audience = forms.ChoiceField(choices=Audience.choices, initial=Audience.SERVER, widget=forms.RadioSelect,
                                 required=False,  # not sent: the whole server, as the radio buttons start
                                 error_messages={"invalid_choice": _("Choose who sees the fact: the whole server, "
                                                                     "one channel or staff only.")})
    channel_id = forms.CharField(required=False, max_length=40, label=_("Channel"),
                                 help_text=_("For a fact for one channel: the channel (its threads see it too)."))
    kind = _kind_field(blank_label=_("by what it is about (lore; a profile for a member)"))

    key_max_length = KEY_MAX_LENGTH
    content_max_length = CONTENT_MAX_LENGTH


class FactEditForm(forms.Form):
    key = forms.CharField(max_length=200)
    content = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=5000)
    confidence = forms.FloatField(min_value=0.0, max_value=1.0,
                                  error_messages={"min_value": _CONFIDENCE_ERROR, "max_value": _CONFIDENCE_ERROR})
    importance = _importance_field()
    kind = _kind_field(blank_label=_("unchanged"))
    version = forms.IntegerField(widget=forms.HiddenInput)


class FactAudienceForm(forms.Form):
    """One click on a row: the audience asked for, the channel (for a fact learned in none) and, after the
    confirmation a widening asks for, confirm. memory.facts.services.fact_audience_set says what is wrong."""

    audience = forms.CharField(required=False, max_length=20)
    channel_id = forms.CharField(required=False, max_length=40)
    confirm = forms.BooleanField(required=False)


class FactPinForm(forms.Form):
    """One click on a row or in the pinned block: pin (true) or unpin (false)."""

    _PINNED_ERROR = _("Say whether to pin the fact or unpin it: 'true' or 'false'.")
    pinned = forms.TypedChoiceField(choices=[("true", pgettext_lazy("verb", "Pin")),
                                             ("false", pgettext_lazy("verb", "Unpin"))],
                                    coerce=lambda value: value == "true",
                                    error_messages={"required": _PINNED_ERROR, "invalid_choice": _PINNED_ERROR})


class SummaryForm(forms.Form):
    content = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}), required=False,
                              max_length=SUMMARY_MAX_LENGTH,
                              error_messages={"max_length": _SUMMARY_TOO_LONG})


class WipeChoiceForm(forms.Form):
    """The wipe page's first step: what to wipe. Nothing is chosen beforehand."""

    SERVER, MEMBER = "server", "member"
    target = forms.ChoiceField(
        choices=[(SERVER, _("Everything about this server")), (MEMBER, _("Everything about one member"))],
        widget=forms.RadioSelect,
        error_messages={"required": _("Choose what to wipe: everything about this server, or one member.")},
    )
    member_id = forms.CharField(required=False, max_length=40, label=_("Discord user id of the member"))


class WipeForm(WipeChoiceForm):
    """The second step: the choice again (hidden) and the name or id typed to confirm it."""

    confirmation = forms.CharField(max_length=200, label=_("Type the server name (or the member id) to confirm"))


class PurgeForm(forms.Form):
    """Where the facts to purge were learned: a channel (typed as #name or id; a thread's id purges that thread) or
    one exchange (its id). Nothing is chosen beforehand; a valid form holds `purge_source`."""

    CHANNEL, EXCHANGE = "channel", "exchange"
    source = forms.ChoiceField(
        choices=[(CHANNEL, _("Every fact learned in one channel")),
                 (EXCHANGE, _("Every fact learned in one exchange"))],
        widget=forms.RadioSelect,
        error_messages={"required": _PURGE_CHOICE_ERROR, "invalid_choice": _PURGE_CHOICE_ERROR},
    )
    channel = forms.CharField(required=False, max_length=120, label=_("Channel (#name or id)"))
    exchange = forms.CharField(required=False, max_length=100, label=_("Exchange id"))

    def __init__(self, *args, server, **kwargs):
        super().__init__(*args, **kwargs)
        self.server = server

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("source") == self.CHANNEL:
            try:
                channel_id, name = channel_from_input(self.server, cleaned.get("channel", ""))
            except ValidationError as error:
                self.add_error("channel", error)
            else:
                cleaned["purge_source"] = PurgeSource(channel_id=channel_id, channel_name=name)
        elif cleaned.get("source") == self.EXCHANGE:
            exchange_id = self._exchange_id(cleaned.get("exchange", "").strip())
            if exchange_id is not None:
                cleaned["purge_source"] = PurgeSource(exchange_id=exchange_id)
        return cleaned

    def _exchange_id(self, raw: str) -> uuid.UUID | None:
        if not raw:
            self.add_error("exchange", gettext("Paste the id of the exchange (it is in the address of its page in the "
                                               "log)."))
            return None
        try:
            exchange_id = uuid.UUID(raw)
        except ValueError:
            self.add_error("exchange", gettext("An exchange id looks like 5f0c6a52-1d2e-4c3b-9a8f-0123456789ab; "
                                               "check what you pasted."))
            return None
        if not exchanges_for_server(self.server).filter(pk=exchange_id).exists():
            self.add_error("exchange", gettext("No exchange with this id is in the log of %(server)s.")
                           % {"server": self.server.name})
            return None
        return exchange_id


class ContextTryForm(forms.Form):
    """The current type's dry run: a message as a member would write it, who writes it and where. Nothing is
    recorded; every field may stay empty (a message that matches nothing, from nobody, where memory may be read)."""

    message = forms.CharField(required=False, max_length=500, label=_("Message"),
                              error_messages={"max_length": _("Keep the sample message to at most 500 characters.")})
    member_id = forms.RegexField(regex=r"^[0-9]{1,20}$", required=False, label=_("Speaking as member id"),
                                 error_messages={"invalid": _USER_ID_ERROR})
    member_name = forms.CharField(required=False, max_length=100, label=_("Name"),
                                  error_messages={"max_length": _("A display name has at most 100 characters.")})
    channel_id = forms.RegexField(regex=r"^[0-9]{1,20}$", required=False, label=_("In channel (id)"),
                                  error_messages={"invalid": _CHANNEL_ID_ERROR})

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("member_name") and not cleaned.get("member_id") and "member_id" not in self.errors:
            self.add_error("member_id", gettext("Give the member's id too: the speaker's share is found by id."))
        return cleaned


class PlaygroundForm(forms.Form):
    member_id = forms.RegexField(regex=r"^[0-9]{1,20}$", max_length=20, label=_("As member (Discord user id)"),
                                 initial="200000000000000011", error_messages={"invalid": _USER_ID_ERROR})
    member_name = forms.CharField(max_length=100, initial="Paul", label=_("Member name"))
    channel_id = forms.RegexField(regex=r"^[0-9]{1,20}$", max_length=20, initial="111", label=_("Channel id"),
                                  error_messages={"invalid": _CHANNEL_ID_ERROR})
    thread_parent_id = forms.RegexField(regex=r"^[0-9]{1,20}$", max_length=20, required=False,
                                        label=_("In a thread of channel (optional)"),
                                        help_text=_("Fill in to talk in a thread started in this channel."),
                                        error_messages={"invalid": _CHANNEL_ID_ERROR})
    history = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), max_length=8000,
                              label=_("Earlier messages (optional)"),
                              help_text=_("One per line as “Name: message”; “bot: …” for the bot's own lines."))
    message = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=4000, label=_("Message"))

    def history_messages(self) -> list[HistoryMessage]:
        lines = []
        for line in self.cleaned_data.get("history", "").splitlines():
            name, separator, text = line.partition(":")
            if separator and text.strip():
                lines.append(HistoryMessage(author_name=name.strip(), content=text.strip(),
                                            is_bot=name.strip().lower() == "bot"))
        return lines
