"""Time the home page of a logged-in viewer and a bot-token-authenticated API call.

Uses the demo data (about 200 facts on Retro Arcade) through Django's test client, in process.
`--smoke`: the same, one timed call each (the demo is small already).
"""

from __future__ import annotations

from bench._harness import report_latency, run, setup_django, time_calls

RUNS = 200


def main(*, smoke: bool) -> None:  # smoke: time_calls makes one call
    setup_django()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    from memory.demo.build import DEMO_GUILD_ID, demo_load
    from teams.models import Team
    from teams.services import bot_token_issue

    settings.DEBUG = True  # the demo loader is development-only
    demo_load()
    settings.DEBUG = False

    viewer_client = Client()
    viewer_client.force_login(get_user_model().objects.get(username="viewer"))
    report_latency("home.viewer", time_calls(lambda: viewer_client.get("/"), RUNS))

    _, token = bot_token_issue(team=Team.objects.get(name="Demo"), name="bench")
    api_client = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    url = f"/api/v1/servers/{DEMO_GUILD_ID}"
    assert api_client.get(url).status_code == 200
    report_latency("api.token_auth", time_calls(lambda: api_client.get(url), RUNS))
    bad_client = Client(HTTP_AUTHORIZATION="Bearer lk_not-a-real-token")
    report_latency("api.token_auth.rejected", time_calls(lambda: bad_client.get(url), RUNS))


if __name__ == "__main__":
    run(main)
