from django.urls import path

from scorekeeping.api import games, rounds
from scorekeeping.converters import GameIdConverter  # noqa: F401  (importing it registers <game:game_id>)

urlpatterns = [
    path("api/games/", games.GamesView.as_view(), name="api-games"),
    path("api/games/import/", games.ImportView.as_view(), name="api-import"),
    path("api/games/<game:game_id>/", games.GameView.as_view(), name="api-game"),
    path("api/games/<game:game_id>/rounds/", rounds.RoundsView.as_view(), name="api-rounds"),
    path("api/games/<game:game_id>/rounds/<int:number>/", rounds.RoundView.as_view(), name="api-round"),
    path("api/games/<game:game_id>/standings/", games.StandingsView.as_view(), name="api-standings"),
    path("api/games/<game:game_id>/history/", games.HistoryView.as_view(), name="api-history"),
    path("api/games/<game:game_id>/undo/", games.UndoView.as_view(), name="api-undo"),
    path("api/games/<game:game_id>/token/", games.EditTokenView.as_view(), name="api-token"),
    path("api/games/<game:game_id>/export/", games.ExportView.as_view(), name="api-export"),
    path("api/games/<game:game_id>/draft/", rounds.DraftView.as_view(), name="api-draft"),
    path("api/games/<game:game_id>/draft/record/", rounds.DraftRecordView.as_view(), name="api-draft-record"),
    path("api/games/<game:game_id>/draft/hands/<path:name>/", rounds.DraftHandView.as_view(), name="api-draft-hand"),
]
