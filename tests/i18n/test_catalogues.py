"""The Dutch, German and Japanese catalogues are complete and what the server loads is what they say.

Complete means: every string marked for translation in a template or in Python (what `makemessages` finds,
run afresh on a copy of the code) has a translation, not fuzzy, in every catalogue, with the same
placeholders. The compiled .mo files are committed (a fresh machine needs no gettext to run the panel), so
they must say what their .po files say.
"""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("nl", "de", "ja")
CODE = ("memory", "consolidation", "teams", "config", "templates")


def _catalogue(language: str) -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="module")
def marked_strings(tmp_path_factory) -> Path:
    """django.pot of what the code marks today, made by makemessages on a copy (it rewrites catalogues)."""
    copy = tmp_path_factory.mktemp("i18n")
    for name in CODE:
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__", "migrations"))
    shutil.copy(ROOT / "manage.py", copy / "manage.py")
    (copy / "locale").mkdir()
    subprocess.run([sys.executable, "manage.py", "makemessages", "--locale", "nl", "--keep-pot", "--no-wrap"],
                   cwd=copy, check=True, capture_output=True, env={**os.environ, "PYTHONPATH": str(copy)})
    return copy / "locale" / "django.pot"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_is_translated(language, marked_strings):
    # msgcmp counts an untranslated or fuzzy entry as missing, and names each one.
    result = subprocess.run(["msgcmp", str(_catalogue(language)), str(marked_strings)], capture_output=True, text=True)
    missing = [line for line in result.stderr.splitlines() if "used but not defined" in line or "msgid" in line]
    assert result.returncode == 0, f"{language}: {len(missing)} strings without a translation:\n" + result.stderr[:4000]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_translations_keep_every_placeholder_and_the_committed_mo_matches(language, tmp_path):
    compiled = tmp_path / "django.mo"
    result = subprocess.run(["msgfmt", "--check", "-o", str(compiled), str(_catalogue(language))],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    with open(compiled, "rb") as fresh, open(_catalogue(language).with_suffix(".mo"), "rb") as committed:
        assert gettext.GNUTranslations(committed)._catalog == gettext.GNUTranslations(fresh)._catalog, (
            f"locale/{language}/LC_MESSAGES/django.mo is older than its .po: run `make messages`")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_has_no_entries_left_from_strings_the_code_no_longer_marks(language):
    obsolete = [line for line in _catalogue(language).read_text(encoding="utf-8").splitlines() if line.startswith("#~")]
    assert obsolete == []


def test_the_http_error_sentences_keep_the_status_slot():
    for language in LANGUAGES:
        with open(_catalogue(language).with_suffix(".mo"), "rb") as compiled:
            catalogue = gettext.GNUTranslations(compiled)
        assert "{status}" in catalogue.gettext("Something went wrong (HTTP {status}); nothing was changed. Try again.")
