"""The API's clubs: a club and its members, its nights (check-in, the draw of each sitting,
ending a table, finishing), the night's standings and a season's.

Reads need the club's id (the club link); every write needs the organiser's token in
``X-Club-Token``. The tables a draw makes are ordinary games: their edit links are shown to
the organiser, whose token they are derived from, and never count against the new-game limit.
"""

from __future__ import annotations

import datetime as dt

from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from referee.engine.clubs import SCORINGS
from scorekeeping import ratelimit
from scorekeeping.access import creating
from scorekeeping.api.club_representations import (
    ClubOutput,
    MemberOutput,
    MembersOutput,
    NewClubOutput,
    NightOutput,
    PresentOutput,
    SeasonOutput,
    SittingOutput,
    club_data,
    night_data,
)
from scorekeeping.api.permissions import ClubOrganiser, club_of, organiser_token_if_presented
from scorekeeping.api.stories import MEMBER_PROFILE, member_profile_data
from scorekeeping.api.writes import WRITE_ERRORS, RulesInput, secret, share_base_of
from scorekeeping.models import Club, Night
from scorekeeping.selectors.clubs import club_get, night_get, season
from scorekeeping.selectors.stories import club_stories
from scorekeeping.services.clubs import (
    MAX_MEMBERS,
    MAX_SITTINGS,
    club_create,
    member_rename,
    member_retire,
    members_add,
    night_create,
    night_present,
)
from scorekeeping.services.sittings import night_finish, sitting_draw, table_end, table_token_replace
from scorekeeping.webkit.errors import ERROR
from scorekeeping.webkit.serializers import FlagField, InputSerializer, TextField

ORGANISER = OpenApiParameter(
    "X-Club-Token", str, OpenApiParameter.HEADER, required=True, description="The club organiser's token."
)
NIGHT_ORGANISER = OpenApiParameter(
    "X-Club-Token",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="The club organiser's token: adds each table's edit link (403 if wrong).",
)


class NamesInput(InputSerializer):
    """Names: members to add, or who is here tonight."""

    names = serializers.ListField(child=TextField(max_length=200, trim_whitespace=False), max_length=MAX_MEMBERS)


# The answers as the schema describes them (the views, ``club_data`` and ``night_data`` build them).


def _organiser_night(view: APIView, night_id: int) -> tuple[Club, Night, str]:
    """The club (404) and the organiser's token (403), as ``ClubOrganiser`` let them through, then
    the night (404)."""
    club, token = club_of(view)
    return club, night_get(club=club, night_id=night_id), token


class ClubsView(APIView):
    """Start a club."""

    class InputSerializer(InputSerializer):
        class Meta:
            ref_name = "ClubInput"

        name = TextField(max_length=200, trim_whitespace=False)

    @extend_schema(request=InputSerializer, responses={201: NewClubOutput, 400: ERROR, 429: ERROR})
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        with creating(request):
            club, token = club_create(name=serializer.validated_data["name"], creator=ratelimit.client_key(request))
        base = share_base_of(request)
        url = base + reverse("api-club", args=[club.pk])
        body = {"id": club.pk, "name": club.name, "url": url, "page": base + reverse("club", args=[club.pk])}
        body["organiser_token"] = token
        body["organiser_url"] = base + reverse("club-join", args=[club.pk, token])
        return secret(Response(body, status=status.HTTP_201_CREATED))


class ClubView(APIView):
    """A club: its members and nights."""

    @extend_schema(responses={200: ClubOutput, 404: ERROR})
    def get(self, request: Request, club_id: str) -> Response:
        return Response(club_data(club_get(club_id=club_id)))


class MembersView(APIView):
    """Add members (a list of names; the new ones are added)."""

    permission_classes = [ClubOrganiser]

    InputSerializer = NamesInput

    @extend_schema(request=InputSerializer, parameters=[ORGANISER], responses={200: MembersOutput, **WRITE_ERRORS})
    def put(self, request: Request, club_id: str) -> Response:
        club, _token = club_of(self)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        members_add(club=club, names=serializer.validated_data["names"])
        return Response({"members": club_data(club)["members"]})


class MemberView(APIView):
    """A member's profile; rename a member (their history goes with them), or retire one (kept in
    the history)."""

    permission_classes = [ClubOrganiser]

    class InputSerializer(InputSerializer):
        """A member's new name."""

        class Meta:
            ref_name = "MemberRenameInput"

        name = TextField(max_length=200, trim_whitespace=False)

    @extend_schema(responses={200: MEMBER_PROFILE, 404: ERROR})
    def get(self, request: Request, club_id: str, name: str) -> Response:
        """A member's profile: games, wins, totals, rounds gone out, streak, head to head..., and
        their rating on the club's ladder with its history."""
        club = club_get(club_id=club_id)
        stories = club_stories(club)
        found = stories.profile(name)
        return Response(member_profile_data(found, stories.ladder(history_of=found.name), club.ladder_shown))

    @extend_schema(request=InputSerializer, parameters=[ORGANISER], responses={200: MemberOutput, **WRITE_ERRORS})
    def patch(self, request: Request, club_id: str, name: str) -> Response:
        club, _token = club_of(self)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        member = member_rename(club=club, name=name, new_name=serializer.validated_data["name"])
        return Response({"name": member.name, "active": member.active})

    @extend_schema(parameters=[ORGANISER], responses={204: None, **WRITE_ERRORS})
    def delete(self, request: Request, club_id: str, name: str) -> Response:
        club, _token = club_of(self)
        member_retire(club=club, name=name)
        return Response(status=status.HTTP_204_NO_CONTENT)


class NightsView(APIView):
    """Start a club night."""

    permission_classes = [ClubOrganiser]

    class InputSerializer(RulesInput):
        """A club night: its rules, sittings, the tables' preferred size, the scoring and the date."""

        class Meta:
            ref_name = "NightInput"

        sittings = serializers.IntegerField(min_value=1, max_value=MAX_SITTINGS)
        table_size = serializers.IntegerField(min_value=2, max_value=8, default=4)
        scoring = serializers.ChoiceField(choices=SCORINGS, default="percentage")
        date = serializers.DateField(required=False, help_text="Today if absent.")

        def validate_date(self, value: dt.date) -> dt.date:
            if not dt.date(2000, 1, 1) <= value <= dt.date(2100, 12, 31):
                raise serializers.ValidationError("a date from 2000 to 2100")
            return value

    @extend_schema(request=InputSerializer, parameters=[ORGANISER], responses={201: NightOutput, **WRITE_ERRORS})
    def post(self, request: Request, club_id: str) -> Response:
        club, token = club_of(self)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        night = night_create(club=club, **serializer.validated_data)
        body = night_data(request, night_get(club=club, night_id=night.pk), token)
        return secret(Response(body, status=status.HTTP_201_CREATED))


class NightView(APIView):
    """A night: sittings, tables, standings (the edit links with the organiser's token)."""

    @extend_schema(parameters=[NIGHT_ORGANISER], responses={200: NightOutput, 403: ERROR, 404: ERROR, 429: ERROR})
    def get(self, request: Request, club_id: str, night_id: int) -> Response:
        club = club_get(club_id=club_id)
        night = night_get(club=club, night_id=night_id)
        token = organiser_token_if_presented(request, club)
        return secret(Response(night_data(request, night, token)))


class PresentView(APIView):
    """Who is here (names that are no member become members)."""

    permission_classes = [ClubOrganiser]

    InputSerializer = NamesInput

    @extend_schema(request=InputSerializer, parameters=[ORGANISER], responses={200: PresentOutput, **WRITE_ERRORS})
    def put(self, request: Request, club_id: str, night_id: int) -> Response:
        _club, night, _token = _organiser_night(self, night_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        members = night_present(night=night, names=serializer.validated_data["names"])
        return Response({"present": sorted(m.name for m in members)})


class SittingsView(APIView):
    """Draw the next sitting's tables."""

    permission_classes = [ClubOrganiser]

    class InputSerializer(InputSerializer):
        class Meta:
            ref_name = "SittingInput"

        force = FlagField(default=False, help_text="Draw although tables are still playing.")

    @extend_schema(request=InputSerializer, parameters=[ORGANISER], responses={201: SittingOutput, **WRITE_ERRORS})
    def post(self, request: Request, club_id: str, night_id: int) -> Response:
        club, night, token = _organiser_night(self, night_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        sitting = sitting_draw(night=night, organiser_token=token, force=serializer.validated_data["force"])
        body = night_data(request, night_get(club=club, night_id=night.pk), token)
        drawn = next(s for s in body["sittings"] if s["number"] == sitting.number)
        return secret(Response(drawn, status=status.HTTP_201_CREATED))


class TableEndView(APIView):
    """End an unfinished table: its standings count as they stand."""

    permission_classes = [ClubOrganiser]

    @extend_schema(request=None, parameters=[ORGANISER], responses={200: NightOutput, **WRITE_ERRORS})
    def post(self, request: Request, club_id: str, night_id: int, sitting: int, table: int) -> Response:
        club, night, token = _organiser_night(self, night_id)
        table_end(night=night, sitting=sitting, table=table)
        return secret(Response(night_data(request, night_get(club=club, night_id=night_id), token)))


class TableTokenView(APIView):
    """A club table's new edit link (only the organiser's token mints one): the old link and every
    phone's right made from it stop working. Answers the night, with every table's edit link."""

    permission_classes = [ClubOrganiser]

    @extend_schema(request=None, parameters=[ORGANISER], responses={200: NightOutput, **WRITE_ERRORS})
    def post(self, request: Request, club_id: str, night_id: int, sitting: int, table: int) -> Response:
        club, night, token = _organiser_night(self, night_id)
        table_token_replace(night=night, sitting=sitting, table=table, organiser_token=token)
        return secret(Response(night_data(request, night_get(club=club, night_id=night_id), token)))


class NightFinishView(APIView):
    """Finish the night."""

    permission_classes = [ClubOrganiser]

    @extend_schema(request=None, parameters=[ORGANISER], responses={200: NightOutput, **WRITE_ERRORS})
    def post(self, request: Request, club_id: str, night_id: int) -> Response:
        club, night, token = _organiser_night(self, night_id)
        night_finish(night=night)
        return secret(Response(night_data(request, night_get(club=club, night_id=night_id), token)))


class SeasonView(APIView):
    """The club's standings over a date range: each player's best nights."""

    class QuerySerializer(InputSerializer):
        class Meta:
            ref_name = "SeasonQuery"

        start = serializers.DateField(required=False, help_text="``from`` in the query: the first night's date.")
        to = serializers.DateField(required=False)
        best = serializers.IntegerField(required=False, min_value=1, max_value=366)
        minimum = serializers.IntegerField(required=False, min_value=1, max_value=366, default=1)

    @extend_schema(parameters=[QuerySerializer], responses={200: SeasonOutput, 400: ERROR, 404: ERROR})
    def get(self, request: Request, club_id: str) -> Response:
        club = club_get(club_id=club_id)
        query = {("start" if k == "from" else k): v for k, v in request.query_params.items()}
        serializer = self.QuerySerializer(data=query)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        rows = season(
            club=club,
            start=data.get("start"),
            end=data.get("to"),
            best=data.get("best"),
            minimum=data["minimum"],
        )
        standings = [
            {"player": r.player, "nights": r.nights, "counted": r.counted, "percent": r.percent, "place": r.place}
            | {"qualified": r.qualified}
            for r in rows
        ]
        return Response({"standings": standings})
