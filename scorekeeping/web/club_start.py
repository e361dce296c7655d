"""A club made on a phone (issue 50): "Start a club" from home, a name and the first members
pasted, and the organiser lands on the club's page holding the organiser's right, its link
offered to keep. The same service, limit and refusals as ``POST /api/clubs/``."""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_http_methods

from scorekeeping import ratelimit
from scorekeeping.access import creating
from scorekeeping.errors import InvalidInput, TooManyRequests
from scorekeeping.services.clubs import MAX_MEMBERS, club_start
from scorekeeping.web.guards import keep_organiser_token
from scorekeeping.webkit.htmx import HtmxHttpRequest

NAME_MAX = 200  # read no further: the service says what is too long
NAMES_MAX = 40 * (MAX_MEMBERS + 1)  # a pasted list, cut before it is read


@require_http_methods(["GET", "POST"])
def club_new(request: HtmxHttpRequest) -> HttpResponse:
    values = {"name": "", "names": ""}
    errors: dict[str, list[str]] = {}
    status = 200
    if request.method == "POST":
        values = {"name": request.POST.get("name", "")[:NAME_MAX], "names": request.POST.get("names", "")[:NAMES_MAX]}
        names = [line.strip() for line in values["names"].splitlines() if line.strip()]
        try:
            with creating(request):
                club, token = club_start(name=values["name"], names=names, creator=ratelimit.client_key(request))
        except InvalidInput as exc:
            errors, status = {}, 422
            for key, messages in exc.errors.items():  # "names.3": said under the list of names
                errors.setdefault(str(key).split(".")[0], []).extend(messages)
        except TooManyRequests as exc:
            errors, status = {"": [exc.message]}, 429
        else:
            response = HttpResponseRedirect(reverse("club", args=[club.pk]) + "?new=1#organiser-link")
            keep_organiser_token(response, club, token)
            patch_cache_control(response, no_store=True)
            return response
    context = {"values": values, "errors": errors, "max_members": MAX_MEMBERS}
    return render(request, "clubs/new.html", context, status=status)
