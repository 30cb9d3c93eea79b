from django.apps import AppConfig


class SkillSessionsConfig(AppConfig):
    name = "skill_sessions"
    verbose_name = "Skill-creation sessions"
