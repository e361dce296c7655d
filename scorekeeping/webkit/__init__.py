"""The web kit: what the referee's and the score-keeper's web layers both use.

htmx requests and refusals (``htmx``), numbers from form fields (``formdata``), the base of every
API input serializer and its strict fields (``serializers``), and the API's one error shape
(``errors``). It imports neither app: the import contracts in pyproject.toml keep it below both,
so either may lean on it. (It lives inside ``scorekeeping`` because the repository's top level is
fixed; nothing in it knows the site.)
"""
