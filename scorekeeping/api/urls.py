from django.urls import path

from scorekeeping.api import views as api
from scorekeeping.converters import GameIdConverter  # noqa: F401  (importing it registers <game:game_id>)

urlpatterns = [
    path("api/games/", api.GamesView.as_view(), name="api-games"),
    path("api/games/import/", api.ImportView.as_view(), name="api-import"),
    path("api/games/<game:game_id>/", api.GameView.as_view(), name="api-game"),
    path("api/games/<game:game_id>/rounds/", api.RoundsView.as_view(), name="api-rounds"),
    path("api/games/<game:game_id>/rounds/<int:number>/", api.RoundView.as_view(), name="api-round"),
    path("api/games/<game:game_id>/standings/", api.StandingsView.as_view(), name="api-standings"),
    path("api/games/<game:game_id>/history/", api.HistoryView.as_view(), name="api-history"),
    path("api/games/<game:game_id>/undo/", api.UndoView.as_view(), name="api-undo"),
    path("api/games/<game:game_id>/token/", api.EditTokenView.as_view(), name="api-token"),
    path("api/games/<game:game_id>/export/", api.ExportView.as_view(), name="api-export"),
    path("api/games/<game:game_id>/draft/", api.DraftView.as_view(), name="api-draft"),
    path("api/games/<game:game_id>/draft/record/", api.DraftRecordView.as_view(), name="api-draft-record"),
    path("api/games/<game:game_id>/draft/hands/<path:name>/", api.DraftHandView.as_view(), name="api-draft-hand"),
]
