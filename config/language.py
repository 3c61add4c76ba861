"""The header's language selector: the choice is kept on the account (teams.languages), in the session and in
Django's language cookie, so the log-in page, which has no account yet, speaks it too."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from teams.languages import LANGUAGE_CODES, SESSION_KEY, panel_language_choose


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    back_to = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back_to, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        back_to = "/"
    response = HttpResponseRedirect(back_to)
    language = request.POST.get("language", "")
    if language not in LANGUAGE_CODES:
        messages.error(request, _("The panel does not speak that language; it is still in the one it was."))
        return response
    if request.user.is_authenticated:
        panel_language_choose(user=request.user, language=language)
        request.session[SESSION_KEY] = language
    translation.activate(language)  # the next page's message, and this answer, in the chosen language
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=365 * 24 * 3600, samesite="Lax",
                        secure=settings.SESSION_COOKIE_SECURE, httponly=True)
    return response
