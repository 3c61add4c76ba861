"""The review queue on the memory page, its answers, starting a round, moderators, and the dry run."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from memory.configuration.selectors import ai_settings_for_server
from memory.facts.selectors import summary_current
from memory.models import Fact
from memory.types import profile_for
from teams.models import Server
from teams.panel import HtmxHttpRequest, panel_login_required
from teams.permissions import (
    can_configure,
    can_review,
    server_for_configurer,
    server_for_reviewer,
    server_for_viewer,
)

from .dry_run import consolidation_dry_run
from .model_review import NO_MODEL_NOTE
from .models import ConsolidationRound, Proposal, RoundTrigger, SummaryDraft
from .rounds import RoundNotQueued, round_queue
from .selectors import (
    consolidation_model,
    latest_round,
    merge_audience,
    open_round,
    pending_draft,
    pending_proposals,
    pending_summary_for,
    team_members_with_review,
)
from .services import Answer, proposal_answer, reviewer_set, summary_draft_answer


def _unchecked_because(server: Server, latest) -> str:
    if latest is None or not latest.unjudged_pairs:
        return ""
    if not latest.model_note.startswith(NO_MODEL_NOTE):
        return "model_missed"
    return "model_set_since" if consolidation_model(server) is not None else "no_model"


def _review_context(server: Server, user, message: str = "", restorable: Fact | None = None) -> dict:
    pending = pending_proposals(server)
    latest = latest_round(server)
    proposal = pending.first()
    return {
        "server": server,
        "proposal": proposal,
        # Who would see the merged fact (the narrower audience of the two), said on a duplicate's proposal.
        "merge_audience": merge_audience(server, proposal) if proposal is not None else None,
        "pending_count": pending.count(),
        "draft": pending_draft(server),
        "summary": summary_current(server),
        "latest_round": latest,
        # Why the last round's proposals went unchecked: its model did not get to them, or it had none (and
        # whether one has been set since).
        "unchecked_because": _unchecked_because(server, latest),
        "round_in_progress": open_round(server) is not None,
        # After a switch away, what an earlier round proposed is still answered here; no new round runs.
        "consolidating": profile_for(ai_settings_for_server(server).memory_type).consolidates,
        "can_review": can_review(user, server),
        "can_configure": can_configure(user, server),
        "message": message,
        # The side a contradiction's answer retracted: its Restore button (for configure users, whom restore needs)
        # takes that answer's retract back.
        "restorable": restorable,
    }


def _review_response(request: HtmxHttpRequest, server: Server, message: str = "", changed: bool = False,
                     status: int = 200, round_id: int | None = None,
                     restorable: Fact | None = None) -> HttpResponse:
    if round_id is not None:  # the worker may have finished it already (a fast worker, or eager tasks)
        started = ConsolidationRound.objects.filter(pk=round_id).first()
        if started is not None and started.status == "finished":
            message = gettext("The round finished; its proposals are below.")
        elif started is not None and started.status == "refused":
            message = gettext("The round refused itself: %(refusal)s") % {"refusal": started.refusal}
    if not request.htmx:
        if message:
            messages.info(request, message)
        return redirect(f"{reverse('memory:page')}?server={server.guild_id}#consolidation")
    response = render(request, "consolidation/_review.html",
                      _review_context(server, request.user, message, restorable), status=status)
    if changed:  # the fact list and the summary on the page reload themselves (hx-trigger from:body)
        response["HX-Trigger"] = json.dumps({"memory-changed": True})
    # The navigation's count of waiting proposals, redrawn out of band: an answer may have lowered it.
    response.content += render_to_string("_proposals_nav.html", {
        "waiting_proposals": pending_summary_for(request.user), "oob": True}, request).encode()
    return response


@panel_login_required
@require_GET
def review_panel(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """The consolidation block of the memory page: viewers see the latest round; reviewers the next
    proposal with its three answers and the summary draft."""
    server = server_for_viewer(request.user, guild_id)
    context = _review_context(server, request.user)
    if request.htmx:
        return render(request, "consolidation/_review.html", context)
    return render(request, "consolidation/review_page.html", context)


@panel_login_required
@require_POST
def proposal_answer_view(request: HtmxHttpRequest, guild_id: str, proposal_id: int) -> HttpResponse:
    server = server_for_reviewer(request.user, guild_id)
    proposal = get_object_or_404(Proposal, pk=proposal_id, server=server)
    try:
        outcome = proposal_answer(proposal=proposal, actor=request.user, answer=request.POST.get("answer", ""))
    except ValidationError as refused:
        bad_input = "answer" in getattr(refused, "error_dict", {})  # an unknown answer; otherwise the state refused
        return _review_response(request, server, " ".join(refused.messages), status=400 if bad_input else 409)
    one_side = request.POST.get("answer") in (Answer.RETRACT_KEEPER, Answer.RETRACT_OTHER)
    return _review_response(request, server, outcome.message, changed=outcome.retired is not None,
                            restorable=outcome.retired if one_side else None)


@panel_login_required
@require_POST
def draft_answer_view(request: HtmxHttpRequest, guild_id: str, draft_id: int) -> HttpResponse:
    server = server_for_reviewer(request.user, guild_id)
    draft = get_object_or_404(SummaryDraft, pk=draft_id, server=server)
    use = request.POST.get("answer")
    if use not in ("use", "keep"):
        return _review_response(request, server, gettext("Answer with use or keep."), status=400)
    try:
        summary_draft_answer(draft=draft, actor=request.user, use=use == "use")
    except ValidationError as refused:
        return _review_response(request, server, " ".join(refused.messages), status=409)
    message = gettext("The draft is the summary now; the previous wording was retracted.") if use == "use" else \
        gettext("The current summary stays.")
    return _review_response(request, server, message, changed=use == "use")


@panel_login_required
@require_POST
def round_start_view(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Configure users start a round now (it still refuses itself when it would yield nothing)."""
    server = server_for_configurer(request.user, guild_id)
    try:
        queued = round_queue(server=server, trigger=RoundTrigger.MANUAL, actor=request.user)
    except RoundNotQueued as refused:
        return _review_response(request, server, str(refused), status=409)
    return _review_response(request, server, gettext("A round is queued; this block follows its progress."),
                            round_id=queued.pk)


@panel_login_required
@require_http_methods(["GET", "POST"])
def moderators_page(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """Configure users choose which team members may answer proposals (review_proposals)."""
    server = server_for_configurer(request.user, guild_id)
    message = ""
    if request.method == "POST":
        user = get_user_model().objects.filter(pk=request.POST.get("user", "")).first() \
            if request.POST.get("user", "").isdigit() else None
        if user is None:
            raise Http404("No such member.")
        allowed = request.POST.get("allowed") == "1"
        reviewer_set(server=server, user=user, actor=request.user, allowed=allowed)
        message = (gettext("%(user)s may now answer proposals.") if allowed
                   else gettext("%(user)s may no longer answer proposals.")) % {"user": user.get_username()}
    context = {"server": server, "members": team_members_with_review(server), "message": message}
    if request.htmx:
        return render(request, "consolidation/_moderators.html", context)
    return render(request, "consolidation/moderators_page.html", context)


@panel_login_required
@require_GET
def dry_run_view(request: HtmxHttpRequest, guild_id: str) -> HttpResponse:
    """The Consolidated card's numbers, computed by the round's own code (loaded after the page)."""
    server = server_for_viewer(request.user, guild_id)
    return render(request, "consolidation/_dry_run.html", {"server": server, "dry_run": consolidation_dry_run(server)})
