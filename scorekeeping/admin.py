from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from scorekeeping.models import Change, Game, Player, Round, Score
from scorekeeping.services.history import game_delete


class PlayerInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Player
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["id", "ruleset", "variants", "version", "created_at", "updated_at"]
    list_filter = ["ruleset"]
    search_fields = ["id", "players__name"]
    readonly_fields = ["edit_token_hash", "version", "created_at", "updated_at"]
    inlines = [PlayerInline]

    # A game deleted takes its story lines along, and the stories after it are carried on again.
    def delete_model(self, request: HttpRequest, obj: Game) -> None:
        game_delete(game_ids=[obj.pk])

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        game_delete(game_ids=list(queryset.values_list("pk", flat=True)))


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "game", "seat"]
    search_fields = ["name", "game__id"]


class ScoreInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Score
    extra = 0


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["game", "number", "winner", "dealer", "wild_rank", "recorded_at"]
    list_filter = ["game__ruleset"]
    search_fields = ["game__id"]
    inlines = [ScoreInline]


@admin.register(Change)
class ChangeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["game", "action", "round_number", "version", "at"]
    list_filter = ["action"]
    search_fields = ["game__id"]
