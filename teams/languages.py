"""The panel's language per user: chosen in the header, kept on the account, carried in the session.

The session holds the choice so that a page costs no query for it: it is filled at log-in (from the account)
and when the user chooses; a session from before the choice existed is filled once, on its first request.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser

from .models import PanelLanguage

SESSION_KEY = "panel_language"
LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)


def panel_language_of(user: AbstractBaseUser) -> str:
    """The language the user chose, or "" when they never chose (the browser's language applies)."""
    chosen = PanelLanguage.objects.filter(user=user).values_list("language", flat=True).first()
    return chosen or ""


def panel_language_choose(*, user: AbstractBaseUser, language: str) -> None:
    if language not in LANGUAGE_CODES:
        raise ValueError(f"{language!r} is not one of the panel's languages")
    PanelLanguage.objects.update_or_create(user=user, defaults={"language": language})


def carry_language_into_session(sender, request, user, **kwargs) -> None:
    """At log-in the account's language replaces whatever the session held (user_logged_in receiver)."""
    if request is not None and hasattr(request, "session"):
        request.session[SESSION_KEY] = panel_language_of(user)
