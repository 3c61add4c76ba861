"""`manage.py check --deploy` passes with production settings and secrets from the environment."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from cryptography.fernet import Fernet

BASE_DIR = Path(__file__).resolve().parent.parent


def run_check(**env_overrides) -> subprocess.CompletedProcess:
    env = {
        **{key: value for key, value in os.environ.items() if key != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": "x" * 20 + "production-secret-key-with-enough-entropy-0123456789",
        "DJANGO_ALLOWED_HOSTS": "lorekeeper.example.org",
        "LOREKEEPER_FERNET_KEYS": Fernet.generate_key().decode(),
        "DATABASE_URL": os.environ.get("DATABASE_URL", "postgresql://postgres@127.0.0.1:1/lorekeeper"),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:1/0"),
        **env_overrides,
    }
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120,
    )


def test_deploy_check_passes_with_production_settings():
    result = run_check()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SECRET_KEY"}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.production")
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=BASE_DIR, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr
