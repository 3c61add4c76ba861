"""The header's language selector: the choice is kept on the account (teams.languages), in the session and in
Django's language cookie, so the log-in page, which has no account yet, speaks it too."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from teams.languages import LANGUAGE_CODES, SESSION_KEY, panel_language_choose


@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    language = request.POST.get("language", "")
    if language in LANGUAGE_CODES:
        if request.user.is_authenticated:
            panel_language_choose(user=request.user, language=language)
            request.session[SESSION_KEY] = language
        # Django's own view: back to a `next` on this site (else the referrer, else /), and the language cookie
        # (LANGUAGE_COOKIE_* in config/settings).
        return set_language(request)
    messages.error(request, _("The panel does not speak that language; it is still in the one it was."))
    # Not Django's view here: it would still set the cookie of a language Django knows and the panel does not
    # speak (fr), which LocaleMiddleware then ignores.
    back_to = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(back_to, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure())
    return HttpResponseRedirect(back_to if safe else "/")
