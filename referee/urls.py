from django.urls import path

from . import api, views

# ``rulesets/`` (the list, and saving house rules) and the house-rules editor (``rules/new/``) are routed
# by the site, which holds the rate limits: it includes its routes before these.
api_urlpatterns = [
    path("referee/check/", api.CheckView.as_view(), name="api-referee-check"),
    path("referee/score/", api.ScoreView.as_view(), name="api-referee-score"),
    path("rulesets/<str:slug>/", api.RulesetDetailView.as_view(), name="api-ruleset"),
]

urlpatterns = [
    path("referee/", views.referee, name="referee"),
    path("rules/", views.rules_index, name="rules"),
    path("rules/<str:slug>/", views.rules_detail, name="rules-detail"),
]
