import os

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # ORM inside sync Playwright tests
