"""A fact's history as its page reads it: each version with who made it, in words, and old → new for every field
that changed. Presentation only: the versions come from memory.facts.selectors.fact_versions."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext, gettext_lazy as _, pgettext_lazy

from memory.models import Audience, FactVersion, Kind, Scope, VersionChange
from memory.text.sentence_case import in_sentence

# How many versions the page shows at first, and each "Show older changes" adds: a fact said again a thousand
# times has a thousand versions.
TIMELINE_PAGE = 20

FIELD_LABELS = {
    "key": _("key"), "content": _("wording"), "confidence": _("confidence"), "importance": _("importance"),
    "kind": _("kind"), "audience": _("seen by"), "source_channel_id": _("channel"),
    "pinned": pgettext_lazy("a fact's field", "pinned"), "scope": pgettext_lazy("a fact's field", "about"),
    "member_id": _("member"), "mention_count": _("mentions"),
}
# Fields a diff shows in this order; anything else a version holds (a restore's retraction) is said in words.
FIELD_ORDER = tuple(FIELD_LABELS)


def _shown(name: str, value: object) -> str:
    if value is None or value == "":
        return gettext("unscored") if name == "importance" else gettext("none")
    if name in ("confidence", "importance") and isinstance(value, (int, float)):
        return f"{value:.2f}"
    if name == "kind" and value in Kind.values:
        return Kind(value).label
    if name == "audience" and value in Audience.values:
        return in_sentence(Audience(value).label)
    if name == "scope" and value in Scope.values:
        return gettext("the server") if value == Scope.SERVER else gettext("a member")
    if name == "pinned":
        return gettext("yes") if value else gettext("no")
    if name == "mention_count":
        return f"×{value}"
    return str(value)


@dataclass(frozen=True)
class FieldChange:
    name: str
    label: str
    old: str
    new: str


@dataclass
class TimelineEntry:
    """One version of a fact, ready for templates/memory/_fact_timeline.html."""

    version: FactVersion
    changes: list[FieldChange] = field(default_factory=list)
    undoable: bool = False  # a staff edit the viewer may try to undo (the service answers whether it still applies)
    undone: bool = False  # a later version on the same page undid it
    undoes: FactVersion | None = None  # an undo's edit, when it is on the same page

    @property
    def written(self) -> dict:
        """What a fact said when it was written (a creation keeps the whole snapshot)."""
        return self.version.after if self.version.change == VersionChange.CREATE else {}

    @property
    def restored_from(self) -> dict:
        """What a restore undid: when and why the fact had been retracted."""
        return self.version.before if self.version.change == VersionChange.RESTORE else {}


def _field_changes(version: FactVersion) -> list[FieldChange]:
    if version.change in (VersionChange.CREATE, VersionChange.RESTORE):
        return []  # said in words: what it was written as, what the retraction had been
    names = [name for name in FIELD_ORDER if name in version.before or name in version.after]
    return [FieldChange(name, FIELD_LABELS[name], _shown(name, version.before.get(name)),
                        _shown(name, version.after.get(name))) for name in names]


def timeline_entries(versions: list[FactVersion], *, can_undo: bool) -> list[TimelineEntry]:
    by_id = {version.pk: version for version in versions}
    undone = {version.undoes_id for version in versions if version.undoes_id}
    return [TimelineEntry(version=version, changes=_field_changes(version), undone=version.pk in undone,
                          undoable=can_undo and version.change == VersionChange.EDIT and version.pk not in undone,
                          undoes=by_id.get(version.undoes_id))
            for version in versions]
