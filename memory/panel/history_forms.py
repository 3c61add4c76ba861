"""Forms of a fact's history: the reason staff give when they retract a fact, and the page of its timeline."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

REASON_REQUIRED = _("Say why the fact no longer holds; the reason stays on its page.")


class FactRetractForm(forms.Form):
    reason = forms.CharField(max_length=500, strip=True,
                             error_messages={"required": REASON_REQUIRED,
                                             "max_length": _("Keep the reason to 500 characters.")})


class TimelinePageForm(forms.Form):
    """Older changes than `before` (a version id); nothing given: the newest."""

    before = forms.IntegerField(required=False, min_value=1)
