"""`manage.py import_memory --server GUILD_ID FILE`: load an export_memory file into a server without memory."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from memory.facts.transfer import import_lines
from teams.models import Server


class Command(BaseCommand):
    help = "Import facts and summaries exported by export_memory into a server that has none yet."

    def add_arguments(self, parser):
        parser.add_argument("--server", required=True, help="The Discord guild id of the server to fill.")
        parser.add_argument("file", help="A file written by export_memory.")

    def handle(self, *args, server, file, **options):
        found = Server.objects.filter(guild_id=server).first()
        if found is None:
            raise CommandError(f"No server with guild id {server}; create it in admin first.")
        try:
            # Bytes: the import tells a line that is not UTF-8 by its number, where a text file would stop reading.
            with open(file, "rb") as lines:
                counts = import_lines(found, lines)
        except OSError as error:
            raise CommandError(f"Nothing was imported: {file} could not be read ({error.strerror}).") from None
        except ValidationError as refused:
            raise CommandError("Nothing was imported:\n" + "\n".join(refused.messages)) from None
        self.stdout.write(f"Imported {counts['facts']} facts and {counts['summaries']} summaries into {found.name}.")
