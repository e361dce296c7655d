"""Schemathesis against the OpenAPI document: no input may produce a 500 or break the schema.

Every check runs but ``positive_data_acceptance``: rules that the schema cannot express
(a known variant of that ruleset, melds or a hand, a round the ruleset plays, a player
of this game) answer a documented 400 for requests that are valid by the schema alone.
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import missing_required_header, positive_data_acceptance

from scorekeeping.config.wsgi import application
from scorekeeping.services import game_create

pytestmark = pytest.mark.once  # long fuzzing: once in CI, on PostgreSQL

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """As Django's test client does: the WSGI handler must not close the test's connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_api_conforms_to_its_schema(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


@pytest.fixture
def real_game(db):
    return game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana")


@schema.include(path_regex="^/api/games/\\{game_id\\}").parametrize()
@FUZZ
def test_game_writes_on_a_real_game_with_its_token(case, real_game):
    """The same, against a game that exists, with its edit token: the service sees the input."""
    game, token = real_game
    case.path_parameters = {**(case.path_parameters or {}), "game_id": game.pk}
    case.headers = {**(case.headers or {}), "X-Game-Token": token}
    # Every case here carries the token (that is the point), so the check that a request
    # without it is refused cannot apply: the test above makes it, without a token.
    case.call_and_validate(excluded_checks=[positive_data_acceptance, missing_required_header])
