from django.urls import path

from . import views

app_name = "consolidation"

server = "servers/<str:guild_id>/"

urlpatterns = [
    path(server + "consolidation/", views.review_panel, name="review"),
    path(server + "consolidation/proposals/<int:proposal_id>/answer", views.proposal_answer_view, name="answer"),
    path(server + "consolidation/drafts/<int:draft_id>/answer", views.draft_answer_view, name="draft-answer"),
    path(server + "consolidation/rounds", views.round_start_view, name="round-start"),
    path(server + "consolidation/dry-run", views.dry_run_view, name="dry-run"),
    path(server + "moderators/", views.moderators_page, name="moderators"),
]
