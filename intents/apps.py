from django.apps import AppConfig


class IntentsConfig(AppConfig):
    name = "intents"
    verbose_name = "Intent classification"
