"""How the app is served: gunicorn and its uvicorn worker, TLS on the LAN, health and the request guards."""
