import uuid

from django.urls import path, re_path, register_converter

from . import views


class AnyCaseUUIDConverter:
    """A UUID as the schema's `format: uuid` allows it: in lower or upper case (Django's own takes lower only)."""

    regex = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

    def to_python(self, value: str) -> uuid.UUID:
        return uuid.UUID(value)

    def to_url(self, value) -> str:
        return str(value)


register_converter(AnyCaseUUIDConverter, "any_case_uuid")

app_name = "api"

urlpatterns = [
    path("schema.json", views.schema, name="schema"),
    path("docs", views.docs, name="docs"),
    path("servers/<str:guild_id>", views.server_detail, name="server-detail"),
    path("servers/<str:guild_id>/context", views.context, name="context"),
    path("servers/<str:guild_id>/reply", views.reply, name="reply"),
    path("servers/<str:guild_id>/channels", views.channels, name="channels"),
    path("servers/<str:guild_id>/messages", views.messages, name="messages"),
    path("servers/<str:guild_id>/messages/deleted", views.messages_deleted_view, name="messages-deleted"),
    path("servers/<str:guild_id>/purge", views.purge, name="purge"),
    path("servers/<str:guild_id>/members/<str:member_id>/facts", views.member_facts_detail, name="member-facts"),
    path("servers/<str:guild_id>/members/<str:member_id>/forget", views.member_forget, name="member-forget"),
    path("exchanges/<any_case_uuid:exchange>", views.exchange_detail, name="exchange"),
    path("exchanges/<any_case_uuid:exchange>/search", views.search, name="search"),
    path("exchanges/<any_case_uuid:exchange>/actions", views.actions, name="actions"),
    # Anything else under /api/v1/ answers a JSON 404, never the HTML error page.
    re_path(r"^(?P<unmatched>.*)$", views.not_found, name="not-found"),
]
