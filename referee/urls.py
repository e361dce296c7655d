from django.urls import path

from . import api, editor, views

# ``rulesets/`` (the list, and saving house rules) is routed by the site, which holds the rate limits.
api_urlpatterns = [
    path("referee/check/", api.CheckView.as_view(), name="api-referee-check"),
    path("referee/score/", api.ScoreView.as_view(), name="api-referee-score"),
    path("rulesets/<str:slug>/", api.RulesetDetailView.as_view(), name="api-ruleset"),
]

urlpatterns = [
    path("referee/", views.referee, name="referee"),
    path("rules/", views.rules_index, name="rules"),
    path("rules/new/", editor.house_new, name="house-new"),
    path("rules/new/preview/", editor.house_preview, name="house-preview"),
    path("rules/<str:slug>/", views.rules_detail, name="rules-detail"),
]
