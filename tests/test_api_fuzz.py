"""Schemathesis against the OpenAPI document: no input may produce a 500 or break the schema.

Every check runs but ``positive_data_acceptance``: rules that the schema cannot express
(a known variant of that ruleset, melds or a hand, a round the ruleset plays) answer a
documented 400 for requests that are valid by the schema alone.
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance

from scorekeeping.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case):
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
