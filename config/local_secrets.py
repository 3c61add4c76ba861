"""Secrets generated once per checkout for `make run` and tests, kept under var/ (never in git)."""

from __future__ import annotations

import secrets
from pathlib import Path

from cryptography.fernet import Fernet


def _read_or_create(path: Path, make) -> str:
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    value = make()
    path.write_text(value + "\n")
    path.chmod(0o600)
    return value


def local_secret_key(var_dir: Path) -> str:
    return _read_or_create(var_dir / "secret_key", lambda: secrets.token_urlsafe(50))


def local_fernet_keys(var_dir: Path) -> list[str]:
    return [_read_or_create(var_dir / "fernet.key", lambda: Fernet.generate_key().decode())]
