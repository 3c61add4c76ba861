"""`manage.py load_demo`: the demo teams, users and the "Retro Arcade" server (safe to run again)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from memory.demo import demo_load


class Command(BaseCommand):
    help = "Load the demo data. Development only: refuses to run with DEBUG off."

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError("The demo has well-known passwords; load it only with DEBUG on (development).")
        created = demo_load()
        self.stdout.write("Demo loaded." if created else "Demo already present; nothing changed.")
