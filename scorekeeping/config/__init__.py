"""The project's configuration: settings (the one reader of the environment), URLs, ASGI and WSGI."""
