"""`manage.py runbot`: run the Discord bot in this process, with DISCORD_TOKEN from the environment."""

import discord
from django.core.management.base import BaseCommand, CommandError

from config.heap import freeze_what_is_loaded

from memory.bot.discord import TOKEN_VARIABLE, discord_token, run_bot
from memory.bot.discord_servers import InstallationRefused, team_named


class Command(BaseCommand):
    help = (f"Run the Discord bot ({TOKEN_VARIABLE} must be set). It answers when mentioned, and every message in "
            "a server's reply channels, with the reply model of the server's AI settings; reports each channel's "
            "name and whether @everyone can view it; and offers /memory me, /memory forget-me and, to staff with "
            "Manage Server, /memory remember and /memory forget (invite it with the applications.commands scope for "
            "those). It runs for one team: --team NAME, or the team its application id is registered for in admin "
            "(Discord bots); every server it is in becomes one of that team's by itself.")

    def add_arguments(self, parser):
        parser.add_argument("--team", metavar="NAME",
                            help="the team the bot runs for; its application is registered for the team the first "
                                 "time (without it: the team admin's Discord bots give the application id)")

    def handle(self, *args, **options):
        try:
            team = team_named(options["team"]) if options["team"] is not None else None
        except InstallationRefused as refused:
            raise CommandError(str(refused)) from None
        token = discord_token()
        if not token:
            raise CommandError(f"{TOKEN_VARIABLE} is not set. Put the bot token from the Discord Developer Portal "
                               f"(Applications → your app → Bot → Reset Token) in the environment: "
                               f"{TOKEN_VARIABLE}=… manage.py runbot")
        freeze_what_is_loaded(web=False)  # replies for days: its start-up objects stay out of full collections
        try:
            run_bot(token, team)
        except InstallationRefused as refused:
            raise CommandError(str(refused)) from None
        except discord.LoginFailure:
            raise CommandError(f"Discord refused the token in {TOKEN_VARIABLE}; reset it in the Developer Portal "
                               "and try again.") from None
        except discord.PrivilegedIntentsRequired:
            raise CommandError("Discord refused the Message Content intent: switch on 'Message Content Intent' "
                               "under Bot → Privileged Gateway Intents in the Developer Portal.") from None
        except OSError as error:  # aiohttp's connection errors are OSErrors: no network, DNS, proxy …
            raise CommandError(f"Could not reach Discord: {error}") from None
