from django.urls import path, re_path

from . import views

app_name = "api"

urlpatterns = [
    path("servers/<str:guild_id>", views.server_detail, name="server-detail"),
    # Anything else under /api/v1/ answers a JSON 404, never the HTML error page.
    re_path(r"^(?P<unmatched>.*)$", views.not_found, name="not-found"),
]
