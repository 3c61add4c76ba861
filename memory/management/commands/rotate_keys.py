"""`manage.py rotate_keys`: re-encrypt every stored model key under the newest LOREKEEPER_FERNET_KEYS key."""

from django.core.management.base import BaseCommand
from django.db import transaction

from config.crypto import reencrypt_secret
from memory.models import ModelEndpoint


class Command(BaseCommand):
    help = "Put the new key first in LOREKEEPER_FERNET_KEYS, run this, then drop the old key."

    @transaction.atomic
    def handle(self, *args, **options):
        rotated = 0
        for endpoint in ModelEndpoint.objects.select_for_update().exclude(api_key_encrypted=""):
            endpoint.api_key_encrypted = reencrypt_secret(endpoint.api_key_encrypted)
            endpoint.save(update_fields=["api_key_encrypted"])
            rotated += 1
        self.stdout.write(f"Re-encrypted {rotated} model key(s) under the newest key.")
