"""A fact's row on the memory, member and fact pages, and the kind and audience badges, written in Python.

Why not a template: the memory page shows 50 rows, and Django's template engine spent 0.6–1 ms on each (a row has
about 90 variable lookups, 30 translated sentences, a dozen includes and filters): 40 of the page's 80 ms at a
million facts. Here the row's fixed words are translated and escaped once per page (`Phrases`) and a row is a few
string joins. The sentences are the ones the template had (same msgids, so the nl/de/ja catalogues keep their
translations), filled as {% blocktranslate %} fills them: the translated sentence is the markup, every value put in
it is escaped. `memory/_fact_row.html` stays the row's template for the views that answer with one row.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape as _escape  # what django.utils.html.escape does, without its lazy-text wrapper per call

from django import template
from django.template.defaultfilters import date as date_filter, floatformat
from django.urls import reverse
from django.utils.formats import localize
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language, gettext as _, ngettext, override, pgettext

from memory.models import Fact
from memory.models.facts import Kind

register = template.Library()


def esc(value: object) -> str:
    """Escaped text for HTML; text already marked safe (a sentence filled here) stays as it is."""
    if isinstance(value, SafeString):
        return value
    return _escape(str(value))


def fill(sentence: str, **values: object) -> str:
    """A translated sentence that holds markup, filled with escaped values: what {% blocktranslate %} renders. The
    sentence comes through checked(), so its blanks are the ones the values fill."""
    return sentence % {name: esc(value) for name, value in values.items()}


BLANK = re.compile(r"%\((\w+)\)s")


def _blanks(sentence: str) -> list[str] | None:
    """The sentence's %(name)s blanks, sorted; None when it holds another %-directive, which filling would trip on."""
    if "%" in BLANK.sub("", sentence).replace("%%", ""):
        return None
    return sorted(BLANK.findall(sentence))


def checked(translate: Callable[[], str]) -> str:
    """A sentence with blanks in the active language, or in English when its translation has other blanks: a broken
    catalogue entry shows English, as {% blocktranslate %} does, instead of failing the page. `translate` is a
    lambda holding the gettext call, so makemessages still finds the msgid."""
    translated = translate()
    with override(None):
        english = translate()
    return translated if translated == english or _blanks(translated) == _blanks(english) else english


def kind_title(kind: str) -> str:
    if kind == "rule":
        return _("A rule: how the bot must behave here; age never lowers it")
    if kind == "profile":
        return _("A profile: about a member; age never lowers it")
    if kind == "preference":
        return _("A preference: ages slowly (Ranked and after)")
    if kind == "event":
        return _("An event: something that happened or is planned; ages fast (Ranked and after)")
    return _("Lore: server facts, terms, running jokes; age never lowers it")


def _kind_badge_html(kind: str, label: str) -> str:
    return f'<span class="badge badge-kind kind-{esc(kind)}" title="{esc(kind_title(kind))}">{esc(label)}</span>'


def _channel_badge_sentence() -> str:
    return checked(lambda: _("Handed to the bot only in %(channel)s and its threads"))


def _channel_badge_html(channel_label: str, sentence: str) -> str:
    return (f'<span class="badge badge-audience audience-channel" title="{fill(sentence, channel=channel_label)}">'
            f'{esc(channel_label)}</span>')


def _audience_badge_html(audience: str, channel_label: str) -> str:
    # Every gettext call stands outside the f-strings: xgettext (makemessages) does not look inside them.
    if audience == "channel":
        return _channel_badge_html(channel_label, _channel_badge_sentence())
    if audience == "staff":
        title, label = _("Never handed to the bot: kept for staff on this page"), pgettext("audience", "Staff only")
        return f'<span class="badge badge-audience audience-staff" title="{esc(title)}">{esc(label)}</span>'
    title, label = _("Handed to the bot in every channel where memory may be read"), pgettext("audience", "Server")
    return f'<span class="badge badge-audience audience-server" title="{esc(title)}">{esc(label)}</span>'


@register.simple_tag
def kind_badge(kind: str, label: str) -> SafeString:
    """What kind of thing a fact says; under Ranked and after it decides how fast age lowers its recency."""
    return mark_safe(_kind_badge_html(kind, label))


@register.simple_tag
def audience_badge(audience: str, channel_label: str = "") -> SafeString:
    """Who may see a fact: Server / #channel / Staff only. `channel_label` names its source channel ("#mod-chat",
    or "channel 111" while unreported)."""
    return mark_safe(_audience_badge_html(audience, channel_label))


class Phrases:
    """The words every row of a page shares, in the page's language: fixed text escaped, sentences with blanks kept
    as markup to fill; and the addresses a row links to, reversed once per server instead of per row."""

    def __init__(self) -> None:
        self.kind_badges = {kind: _kind_badge_html(kind, label) for kind, label in Kind.choices}
        self.server_badge = _audience_badge_html("server", "")
        self.staff_badge = _audience_badge_html("staff", "")
        self.channel_badge_sentence = _channel_badge_sentence()
        self.pinned_title = esc(_("Handed to the bot in every reply, before the other facts (up to the pinned caps)"))
        self.pinned_retracted_title = esc(_("Pinned, but retracted: no reply gets it"))
        self.pinned = esc(_("Pinned"))
        self.exact_key = '<span class="badge">{}</span>'.format(esc(_("exact key")))
        self.instruction_like = (
            '<span class="badge badge-danger" title="{}">{}</span>'.format(
                esc(_("This text reads like an instruction to the bot. The bot gets it quoted as data and is told "
                      "not to follow it; consolidation keeps it out of the summary.")), esc(_("instruction-like"))))
        self.member_title = esc(_("A fact about this Discord member: everything about them"))
        self.member = checked(lambda: _("member %(member_id)s"))
        self.flag_title = checked(lambda: _("An open contradiction proposal: #%(number)s says otherwise. Answer it in "
                                            "the review."))
        self.flag = checked(lambda: _("contradicts #%(number)s"))
        self.deleted_retracted = checked(lambda: _("The member deleted the Discord message it was learned from on "
                                                   "%(day)s: retracted; restore it if it should stay"))
        self.deleted_hidden = checked(lambda: _("The member deleted the Discord message it was learned from on "
                                                "%(day)s: only staff see it now; choose an audience to hand it to the "
                                                "bot again"))
        self.deleted = esc(_("message deleted"))
        self.held_back = '<span class="badge badge-flag" title="{}">{}</span>'.format(
            esc(_("The newer fact it contradicts is handed to the bot instead; answer the flag to decide")),
            esc(_("held back from the bot until answered")))
        self.retracted = checked(lambda: _("Retracted %(day)s"))
        self.replaced_by = checked(lambda: _('replaced by <a href="%(url)s">#%(number)s</a>'))
        self.by_staff = checked(lambda: _("by %(name)s"))
        self.former_staff = _("a former staff member")
        self.by_bot_member_exchange = checked(lambda: _('by the bot, learned from <a href="%(member_url)s">member '
                                                        '%(member_id)s</a> in <a href="%(exchange_url)s">this '
                                                        'exchange</a>'))
        self.by_bot_member = checked(lambda: _('by the bot, learned from <a href="%(member_url)s">member '
                                               '%(member_id)s</a>'))
        self.by_bot_exchange = checked(lambda: _('by the bot in <a href="%(exchange_url)s">this exchange</a>'))
        self.by_bot = esc(_("by the bot"))
        self.channel_title = checked(lambda: _("Every fact learned in %(channel)s"))
        self.learned_in = checked(lambda: _('learned in <a href="%(url)s" title="%(title)s">%(channel)s</a>'))
        self.made_for = checked(lambda: _('for <a href="%(url)s" title="%(title)s">%(channel)s</a>'))
        self.in_thread = checked(lambda: _("(in %(thread)s)"))
        self.changed = checked(lambda: _('changed <time datetime="%(when)s">%(day)s</time>'))
        self.unscored = '<span title="{}">{}</span>'.format(esc(_("Not rated yet; ranked as middling (0.5)")),
                                                            esc(_("importance unscored")))
        self.importance = checked(lambda: _("importance %(importance)s"))
        self.confidence_title = checked(lambda: _("Confidence %(confidence)s"))
        self.confidence = esc(_("Confidence"))
        self.select = checked(lambda: _("Select #%(number)s"))
        self.who_sees = checked(lambda: _("Who sees #%(number)s"))
        self.seen_by = esc(_("Seen by"))
        self.audience_server = (esc(_("Every channel where memory may be read")), esc(pgettext("audience", "Server")))
        self.audience_channel_title = checked(lambda: _("Only %(channel)s and its threads"))
        self.audience_no_channel = (esc(_("Only one channel: choose which")), esc(_("Channel…")))
        self.audience_staff = (esc(_("Never handed to the bot")), esc(pgettext("audience", "Staff only")))
        self.unpin_title = checked(lambda: _("Stop handing #%(number)s to the bot in every reply"))
        self.unpin = esc(_("Unpin"))
        self.pin_title = checked(lambda: _("Hand #%(number)s to the bot in every reply, before the other facts"))
        self.pin = esc(_("Pin"))
        self.edit, self.restore, self.retract = esc(_("Edit")), esc(_("Restore…")), esc(_("Retract…"))
        self.delete = esc(_("Delete"))
        self.addresses: dict[str, dict[str, str]] = {}

    @classmethod
    def of_page(cls, context) -> Phrases:
        """One set per page render and language (a page speaks one; a test may switch between renders)."""
        key = ("fact_row_phrases", get_language())
        if key not in context.render_context:
            context.render_context[key] = cls()
        return context.render_context[key]

    def _prefixes(self, guild_id: str) -> dict[str, str]:
        if guild_id not in self.addresses:
            self.addresses[guild_id] = {
                "member": reverse("memory:member", args=[guild_id, "0"]).removesuffix("0/"),
                "review": reverse("consolidation:review", args=[guild_id]),
                "channel": f"{reverse('memory:page')}?server={guild_id}&channel=",
            }
        return self.addresses[guild_id]

    def member_url(self, guild_id: str, member_id: str) -> str:
        if not (member_id.isascii() and member_id.isdigit()):  # not a Discord id: reverse() quotes it as {% url %} did
            return reverse("memory:member", args=[guild_id, member_id])
        return f"{self._prefixes(guild_id)['member']}{member_id}/"

    def exchange_url(self, guild_id: str, exchange_id) -> str:
        return reverse("memory:exchange", args=[guild_id, exchange_id])

    def review_url(self, guild_id: str) -> str:
        return self._prefixes(guild_id)["review"]

    def channel_url(self, guild_id: str, channel_id: str) -> str:
        return f"{self._prefixes(guild_id)['channel']}{channel_id}"


def _day(moment, style: str) -> str:
    return date_filter(template_localtime(moment), style)


def _badges(fact: Fact, context, words: Phrases, guild_id: str, exact_key: bool) -> list[str]:
    badges = []
    if fact.pinned:
        title = words.pinned_retracted_title if fact.retracted_at else words.pinned_title
        badges.append(f'<span class="badge badge-pinned" title="{title}">{words.pinned}</span>')
    badges.append(words.kind_badges.get(fact.kind) or _kind_badge_html(fact.kind, fact.get_kind_display()))
    if exact_key:
        badges.append(words.exact_key)
    if context.get("show_server_column"):
        badges.append(f'<span class="badge badge-muted">{esc(fact.server.name)}</span>')
    if fact.instruction_like:
        badges.append(words.instruction_like)
    if fact.scope == "member":
        badges.append(f'<a class="badge badge-member" href="{esc(words.member_url(guild_id, fact.member_id))}" '
                      f'title="{words.member_title}">{fill(words.member, member_id=fact.member_id)}</a>')
    if fact.audience == "server":
        badges.append(words.server_badge)
    elif fact.audience == "staff":
        badges.append(words.staff_badge)
    else:
        badges.append(_channel_badge_html(getattr(fact, "source_label", ""), words.channel_badge_sentence))
    if fact.mention_count > 1:
        count = fact.mention_count
        title = fill(checked(lambda: ngettext("mentioned %(counter)s time", "mentioned %(counter)s times", count)),
                     counter=localize(fact.mention_count))
        badges.append(f'<span class="badge badge-muted" title="{title}">×{localize(fact.mention_count)}</span>')
    for flag in getattr(fact, "flags", ()):
        badges.append(f'<a class="badge badge-flag" href="{esc(words.review_url(guild_id))}" '
                      f'title="{fill(words.flag_title, number=flag.other_number)}">'
                      f'{fill(words.flag, number=flag.other_number)}</a>')
    if fact.source_deleted_at:
        title = fill(words.deleted_retracted if fact.retracted_at else words.deleted_hidden,
                     day=_day(fact.source_deleted_at, "SHORT_DATE_FORMAT"))
        badges.append(f'<span class="badge badge-flag" title="{title}">{words.deleted}</span>')
    if fact.held_back and not fact.retracted_at:
        badges.append(words.held_back)
    return badges


def _retraction(fact: Fact, words: Phrases) -> str:
    line = fill(words.retracted, day=_day(fact.retracted_at, "SHORT_DATE_FORMAT"))
    if fact.retraction_reason:
        line += f" — {esc(fact.retraction_reason)}"
    if fact.superseded_by:
        number = fact.superseded_by.number
        # The replacement's address is this row's (memory.panel.fact_rows.attach_urls) with the other number.
        url = f"{fact.url_base.removesuffix(f'{fact.number}/')}{number}/"
        line += " · " + fill(words.replaced_by, url=url, number=number)
    return f'<p class="fact-retraction">{line}</p>'


def _author(fact: Fact, words: Phrases, guild_id: str) -> str:
    if fact.author_kind != "bot":
        name = (fact.author_user.get_username() if fact.author_user else "") or words.former_staff
        return fill(words.by_staff, name=name)
    member_id, exchange_id = fact.learned_from_member_id, fact.source_exchange_id
    if member_id and exchange_id:
        return fill(words.by_bot_member_exchange, member_url=words.member_url(guild_id, member_id),
                    member_id=member_id, exchange_url=words.exchange_url(guild_id, exchange_id))
    if member_id:
        return fill(words.by_bot_member, member_url=words.member_url(guild_id, member_id), member_id=member_id)
    if exchange_id:
        return fill(words.by_bot_exchange, exchange_url=words.exchange_url(guild_id, exchange_id))
    return words.by_bot


def _where(fact: Fact, words: Phrases, guild_id: str) -> str:
    channel = getattr(fact, "source_label", "")
    link = {"url": words.channel_url(guild_id, fact.source_channel_id),
            "title": SafeString(fill(words.channel_title, channel=channel)), "channel": channel}
    where = fill(words.learned_in if fact.author_kind == "bot" else words.made_for, **link)
    thread = getattr(fact, "thread_label", "")
    if thread:
        where += f' <span class="nowrap">{fill(words.in_thread, thread=thread)}</span>'
    return f"· {where}"


def _meta(fact: Fact, words: Phrases, guild_id: str) -> str:
    parts = [_author(fact, words, guild_id)]
    if fact.source_channel_id:
        parts.append(_where(fact, words, guild_id))
    when = template_localtime(fact.changed_at)
    parts.append("· " + fill(words.changed, when=when.isoformat(), day=date_filter(when, "SHORT_DATETIME_FORMAT")))
    parts.append("· " + (words.unscored if fact.importance is None else
                         fill(words.importance, importance=floatformat(fact.importance, 2))))
    return '<p class="fact-meta">\n      ' + "\n      ".join(parts) + "\n    </p>"


def _audience_choice(fact: Fact, words: Phrases, csrf_token: str, refocus) -> str:
    """One click changes who may see the fact. A fact learned in no channel offers "Channel…", which asks which."""
    channel = getattr(fact, "source_label", "")
    if fact.source_channel_id:
        channel_choice = (fill(words.audience_channel_title, channel=channel), esc(channel))
    else:
        channel_choice = words.audience_no_channel
    buttons = []
    for value, (title, label) in (("server", words.audience_server), ("channel", channel_choice),
                                  ("staff", words.audience_staff)):
        chosen = fact.audience == value
        autofocus = " autofocus" if refocus == "audience" and chosen else ""
        buttons.append(f'<button type="submit" class="small" name="audience" value="{value}" '
                       f'aria-pressed="{"true" if chosen else "false"}"{autofocus} title="{title}">{label}</button>')
    url = esc(fact.url_base)
    return (f'<form class="audience-choice" method="post" action="{url}audience" hx-post="{url}audience" '
            f'hx-target="closest li" hx-swap="outerHTML" role="group" '
            f'aria-label="{fill(words.who_sees, number=fact.number)}">\n'
            f'  <input type="hidden" name="csrfmiddlewaretoken" value="{csrf_token}">\n'
            f'  <span class="audience-choice-label" aria-hidden="true">{words.seen_by}</span>\n  '
            + "\n  ".join(buttons) + "\n</form>")


def _pin_choice(fact: Fact, words: Phrases, csrf_token: str, refocus) -> str:
    """Pin or unpin with one click. A retracted fact cannot be pinned; one pinned before it was retracted can still
    be unpinned."""
    if not fact.pinned and fact.retracted_at:
        return ""
    autofocus = " autofocus" if refocus == "pin" else ""
    if fact.pinned:
        button = (f'<button type="submit" class="small" name="pinned" value="false"{autofocus} '
                  f'title="{fill(words.unpin_title, number=fact.number)}">{words.unpin}</button>')
    else:
        button = (f'<button type="submit" class="small" name="pinned" value="true"{autofocus} '
                  f'title="{fill(words.pin_title, number=fact.number)}">{words.pin}</button>')
    url = esc(fact.url_base)
    return (f'<form class="pin-choice" method="post" action="{url}pin" hx-post="{url}pin" hx-target="closest li" '
            f'hx-swap="outerHTML">\n  <input type="hidden" name="csrfmiddlewaretoken" value="{csrf_token}">\n'
            f'  {button}\n</form>')


def _actions(fact: Fact, context, words: Phrases) -> str:
    csrf_token, refocus = esc(context.get("csrf_token", "")), context.get("refocus")
    url = esc(fact.url_base)

    def button(action: str, label: str, *, autofocus: bool = False, classes: str = "small") -> str:
        return (f'<button type="button" class="{classes}"{" autofocus" if autofocus else ""} hx-get="{url}{action}" '
                f'hx-target="closest li" hx-swap="outerHTML">{label}</button>')

    buttons = [_audience_choice(fact, words, csrf_token, refocus), _pin_choice(fact, words, csrf_token, refocus),
               button("edit", words.edit, autofocus=bool(refocus) and refocus not in ("audience", "pin"))]
    if fact.retracted_at:
        buttons.append(button("restore", words.restore))
    elif fact.server_id in (context.get("retractable_ids") or ()):
        buttons.append(button("retract", words.retract))
    buttons.append(button("delete", words.delete, classes="small danger-outline"))
    return '<div class="fact-actions">\n    ' + "\n    ".join(buttons) + "\n  </div>"


@register.simple_tag(takes_context=True)
def fact_row(context, fact: Fact, exact_key: bool = False) -> SafeString:
    """The <li> of one fact, from what the view put in the context: `configurable_ids` (its actions),
    `retractable_ids`, `bulk` (its checkbox), `show_server_column`, `refocus`, `pin_error`."""
    words = Phrases.of_page(context)
    guild_id = str(fact.server.guild_id)
    may_configure = fact.server_id in (context.get("configurable_ids") or ())
    url = esc(fact.url_base)
    line = [f'<a class="fact-number" href="{url}">#{fact.number}</a>',
            f'<bdi><code class="fact-key" dir="auto">{esc(fact.key)}</code></bdi>',
            *_badges(fact, context, words, guild_id, bool(exact_key))]
    if context.get("bulk") and may_configure:
        line.insert(0, f'<input type="checkbox" class="bulk-select" form="bulk-form" name="numbers" '
                       f'value="{fact.number}" aria-label="{fill(words.select, number=fact.number)}">')
    main = ['<div class="fact-line">\n      ' + "\n      ".join(line) + "\n    </div>",
            f'<p class="fact-content">{esc(fact.content)}</p>']
    if fact.retracted_at:
        main.append(_retraction(fact, words))
    main.append(_meta(fact, words, guild_id))
    confidence = floatformat(fact.confidence, 2)
    parts = ['<div class="fact-main">\n    ' + "\n    ".join(main) + "\n  </div>",
             f'<div class="fact-confidence" title="{fill(words.confidence_title, confidence=confidence)}">\n'
             f'    <meter min="0" max="1" low="0.5" optimum="1" value="{"%f" % fact.confidence}" '
             f'aria-label="{words.confidence}">{esc(localize(fact.confidence))}</meter>\n'
             f'    <span>{esc(confidence)}</span>\n  </div>']
    if context.get("pin_error"):
        parts.append(f'<p class="form-error fact-error" role="alert">{esc(context["pin_error"])}</p>')
    if may_configure:
        parts.append(_actions(fact, context, words))
    classes = "fact" + (" is-retracted" if fact.retracted_at else "") + (" is-pinned" if fact.pinned else "")
    return mark_safe(f'<li class="{classes}" id="fact-{fact.server_id}-{fact.number}">\n  '
                     + "\n  ".join(parts) + "\n</li>")
