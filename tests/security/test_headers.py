"""Security headers: every HTML answer (panel, log-in, admin, API docs) carries a Content-Security-Policy
that allows no inline or foreign script, and production's cookies are Secure (the session's HttpOnly too).

The policy is checked directive by directive rather than against config/middleware.py's own string, so
loosening that string (say, adding 'unsafe-inline' to script-src) fails here."""

from __future__ import annotations

import importlib
import re
import sys

import pytest
from cryptography.fernet import Fernet
from django.conf import global_settings
from django.urls import reverse

from tests.conftest import logged_in_client
from tests.factories import TEST_PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def directives(header: str) -> dict[str, list[str]]:
    parsed: dict[str, list[str]] = {}
    for part in header.split(";"):
        if part.strip():
            name, *sources = part.split()
            parsed[name] = sources
    return parsed


def assert_strict_policy(response, *, admin: bool = False) -> None:
    """Scripts from this site only, never inline or eval'd; nothing framed, no plugins, no foreign forms.
    Admin alone may use inline styles (Django's admin templates have style attributes)."""
    assert "Content-Security-Policy" in response, response.request["PATH_INFO"]
    policy = directives(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["base-uri"] == ["'self'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["connect-src"] == ["'self'"]
    assert policy["style-src"] == (["'self'", "'unsafe-inline'"] if admin else ["'self'"])
    assert not any("unsafe-eval" in source or source in ("*", "http:", "https:")
                   for sources in policy.values() for source in sources)


def assert_nothing_inline(html: str) -> None:
    """What the strict policy would block in a browser is not in the page: every <script> has a src, no
    on…= handlers, no hx-on, no <style> element or style attribute."""
    assert all("src=" in tag for tag in re.findall(r"<script\b[^>]*>", html))
    assert not re.search(r"<[^>]+\son[a-z]+\s*=", html)
    assert "hx-on" not in html
    assert not re.search(r"<style\b|<[^>]+\sstyle\s*=", html)


def test_panel_pages_carry_the_strict_policy_and_need_nothing_inline(server, owner):
    client = logged_in_client(owner)
    for url in (reverse("home"),
                f"{reverse('memory:page')}?server={server.guild_id}",
                reverse("memory:playground", args=[server.guild_id]),
                reverse("memory:audit", args=[server.guild_id]),
                reverse("consolidation:review", args=[server.guild_id])):
        response = client.get(url)
        assert response.status_code == 200, url
        assert_strict_policy(response)
        assert_nothing_inline(response.content.decode())


def test_an_htmx_fragment_carries_the_strict_policy_too(server, owner):
    response = logged_in_client(owner).get(f"{reverse('memory:page')}?server={server.guild_id}",
                                           headers={"HX-Request": "true", "HX-Target": "fact-list"})
    assert response.status_code == 200 and "<html" not in response.content.decode()
    assert_strict_policy(response)
    assert_nothing_inline(response.content.decode())  # swapped into a page under the same policy


def test_the_login_page_and_error_pages_carry_the_strict_policy(client):
    login = client.get(reverse("login"))
    assert login.status_code == 200
    assert_strict_policy(login)
    assert_nothing_inline(login.content.decode())
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404
    assert_strict_policy(missing)


def test_admin_pages_carry_the_policy_with_inline_styles_but_never_inline_scripts(admin_user, client):
    assert_strict_policy(client.get(reverse("admin:login")), admin=True)
    admin = logged_in_client(admin_user)
    for url in (reverse("admin:index"), reverse("admin:memory_fact_changelist"),
                reverse("admin:teams_auditentry_changelist")):
        response = admin.get(url)
        assert response.status_code == 200, url
        assert_strict_policy(response, admin=True)


def test_the_api_docs_page_carries_the_strict_policy_and_json_answers_are_never_html(server, client, bot_token):
    docs = client.get(reverse("api:docs"))
    assert docs.status_code == 200
    assert_strict_policy(docs)
    assert_nothing_inline(docs.content.decode())
    # JSON is not rendered by a browser, so the middleware leaves the policy off (its docstring says so);
    # what protects it is that it is JSON, answered as JSON, for good and bad requests alike.
    for response in (client.get(reverse("api:server-detail", args=[server.guild_id]),
                                HTTP_AUTHORIZATION=f"Bearer {bot_token}"),
                     client.get(reverse("api:server-detail", args=[server.guild_id])),
                     client.get("/api/v1/no/such/endpoint")):
        assert response["Content-Type"].startswith("application/json"), response.status_code
        assert "Content-Security-Policy" not in response


# Production settings ---------------------------------------------------------------------------

SECURITY_SETTINGS = (
    "SESSION_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY", "SESSION_COOKIE_SAMESITE", "CSRF_COOKIE_SECURE",
    "CSRF_COOKIE_HTTPONLY", "CSRF_COOKIE_SAMESITE", "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT",
    "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_CONTENT_TYPE_NOSNIFF",
    "X_FRAME_OPTIONS",
)


@pytest.fixture
def production(settings, monkeypatch):
    """config/settings/production.py read as a deploy would (secrets from the environment), and its
    cookie and transport settings put in force for the test client."""
    monkeypatch.setenv("DJANGO_SECRET_KEY", "x" * 20 + "production-secret-key-with-enough-entropy-0123456789")
    monkeypatch.setenv("DJANGO_ALLOWED_HOSTS", "lorekeeper.example.org")
    monkeypatch.setenv("LOREKEEPER_FERNET_KEYS", Fernet.generate_key().decode())
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/lorekeeper")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    for name in ("DJANGO_SECURE_SSL_REDIRECT", "DJANGO_HSTS_SECONDS"):
        monkeypatch.delenv(name, raising=False)
    sys.modules.pop("config.settings.production", None)
    try:
        module = importlib.import_module("config.settings.production")
    finally:
        sys.modules.pop("config.settings.production", None)
    for name in SECURITY_SETTINGS:
        setattr(settings, name, getattr(module, name, getattr(global_settings, name)))
    return module


def test_production_cookies_are_secure_and_the_session_cookie_is_http_only(production, client):
    https = {"HTTP_X_FORWARDED_PROTO": "https"}  # as the TLS proxy in front of gunicorn sends it
    UserFactory(username="paul")

    login_page = client.get(reverse("login"), **https)
    assert login_page.status_code == 200
    csrf = login_page.cookies["csrftoken"]
    assert csrf["secure"] is True and csrf["samesite"] == "Lax"
    assert login_page["Strict-Transport-Security"].startswith("max-age=31536000")
    assert login_page["X-Content-Type-Options"] == "nosniff"
    assert_strict_policy(login_page)

    logged_in = client.post(reverse("login"), {"username": "paul", "password": TEST_PASSWORD}, **https)
    assert logged_in.status_code == 302
    session = logged_in.cookies["sessionid"]
    assert session.value and session["secure"] is True and session["httponly"] is True
    assert session["samesite"] == "Lax"


def test_production_sends_plain_http_to_https(production, client):
    response = client.get(reverse("login"), HTTP_X_FORWARDED_PROTO="http")
    assert response.status_code == 301 and response["Location"].startswith("https://")
