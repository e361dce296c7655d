import os

from hypothesis import HealthCheck, settings

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # ORM inside sync Playwright tests

# Hypothesis profiles: "dev" (the default) for a quick run at a desk; "ci" for CI, which
# derandomizes (a red CI run fails the same way again) and prints how to reproduce a failure.
# A test's own @settings(max_examples=...) still decides its number of examples.
settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci", deadline=None, derandomize=True, print_blob=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
