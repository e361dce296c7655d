from django.urls import path

from scorekeeping.api import clubs, games, rounds, rulesets, stories
from scorekeeping.converters import GameIdConverter  # noqa: F401  (importing it registers <game:game_id>)

urlpatterns = [
    path("api/rulesets/", rulesets.RulesetsView.as_view(), name="api-rulesets"),
    path("api/games/", games.GamesView.as_view(), name="api-games"),
    path("api/games/import/", games.ImportView.as_view(), name="api-import"),
    path("api/games/import/sheet/", stories.SheetImportView.as_view(), name="api-import-sheet"),
    path("api/games/<game:game_id>/", games.GameView.as_view(), name="api-game"),
    path("api/games/<game:game_id>/rounds/", rounds.RoundsView.as_view(), name="api-rounds"),
    path("api/games/<game:game_id>/rounds/<int:number>/", rounds.RoundView.as_view(), name="api-round"),
    path("api/games/<game:game_id>/recap/", stories.RecapView.as_view(), name="api-recap"),
    path("api/games/<game:game_id>/standings/", games.StandingsView.as_view(), name="api-standings"),
    path("api/games/<game:game_id>/history/", games.HistoryView.as_view(), name="api-history"),
    path("api/games/<game:game_id>/undo/", games.UndoView.as_view(), name="api-undo"),
    path("api/games/<game:game_id>/token/", games.EditTokenView.as_view(), name="api-token"),
    path("api/games/<game:game_id>/export/", games.ExportView.as_view(), name="api-export"),
    path("api/games/<game:game_id>/draft/", rounds.DraftView.as_view(), name="api-draft"),
    path("api/games/<game:game_id>/draft/record/", rounds.DraftRecordView.as_view(), name="api-draft-record"),
    path("api/games/<game:game_id>/draft/hands/<path:name>/", rounds.DraftHandView.as_view(), name="api-draft-hand"),
    path("api/clubs/", clubs.ClubsView.as_view(), name="api-clubs"),
    path("api/clubs/<club:club_id>/", clubs.ClubView.as_view(), name="api-club"),
    path("api/clubs/<club:club_id>/members/", clubs.MembersView.as_view(), name="api-club-members"),
    path("api/clubs/<club:club_id>/members/<path:name>/", clubs.MemberView.as_view(), name="api-club-member"),
    path("api/clubs/<club:club_id>/records/", stories.RecordsView.as_view(), name="api-club-records"),
    path("api/clubs/<club:club_id>/ladder/", stories.LadderView.as_view(), name="api-club-ladder"),
    path("api/ladder/", stories.ServerLadderView.as_view(), name="api-ladder"),
    path("api/clubs/<club:club_id>/season/", clubs.SeasonView.as_view(), name="api-club-season"),
    path("api/clubs/<club:club_id>/nights/", clubs.NightsView.as_view(), name="api-club-nights"),
    path("api/clubs/<club:club_id>/nights/<int:night_id>/", clubs.NightView.as_view(), name="api-club-night"),
    path("api/clubs/<club:club_id>/nights/<int:night_id>/present/", clubs.PresentView.as_view(), name="api-present"),
    path("api/clubs/<club:club_id>/nights/<int:night_id>/sittings/", clubs.SittingsView.as_view(), name="api-sittings"),
    path(
        "api/clubs/<club:club_id>/nights/<int:night_id>/sittings/<int:sitting>/tables/<int:table>/end/",
        clubs.TableEndView.as_view(),
        name="api-table-end",
    ),
    path(
        "api/clubs/<club:club_id>/nights/<int:night_id>/sittings/<int:sitting>/tables/<int:table>/token/",
        clubs.TableTokenView.as_view(),
        name="api-table-token",
    ),
    path("api/clubs/<club:club_id>/nights/<int:night_id>/finish/", clubs.NightFinishView.as_view(), name="api-finish"),
]
