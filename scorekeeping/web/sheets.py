"""Importing an old paper score sheet from a page (the API's ``/api/games/import/sheet/`` on a
phone): the file and the rules; the faults said with their places; the new game opened with its
edit right on this phone."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from referee.engine import DEFAULT_RULESET
from referee.rulebook import SLUG_MAX, rulesets_offered
from scorekeeping.access import creating
from scorekeeping.errors import ScorekeepingError
from scorekeeping.services.sheets import MAX_BYTES, sheet_import
from scorekeeping.web import session as phone
from scorekeeping.webkit.htmx import HtmxHttpRequest


@require_http_methods(["GET", "HEAD", "POST"])
def import_sheet(request: HtmxHttpRequest) -> HttpResponse:
    chosen = (request.POST.get("ruleset") or request.GET.get("ruleset") or DEFAULT_RULESET)[:SLUG_MAX]
    context: dict[str, object] = {"rulesets": rulesets_offered(chosen), "chosen": chosen}
    if request.method != "POST":
        return render(request, "scorekeeping/import_sheet.html", context)
    upload = request.FILES.get("file")
    faults: list[str] = []
    if upload is None:
        faults = [_("Choose the sheet's file (XLSX or CSV).")]
    else:
        try:
            with creating(request):  # a refused import makes nothing and counts nothing
                game, token = sheet_import(
                    data=upload.read(MAX_BYTES + 1), ruleset=request.POST.get("ruleset", ""), variants=[]
                )
        except ScorekeepingError as exc:
            faults = [m for messages_ in exc.errors.values() for m in messages_] or [exc.message]
    if faults:
        return render(request, "scorekeeping/import_sheet.html", {**context, "faults": faults}, status=422)
    messages.success(request, _("The score sheet is a game now: every round is recorded."))
    response = HttpResponseRedirect(reverse("table", args=[game.pk]))
    phone.grant(request, response, game.pk, token)
    return response
