"""The API's clubs as answered: the shapes of its answers (for the schema) and the data they are
made from (a club, a night with its sittings, tables and standings), for ``api.clubs``."""

from __future__ import annotations

from typing import Any

from django.db.models import prefetch_related_objects
from rest_framework import serializers
from rest_framework.request import Request

from referee.engine.clubs import SCORINGS
from scorekeeping.api.representations import Output
from scorekeeping.api.writes import share_base_of
from scorekeeping.links import edit_path, view_path
from scorekeeping.models import Club, Night
from scorekeeping.selectors.clubs import night_results, night_tables
from scorekeeping.services.sittings import table_token


class NewClubOutput(Output):
    """A new club: its link, and the organiser's token and link (shown once)."""

    class Meta:
        ref_name = "NewClub"

    id = serializers.CharField()
    name = serializers.CharField()
    url = serializers.URLField(help_text="The club in the API: the club link.")
    page = serializers.URLField(help_text="The club's page, for every member's phone.")
    organiser_token = serializers.CharField(help_text="The secret every write needs, in X-Club-Token.")
    organiser_url = serializers.URLField(
        help_text="The organiser link (carries the token): opened on a phone, it keeps the organiser's right there "
        "and goes to the club's page."
    )


class MemberOutput(Output):
    class Meta:
        ref_name = "Member"

    name = serializers.CharField()
    active = serializers.BooleanField(help_text="False once retired (kept in the history).")


class NightSummaryOutput(Output):
    class Meta:
        ref_name = "NightSummary"

    id = serializers.IntegerField()
    date = serializers.DateField()
    status = serializers.ChoiceField(choices=Night.Status.values)


class ClubOutput(Output):
    """A club: its members and nights."""

    class Meta:
        ref_name = "Club"

    id = serializers.CharField()
    name = serializers.CharField()
    members = MemberOutput(many=True)
    nights = NightSummaryOutput(many=True)


class MembersOutput(Output):
    class Meta:
        ref_name = "Members"

    members = MemberOutput(many=True)


class TableGameOutput(Output):
    """A table's game: an ordinary game of the games API."""

    class Meta:
        ref_name = "TableGame"

    id = serializers.CharField()
    url = serializers.URLField(help_text="The game's table page: the view link.")
    edit_url = serializers.URLField(
        required=False, help_text="The edit link (carries the table's token); only with the organiser's token."
    )


class NightTableOutput(Output):
    class Meta:
        ref_name = "NightTable"

    number = serializers.IntegerField()
    game = TableGameOutput()
    players = serializers.ListField(child=serializers.CharField(), help_text="In seat order.")
    rounds_played = serializers.IntegerField()
    finished = serializers.BooleanField(help_text="The game is over, or the organiser ended it.")
    ended = serializers.BooleanField(help_text="The organiser ended it.")


class SittingOutput(Output):
    """A sitting: its tables, who sat out, and the pairs who met again."""

    class Meta:
        ref_name = "Sitting"

    number = serializers.IntegerField()
    tables = NightTableOutput(many=True)
    sitting_out = serializers.ListField(child=serializers.CharField())
    repeated_pairs = serializers.IntegerField(help_text="Pairs at one table who already shared a table tonight.")


class NightStandingOutput(Output):
    class Meta:
        ref_name = "NightStanding"

    player = serializers.CharField()
    percent = serializers.FloatField(help_text="The average percentage over the sittings played.")
    points = serializers.FloatField(help_text="The sum of rank points.")
    sittings = serializers.IntegerField()
    place = serializers.IntegerField()
    tiebreak = serializers.FloatField(help_text="The average of the table's average total less one's own.")


class NightOutput(Output):
    """A night: its settings, who is here, every sitting's tables, and the standings so far."""

    class Meta:
        ref_name = "Night"

    id = serializers.IntegerField()
    date = serializers.DateField()
    status = serializers.ChoiceField(choices=Night.Status.values)
    ruleset = serializers.CharField()
    variants = serializers.ListField(child=serializers.CharField())
    table_size = serializers.IntegerField()
    scoring = serializers.ChoiceField(choices=SCORINGS)
    planned_sittings = serializers.IntegerField()
    present = serializers.ListField(child=serializers.CharField())
    sittings = SittingOutput(many=True)
    standings = NightStandingOutput(many=True)


class PresentOutput(Output):
    class Meta:
        ref_name = "Present"

    present = serializers.ListField(child=serializers.CharField())


class SeasonStandingOutput(Output):
    class Meta:
        ref_name = "SeasonStanding"

    player = serializers.CharField()
    nights = serializers.IntegerField()
    counted = serializers.IntegerField(help_text="The best nights counted.")
    percent = serializers.FloatField()
    place = serializers.IntegerField()
    qualified = serializers.BooleanField(help_text="Played the minimum of nights; ranked after those who did if not.")


class SeasonOutput(Output):
    class Meta:
        ref_name = "Season"

    standings = SeasonStandingOutput(many=True)


def club_data(club: Club) -> dict[str, Any]:
    return {
        "id": club.pk,
        "name": club.name,
        "members": [{"name": m.name, "active": m.active} for m in club.members.all()],
        "nights": [{"id": n.pk, "date": n.date.isoformat(), "status": n.status} for n in club.nights.all()],
    }


def night_data(request: Request, night: Night, token: str | None = None) -> dict[str, Any]:
    """A night: its settings, who is here, every sitting's tables (with their edit links for the
    organiser), and the standings so far."""
    base = share_base_of(request)
    tables = night_tables(night)
    sittings = []
    prefetch_related_objects(list(night.sittings_drawn.all()), "sitting_out")
    for sitting in night.sittings_drawn.all():
        drawn = []
        for state in tables.get(sitting.number, []):
            game: dict[str, Any] = {"id": state.table.game_id, "url": base + view_path(state.table.game_id)}
            if token:
                game["edit_url"] = base + edit_path(state.table.game_id, table_token(token, state.table))
            drawn.append(
                {
                    "number": state.table.number,
                    "game": game,
                    "players": [m.name for m in state.members],
                    "rounds_played": state.played,
                    "finished": state.finished,
                    "ended": state.ended,
                }
            )
        sittings.append(
            {
                "number": sitting.number,
                "tables": drawn,
                "sitting_out": sorted(m.name for m in sitting.sitting_out.all()),
                "repeated_pairs": sitting.repeated_pairs,
            }
        )
    standings = [
        {
            "player": r.player,
            "percent": r.percent,
            "points": r.points,
            "sittings": r.sittings,
            "place": r.place,
            "tiebreak": r.tiebreak,
        }
        for r in night_results(night, tables)
    ]
    return {
        "id": night.pk,
        "date": night.date.isoformat(),
        "status": night.status,
        "ruleset": night.ruleset,
        "variants": night.variants,
        "table_size": night.table_size,
        "scoring": night.scoring,
        "planned_sittings": night.sittings,
        "present": sorted(m.name for m in night.present.all()),
        "sittings": sittings,
        "standings": standings,
    }
