"""`manage.py issue_bot_token --team NAME`: print a new bot token for the team (the token alone on stdout)."""

from django.core.management.base import BaseCommand, CommandError

from teams.models import BotToken, Team
from teams.services import bot_token_issue, bot_token_revoke


class Command(BaseCommand):
    help = "Issue a bot token for a team and print it. Only its hash is stored: copy it now."

    def add_arguments(self, parser):
        parser.add_argument("--team", required=True, help="The team's name.")
        parser.add_argument("--name", default="", help="What the token is for (shown in admin).")
        parser.add_argument(
            "--replace", action="store_true", help="Revoke the team's active tokens that have the same --name first."
        )

    def handle(self, *args, team: str, name: str, replace: bool, **options):
        found = Team.objects.filter(name=team).first()
        if found is None:
            raise CommandError(f"No team is called {team!r}.")
        if replace:
            for old in BotToken.objects.filter(team=found, name=name, revoked_at__isnull=True):
                bot_token_revoke(token=old)
        _, plaintext = bot_token_issue(team=found, name=name)
        self.stdout.write(plaintext)
