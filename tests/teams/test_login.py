"""Log-in and log-out: CSRF on the form, throttling after repeated failures."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TEST_PASSWORD, UserFactory


@pytest.fixture
def user(db):
    return UserFactory(username="paul")


def test_login_page_renders_a_form_with_csrf_token(client, db):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert "csrfmiddlewaretoken" in response.content.decode()


def test_correct_password_logs_in_and_lands_on_home(client, user):
    response = client.post(reverse("login"), {"username": "paul", "password": TEST_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_login_without_csrf_token_is_refused(user):
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "paul", "password": TEST_PASSWORD})
    assert response.status_code == 403


def test_wrong_password_shows_an_error(client, user):
    response = client.post(reverse("login"), {"username": "paul", "password": "wrong"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


def test_five_failures_lock_the_account_even_for_the_right_password(client, user):
    for _ in range(5):
        client.post(reverse("login"), {"username": "paul", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "paul", "password": TEST_PASSWORD})
    assert response.status_code == 429
    assert "locked for 15 minutes" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_lockout_is_per_username_other_accounts_still_log_in(client, user):
    UserFactory(username="mira")
    for _ in range(5):
        client.post(reverse("login"), {"username": "paul", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "mira", "password": TEST_PASSWORD})
    assert response.status_code == 302


def test_logout_needs_post_and_ends_the_session(client, user):
    client.force_login(user)
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session
