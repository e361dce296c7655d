"""How the app is served: gunicorn and its uvicorn worker, TLS on the LAN, the addresses it answers
on, health and the request guards."""
