"""Input serializers share fields bound once per class; validation keeps nothing between requests."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework import serializers

from referee.api import CheckView, ScoreView
from referee.serializers import InputSerializer

GOOD = {"round": 2, "action": "open", "melds": ["7C 7D 4H", "9S 10S JS QS"]}
BAD = {"round": 0, "action": "fly", "melds": "7C"}


def test_fields_are_built_once_per_class_and_not_shared_between_classes():
    a, b = CheckView.InputSerializer(data=GOOD), CheckView.InputSerializer(data=BAD)
    assert a.fields is b.fields
    assert "action" in a.fields and "action" not in ScoreView.InputSerializer(data={}).fields
    prototype = a.fields["round"].parent
    assert prototype is not a and not hasattr(prototype, "initial_data")  # bound to one that holds no data


def test_a_refused_input_leaves_nothing_behind_for_the_next():
    bad = CheckView.InputSerializer(data=BAD)
    assert not bad.is_valid()
    assert set(bad.errors) == {"round", "action", "melds"}
    good = CheckView.InputSerializer(data=GOOD)
    assert good.is_valid(), good.errors
    assert good.validated_data["melds"] == GOOD["melds"] and good.validated_data["variants"] == []


def test_validating_from_many_threads_at_once_gives_each_its_own_answer():
    inputs = [({**GOOD, "round": r}, True) for r in range(1, 8)] + [({**BAD, "round": -r}, False) for r in range(1, 8)]

    def validate(item):
        data, expected = item
        serializer = CheckView.InputSerializer(data=data)
        valid = serializer.is_valid()
        assert valid is expected
        return serializer.validated_data["round"] if valid else serializer.errors["round"][0]

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(validate, inputs * 50))
    for (data, expected), result in zip(inputs * 50, results, strict=True):
        if expected:
            assert result == data["round"]
        else:
            assert "greater than or equal to 1" in result


@pytest.mark.parametrize(
    "declare",
    [
        lambda: {"name": serializers.CharField(source="other")},
        lambda: {"name": serializers.CharField(read_only=True)},
        lambda: {"name": serializers.CharField(), "validate_name": lambda self, value: value},
    ],
    ids=["renamed source", "read-only", "validate_<field>"],
)
def test_fields_the_shared_loop_cannot_validate_are_refused_when_built(declare):
    serializer_class = type("Odd", (InputSerializer,), declare())
    with pytest.raises(ImproperlyConfigured, match=r"Odd\.name"):
        serializer_class(data={"name": "x"}).is_valid()


def test_a_body_that_is_not_an_object_is_refused_as_drf_refuses_it():
    serializer = CheckView.InputSerializer(data=["7C"])
    assert not serializer.is_valid()
    assert serializer.errors == {"non_field_errors": ["Invalid data. Expected a dictionary, but got list."]}
