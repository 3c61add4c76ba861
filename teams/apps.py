from django.apps import AppConfig


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = "Teams and access"

    def ready(self):
        # Function import: signals connect once the app registry is ready (models are importable).
        from django.contrib.auth.signals import user_logged_in

        from .languages import carry_language_into_session

        user_logged_in.connect(carry_language_into_session, dispatch_uid="teams.panel_language")
