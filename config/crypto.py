"""Encryption at rest for model API keys: MultiFernet over LOREKEEPER_FERNET_KEYS (newest key first)."""

from __future__ import annotations

from cryptography.fernet import Fernet, MultiFernet
from django.conf import settings


def _fernet() -> MultiFernet:
    keys = settings.LOREKEEPER_FERNET_KEYS
    if not keys:
        raise RuntimeError("LOREKEEPER_FERNET_KEYS is empty: model keys cannot be stored.")
    return MultiFernet([Fernet(key.encode() if isinstance(key, str) else key) for key in keys])


def encrypt_secret(plaintext: str) -> str:
    return _fernet().encrypt(plaintext.encode()).decode()


def decrypt_secret(token: str) -> str:
    """Decrypt with whichever configured key made the token (old keys stay readable after rotation)."""
    return _fernet().decrypt(token.encode()).decode()


def reencrypt_secret(token: str) -> str:
    """Re-encrypt under the newest key, so the oldest key can later be removed."""
    return _fernet().rotate(token.encode()).decode()
