from django.apps import AppConfig


class TeamsConfig(AppConfig):
    name = "teams"
    verbose_name = "Teams and access"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        # Function import: teams.languages imports the models, which exist only once the registry is ready.
        from .languages import carry_language_into_session

        user_logged_in.connect(carry_language_into_session, dispatch_uid="teams.panel_language")
