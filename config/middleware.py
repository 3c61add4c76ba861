"""Middleware of our own."""

import logging

from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.cache import patch_vary_headers

from teams.languages import SESSION_KEY, panel_language_of
from teams.models import Server
from teams.services import audit_record

from .views import database_unavailable

logger = logging.getLogger(__name__)


class VaryOnHtmxMiddleware:
    """Pages answer a fragment to HTMX and a full page otherwise, so caches must key on HX-Request."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        patch_vary_headers(response, ("HX-Request",))
        return response


class PanelLanguageMiddleware:
    """The language of the answer, after LocaleMiddleware has read the browser's (language cookie, then
    Accept-Language): a logged-in user's own choice wins, and the bot API always answers in English — bot
    developers read its error sentences in their logs and code against them (docs/API.md)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = self._chosen(request)
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)

    @staticmethod
    def _chosen(request) -> str:
        if request.path_info.startswith("/api/"):
            return "en"
        if not request.user.is_authenticated:
            return ""
        if SESSION_KEY not in request.session:  # a session from before the choice was carried in it
            request.session[SESSION_KEY] = panel_language_of(request.user)
        return request.session[SESSION_KEY]


# Everything the panel loads comes from this site: no inline script or style, no other origin. HTMX's
# own indicator <style> is switched off (htmx-config includeIndicatorStyles=false; app.css has the
# rules) and nothing uses hx-on, so neither 'unsafe-inline' nor 'unsafe-eval' is needed. Django admin
# keeps a few style attributes, so its pages allow inline styles (never inline scripts).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)
ADMIN_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


class ContentSecurityPolicyMiddleware:
    """Sets Content-Security-Policy on every HTML answer (JSON and static files do not need one)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if "Content-Security-Policy" not in response and response.get("Content-Type", "").startswith("text/html"):
            admin = request.path.startswith("/admin/")
            response["Content-Security-Policy"] = ADMIN_CONTENT_SECURITY_POLICY if admin else CONTENT_SECURITY_POLICY
        return response


class DatabaseUnavailableMiddleware:
    """PostgreSQL restarting or unreachable: a clean 503 that says nothing was changed (the request's
    transaction rolled back), JSON for the bot API, a page for people; never a stack trace."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        logger.warning("database unavailable during %s %s", request.method, request.path, exc_info=exception)
        return database_unavailable(request)


class DeniedChangeAuditMiddleware:
    """A logged-in user refused a change (403 on POST and the like) leaves a row in the audit log: staff
    see who tried to change what they may not."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (response.status_code == 403 and request.method not in ("GET", "HEAD", "OPTIONS")
                and getattr(request, "user", None) is not None and request.user.is_authenticated):
            self._record(request)
        return response

    @staticmethod
    def _record(request) -> None:
        guild_id = (request.resolver_match.kwargs.get("guild_id") if request.resolver_match else None) or ""
        server = Server.objects.filter(guild_id=guild_id).first() if guild_id.isdigit() else None
        audit_record(actor=request.user, server=server, action="change.denied",
                     result=f"{request.method} {request.path}"[:200])
