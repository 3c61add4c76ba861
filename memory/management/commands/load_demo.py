"""`manage.py load_demo`: the demo teams, users, "Retro Arcade", "Synth Lab" and the Consolidated "Pixel Guild"
with a round's proposals waiting (safe to run again)."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from consolidation.demo import demo_consolidation_load
from memory.demo.build import demo_load
from teams.models import Team


class Command(BaseCommand):
    help = "Load the demo data. Development only: refuses to run with DEBUG off."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("The demo has well-known passwords; load it only with DEBUG on (development).")
        created = demo_load()
        # The Consolidated demo server comes from the consolidation app, which builds on memory.
        admin = get_user_model().objects.get(username="admin")
        created |= demo_consolidation_load(team=Team.objects.get(name="Demo"), admin=admin)
        self.stdout.write("Demo loaded." if created else "Demo already present; nothing changed.")
