"""The import form of the export and import page: the file, its size limit, and the fingerprint that ties the
import step to the file that was checked."""

from __future__ import annotations

import hashlib

from django import forms
from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext, gettext_lazy as _

# A memory export is about 650 bytes a fact: 50 MB holds some 75,000 facts, checked in 2 s and imported in about
# 30 s on the development machine (the INSERTs and their indexes), well within gunicorn's 90 s timeout. Django spools
# a file past FILE_UPLOAD_MAX_MEMORY_SIZE to a temporary file, so no upload setting needs raising for it.
IMPORT_MAX_BYTES = 50 * 1024 * 1024


def file_fingerprint(upload) -> str:
    """SHA-256 of the file's bytes: the import step imports only the file whose check the user saw."""
    digest = hashlib.sha256()
    for chunk in upload.chunks():
        digest.update(chunk)
    return digest.hexdigest()


class ImportForm(forms.Form):
    """The file to check, and, from the check's Import button, the fingerprint of the file it checked."""

    file = forms.FileField(label=_("Export file (.jsonl)"),
                           error_messages={"required": _("Choose the export file to import."),
                                           "empty": _("The file is empty: choose a memory export."),
                                           "invalid": _("Choose the export file to import.")})
    confirm = forms.CharField(required=False)  # any other value than the fingerprint: checked again, not imported

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise ValidationError(
                gettext("The file is %(size)s; an import takes at most %(limit)s. Nothing was imported.")
                % {"size": filesizeformat(upload.size), "limit": filesizeformat(IMPORT_MAX_BYTES)})
        return upload
