from django.urls import path

from . import api

urlpatterns = [
    path("api/games/", api.GamesView.as_view(), name="api-games"),
    path("api/games/import/", api.ImportView.as_view(), name="api-import"),
    path("api/games/<str:game_id>/", api.GameView.as_view(), name="api-game"),
    path("api/games/<str:game_id>/rounds/", api.RoundsView.as_view(), name="api-rounds"),
    path("api/games/<str:game_id>/rounds/<int:number>/", api.RoundView.as_view(), name="api-round"),
    path("api/games/<str:game_id>/standings/", api.StandingsView.as_view(), name="api-standings"),
    path("api/games/<str:game_id>/history/", api.HistoryView.as_view(), name="api-history"),
    path("api/games/<str:game_id>/undo/", api.UndoView.as_view(), name="api-undo"),
    path("api/games/<str:game_id>/export/", api.ExportView.as_view(), name="api-export"),
]
