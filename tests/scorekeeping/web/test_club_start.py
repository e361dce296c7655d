"""A club made on a phone (issue 50): "Start a club" from home, a name and the first members pasted;
the organiser lands on the club's page holding the organiser's right, its link offered to keep.
The same service, limit and refusals as the API's door."""

import pytest
from django.test import Client

from scorekeeping.models import Club, Member

pytestmark = pytest.mark.django_db

NEW = "/clubs/new/"


def test_home_offers_to_start_a_club_and_the_page_asks_a_name_and_members(client):
    assert 'href="/clubs/new/"' in client.get("/").content.decode()
    html = client.get(NEW).content.decode()
    assert 'name="name"' in html and 'name="names"' in html and "Start the club" in html


def test_a_club_is_made_with_its_members_and_the_phone_is_its_organiser(client):
    answer = client.post(NEW, {"name": "De Joker", "names": "Ana\nBen\n\n  Cy  \nana\n"})
    club = Club.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/c/{club.pk}/?new=1#organiser-link"
    assert "no-store" in answer["Cache-Control"]
    assert sorted(Member.objects.values_list("name", flat=True)) == ["Ana", "Ben", "Cy"]  # "ana" is Ana
    page = client.get(answer["Location"])
    html = page.content.decode()
    assert "no-store" in page["Cache-Control"]  # it shows the organiser's link: kept by no cache
    assert '<details class="card-box" id="organiser-link" open>' in html
    token = html.split(f"/c/{club.pk}/join/")[1].split("/")[0]
    assert club.organiser_token_hash and len(token) > 20
    assert "<svg" in html.split('id="organiser-link"')[1]  # the code to open it on a second device
    assert "A new club night" in html  # the organiser's forms
    # Another phone opening the link becomes an organiser too; the club's page alone does not.
    stranger = Client()
    assert "organiser-link" not in stranger.get(f"/c/{club.pk}/").content.decode()
    stranger.get(f"/c/{club.pk}/join/{token}/")
    assert "organiser-link" in stranger.get(f"/c/{club.pk}/").content.decode()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"name": ""}, "A club&#x27;s name is text of 1 to 60 characters"),
        ({"name": "x" * 61}, "A club&#x27;s name is text of 1 to 60 characters"),
        ({"name": "De Joker", "names": "Ana\nB\u0007n"}, "names"),
        ({"name": "De Joker", "names": "Ana\n" + "x" * 31}, "names"),
    ],
)
def test_a_refused_club_names_why_and_makes_nothing(client, data, words):
    answer = client.post(NEW, data)
    assert answer.status_code == 422
    html = answer.content.decode()
    assert 'role="alert"' in html and (words in html or 'aria-invalid="true"' in html)
    assert not Club.objects.exists() and not Member.objects.exists()


def test_a_huge_paste_is_cut_before_it_is_read_and_refused_by_its_count(client):
    answer = client.post(NEW, {"name": "De Joker", "names": "Ana\n" * 100_000})
    html = answer.content.decode()
    assert answer.status_code == 422 and "names: a list of 1 to 500 names" in html
    assert len(html) < 60_000  # the paste is not sent back whole
    assert not Club.objects.exists()


def test_the_page_door_and_the_api_door_share_one_limit(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create": (2, 3600)}
    assert client.post(NEW, {"name": ""}).status_code == 422  # a refused club is not counted
    assert client.post(NEW, {"name": "One"}).status_code == 302
    assert client.post("/api/clubs/", {"name": "Two"}, content_type="application/json").status_code == 201
    refused = client.post(NEW, {"name": "Three"})
    assert refused.status_code == 429 and "Too many" in refused.content.decode()
    assert Club.objects.count() == 2


def test_the_apis_answer_links_the_clubs_page(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type="application/json").json()
    assert made["page"] == f"http://testserver/c/{made['id']}/"
    assert made["organiser_url"].startswith(f"http://testserver/c/{made['id']}/join/")
