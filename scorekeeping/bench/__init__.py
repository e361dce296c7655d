"""The project's benchmarks (``manage.py bench``), kept out of the apps: the engine and the check
endpoint (``referee``), a live table (``live``), a change against another commit (``against``) and
crowds (``crowds``). They start the real server, as the start command does."""
