"""`manage.py runbot`: run the Discord bot in this process, with DISCORD_TOKEN from the environment."""

import discord
from django.core.management.base import BaseCommand, CommandError

from memory.bot.discord import TOKEN_VARIABLE, discord_token, run_bot


class Command(BaseCommand):
    help = (f"Run the Discord bot ({TOKEN_VARIABLE} must be set). It answers when mentioned, and every message in "
            "a server's reply channels, with the reply model of the server's AI settings; reports each channel's "
            "name and whether @everyone can view it; and offers /memory me and /memory forget-me (invite it with "
            "the applications.commands scope for those).")

    def handle(self, *args, **options):
        token = discord_token()
        if not token:
            raise CommandError(f"{TOKEN_VARIABLE} is not set. Put the bot token from the Discord Developer Portal "
                               f"(Applications → your app → Bot → Reset Token) in the environment: "
                               f"{TOKEN_VARIABLE}=… manage.py runbot")
        try:
            run_bot(token)
        except discord.LoginFailure:
            raise CommandError(f"Discord refused the token in {TOKEN_VARIABLE}; reset it in the Developer Portal "
                               "and try again.") from None
        except discord.PrivilegedIntentsRequired:
            raise CommandError("Discord refused the Message Content intent: switch on 'Message Content Intent' "
                               "under Bot → Privileged Gateway Intents in the Developer Portal.") from None
        except OSError as error:  # aiohttp's connection errors are OSErrors: no network, DNS, proxy …
            raise CommandError(f"Could not reach Discord: {error}") from None
