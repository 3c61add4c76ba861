"""Top-level URL map: the panel, log-in, the panel's language, the bot API and Django admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.language import language_choose

urlpatterns = [
    path("admin/", admin.site.urls),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("language/", language_choose, name="language"),
    path("api/v1/", include("memory.bot.api.urls")),
    path("", include("memory.panel.urls")),
    path("", include("consolidation.urls")),
    path("", include("memory.panel.home_urls")),
]

handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"
