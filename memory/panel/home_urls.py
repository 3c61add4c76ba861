"""The site's root: the home page, named `home` without a namespace, as login and logout are."""

from django.urls import path

from .views.home import home

urlpatterns = [
    path("", home, name="home"),
]
