"""Live tables by push: a game's change stream (server-sent events), and how a change reaches it.
``publish`` is what a write calls; ``stream`` is the endpoint the phones hold open.

``GET /g/<id>/events/`` answers ``text/event-stream``. Each change of the game (a round
recorded, corrected or undone; every write moves the game's version, ``versioning.log_change``)
and each step of a round in progress (a hand sent in, ``services.drafts``) moves the game's
``live_version``, and is an event whose ``id:`` is that number. A client that reconnects sends
``Last-Event-ID`` (the page's first connection sends ``?v=<version it shows>``); if the game
moved on meanwhile it gets the event at once. A comment goes out every ``LIVE_HEARTBEAT``
seconds (20) so that proxies keep the stream open; when the server shuts down every stream
ends cleanly and the browsers reconnect (to another process or machine).

How a change reaches the streams, with nothing kept in one process that another needs:

- PostgreSQL: the write's transaction sends ``NOTIFY scorekeeping_games, '<id> <version>'``
  (delivered at commit, to every listener on every machine). Each server process holds ONE
  listening connection and fans a notification out to its own streams in memory. After a
  (re)connection of that listener the versions of the games it watches are read once, so a
  notification missed while it was away is not lost; one that comes while a game's first
  stream reads the game's version is kept for the channel that read makes.
- SQLite (one machine): each process reads the versions of the games that have open streams
  in one query per tick (``LIVE_TICK``, 0.2 s), whatever the number of phones.

The stream is an ASGI endpoint beside Django's handler (``scorekeeping.config.asgi`` routes the one
path here, as Channels' router would): it needs no session, CSRF, template or cookie, and
Django's synchronous middleware (the site's own) would hold a thread for every open stream.
Under WSGI (``runserver``, the test live server) Django answers the address 204, which tells
EventSource not to retry: the page then polls every 5 s.
"""
