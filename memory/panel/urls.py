"""The panel's URLs (namespace memory)."""

from django.urls import path

from .views import (docs, exchanges, fact_history, fact_validity, facts, facts_bulk, forget_requests, learning, members,
                    memory_page, purge, semantic, server_memory, settings_page, transfer, usage)

app_name = "memory"

server = "servers/<str:guild_id>/"
urlpatterns = [
    path("memory/", memory_page.memory_page, name="page"),
    path("memory/content-hint", memory_page.content_hint_fragment, name="content-hint"),
    path("docs/memory-types/", docs.memory_types_doc, name="types-doc"),
    path(server + "facts/", facts.fact_create_view, name="fact-create"),
    path(server + "facts/bulk", facts_bulk.facts_bulk, name="facts-bulk"),
    path(server + "facts/<int:number>/", facts.fact_detail, name="fact"),
    path(server + "facts/<int:number>/edit", facts.fact_edit, name="fact-edit"),
    path(server + "facts/<int:number>/delete", facts.fact_delete_view, name="fact-delete"),
    path(server + "facts/<int:number>/retract", fact_validity.fact_retract_view, name="fact-retract"),
    path(server + "facts/<int:number>/restore", fact_validity.fact_restore_view, name="fact-restore"),
    path(server + "facts/<int:number>/history/", fact_history.fact_history, name="fact-history"),
    path(server + "facts/<int:number>/versions/<int:version>/undo", fact_history.fact_version_undo_view,
         name="fact-version-undo"),
    path(server + "facts/<int:number>/audience", facts.fact_audience, name="fact-audience"),
    path(server + "facts/<int:number>/pin", facts.fact_pin, name="fact-pin"),
    path(server + "pinned/", memory_page.pinned_block, name="pinned"),
    path(server + "glance", memory_page.memory_glance, name="glance"),
    path(server + "summary", server_memory.summary_view, name="summary"),
    path(server + "summary/edit", server_memory.summary_edit, name="summary-edit"),
    path(server + "summary/history/", server_memory.summary_history, name="summary-history"),
    path(server + "memory-type", server_memory.memory_type_view, name="memory-type"),
    path(server + "memory-type/ranked", server_memory.ranked_dry_run, name="ranked-dry-run"),
    path(server + "memory-type/context", server_memory.context_dry_run, name="context-dry-run"),
    path(server + "restore-all", server_memory.restore_all, name="restore-all"),
    path(server + "wipe", server_memory.wipe, name="wipe"),
    path(server + "purge", purge.purge, name="purge"),
    path(server + "transfer/", transfer.transfer_page, name="transfer"),
    path(server + "transfer/export", transfer.export_view, name="export"),
    path(server + "transfer/import", transfer.import_view, name="import"),
    path(server + "forget-requests/", forget_requests.forget_request_list, name="forget-requests"),
    path(server + "forget-requests/<int:request_id>/wipe", forget_requests.forget_request_wipe_view,
         name="forget-request-wipe"),
    path(server + "forget-requests/<int:request_id>/dismiss", forget_requests.forget_request_dismiss_view,
         name="forget-request-dismiss"),
    path(server + "audit/", server_memory.audit_log, name="audit"),
    path(server + "settings/", settings_page.ai_settings_page, name="settings"),
    path(server + "exchanges/", exchanges.exchange_list, name="exchanges"),
    path(server + "exchanges/<uuid:exchange_id>/", exchanges.exchange_detail, name="exchange"),
    path(server + "playground/", exchanges.playground, name="playground"),
    path(server + "members/<str:member_id>/", members.member_page, name="member"),
    path(server + "learning/", learning.learning_run_list, name="learning-runs"),
    path(server + "usage/", usage.usage_page, name="usage"),
    path(server + "learning/<uuid:run_id>/", learning.learning_run_detail, name="learning-run"),
    path(server + "embedding-progress", semantic.embedding_progress, name="embedding-progress"),
    path(server + "memory-type/semantic", semantic.semantic_dry_run_view, name="semantic-dry-run"),
]
