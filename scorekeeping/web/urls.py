from django.urls import path

from scorekeeping.converters import GameIdConverter  # noqa: F401  (importing it registers <game:game_id>)
from scorekeeping.web import archive, clubs, games, pwa, rounds, table

urlpatterns = [
    path("", games.home, name="home"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("offline/", pwa.offline, name="offline"),
    path("ca.crt", pwa.certificate_authority, name="certificate-authority"),
    path("trust/", pwa.trust, name="trust"),
    path("games/new/", games.game_new, name="game-new"),
    path("games/", archive.games, name="games"),
    path("games/import/", archive.import_game, name="game-import"),
    path("players/", archive.players, name="players"),
    path("g/<game:game_id>/export.json", archive.export_json, name="export-json"),
    path("g/<game:game_id>/export.csv", archive.export_csv, name="export-csv"),
    path("g/<game:game_id>/sheet/", archive.sheet, name="sheet"),
    path("g/<game:game_id>/", table.table, name="table"),
    path("g/<game:game_id>/rounds/", rounds.round_new, name="round-new"),
    path("g/<game:game_id>/rounds/<int:number>/", rounds.round_edit, name="round-edit"),
    path("g/<game:game_id>/undo/", rounds.undo, name="undo"),
    path("g/<game:game_id>/again/", games.play_again, name="play-again"),
    path("g/<game:game_id>/seat/", rounds.seat, name="seat"),
    path("g/<game:game_id>/redo/", rounds.redo, name="redo"),
    path("g/<game:game_id>/live/", table.live, name="live"),
    path("g/<game:game_id>/events/", table.events, name="events"),
    path("g/<game:game_id>/edit-qr.svg", games.edit_qr, name="edit-qr"),
    path("g/<game:game_id>/edit-link/", games.edit_link_replace, name="edit-link-replace"),
    path("g/<game:game_id>/join/<str:token>/", games.join, name="join"),
    path("c/<club:club_id>/", clubs.club, name="club"),
    path("c/<club:club_id>/join/<str:token>/", clubs.club_join, name="club-join"),
    path("c/<club:club_id>/nights/<int:night_id>/room/", clubs.room, name="club-room"),
    path("c/<club:club_id>/nights/new/", clubs.night_new, name="club-night-new"),
    path("c/<club:club_id>/nights/<int:night_id>/present/", clubs.present, name="club-present"),
    path("c/<club:club_id>/nights/<int:night_id>/draw/", clubs.draw, name="club-draw"),
    path("c/<club:club_id>/nights/<int:night_id>/finish/", clubs.finish, name="club-finish"),
]
