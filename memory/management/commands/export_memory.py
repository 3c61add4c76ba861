"""`manage.py export_memory --server GUILD_ID [--output FILE]`: one server's memory as JSON lines."""

from django.core.management.base import BaseCommand, CommandError

from memory.facts.transfer import export_lines
from teams.models import Server


class Command(BaseCommand):
    help = "Write every fact (with its history) and every summary of one server as JSON lines."

    def add_arguments(self, parser):
        parser.add_argument("--server", required=True, help="The server's Discord guild id.")
        parser.add_argument("--output", help="File to write (default: standard output).")

    def handle(self, *args, server, output=None, **options):
        found = Server.objects.filter(guild_id=server).first()
        if found is None:
            raise CommandError(f"No server with guild id {server}.")
        count = 0
        if output:
            with open(output, "w", encoding="utf-8") as stream:
                for line in export_lines(found):
                    stream.write(line + "\n")
                    count += 1
        else:
            for line in export_lines(found):
                self.stdout.write(line)
                count += 1
        self.stderr.write(f"Exported {count - 1} lines of {found.name}.")
