from django.urls import path, re_path

from . import views

app_name = "api"

urlpatterns = [
    path("schema.json", views.schema, name="schema"),
    path("docs", views.docs, name="docs"),
    path("servers/<str:guild_id>", views.server_detail, name="server-detail"),
    path("servers/<str:guild_id>/context", views.context, name="context"),
    path("servers/<str:guild_id>/reply", views.reply, name="reply"),
    path("exchanges/<uuid:exchange>", views.exchange_detail, name="exchange"),
    path("exchanges/<uuid:exchange>/search", views.search, name="search"),
    path("exchanges/<uuid:exchange>/actions", views.actions, name="actions"),
    # Anything else under /api/v1/ answers a JSON 404, never the HTML error page.
    re_path(r"^(?P<unmatched>.*)$", views.not_found, name="not-found"),
]
