from django.urls import path

from intents import views

urlpatterns = [
    path("intents/classify/", views.ClassifyView.as_view(), name="intent-classify"),
]
