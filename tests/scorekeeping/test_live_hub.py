"""A change costs a process one wake-up per game, however many streams watch it: no timer and no
task is made per stream per change, and a game written faster than ``LIVE_COALESCE`` wakes its
streams no more often than that (``scorekeeping.live``)."""

import asyncio
import threading

import pytest

from scorekeeping.live import hub, stream
from scorekeeping.services import game_create


def run(scenario):
    """Run a scenario on an event loop of its own thread (a browser test may hold this thread's)."""
    failure = []

    def target():
        try:
            asyncio.run(scenario)
        except BaseException as exc:  # reported in the test's thread
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(30)
    if failure:
        raise failure[0]


async def _streams(center, channel, count):
    loop = asyncio.get_running_loop()
    sent: list[bytes] = []
    hang = loop.create_future()

    async def receive():
        await hang
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message["body"])

    followers = [
        loop.create_task(stream._follow(center, channel, channel.version, receive, send)) for _ in range(count)
    ]
    await asyncio.sleep(0.01)  # every stream waits

    async def leave():
        if not hang.done():  # streams that ended by themselves cancelled their wait for the client
            hang.set_result(None)
        await asyncio.gather(*followers)
        assert all(f.done() and not f.cancelled() for f in followers)

    return sent, leave


def test_a_change_reaches_a_thousand_streams_with_no_timer_or_task_made_per_stream(settings):
    settings.LIVE_COALESCE = 0

    async def scenario():
        loop = asyncio.get_running_loop()
        channel = hub.Channel(version=1)
        sent, leave = await _streams(hub.Hub(), channel, 1000)
        timers, tasks = len(loop._scheduled), len(asyncio.all_tasks())
        for version in (2, 3, 4):
            channel.publish(version)
            await asyncio.sleep(0.01)
            assert len(loop._scheduled) == timers and len(asyncio.all_tasks()) == tasks
        assert timers <= 1  # asyncio.sleep's own; none per stream
        assert [sent.count(stream.event(v)) for v in (2, 3, 4)] == [1000, 1000, 1000]
        await leave()

    run(scenario())


def test_changes_closer_than_the_window_are_told_as_one(settings):
    settings.LIVE_COALESCE = 0.2

    async def scenario():
        channel = hub.Channel(version=1)
        sent, leave = await _streams(hub.Hub(), channel, 100)
        channel.publish(2)  # a quiet game's change goes out at once
        await asyncio.sleep(0.01)
        assert sent.count(stream.event(2)) == 100
        for version in (3, 4, 5):  # three more within the window: one event, the newest, at its end
            channel.publish(version)
            await asyncio.sleep(0.01)
        assert len(sent) == 100
        await asyncio.sleep(0.25)
        assert sent.count(stream.event(5)) == 100 and len(sent) == 200
        await leave()

    run(scenario())


def test_the_heartbeat_is_one_timer_for_every_stream(settings):
    settings.LIVE_HEARTBEAT = 0.05

    async def scenario():
        loop = asyncio.get_running_loop()
        center = hub.Hub()
        channel = hub.Channel(version=1)
        center.channels["g"] = channel
        beats = loop.create_task(center._beat())
        sent, leave = await _streams(center, channel, 200)
        await asyncio.sleep(0.12)
        assert 200 <= sent.count(b": keep-alive\n\n") <= 600 and len(loop._scheduled) <= 2
        center.closing.set()  # the server stops: every stream says when to come back, and ends
        await asyncio.sleep(0.01)
        assert sent.count(b": closing\nretry: 500\n\n") == 200
        await beats
        await leave()

    run(scenario())


def test_a_stream_whose_client_leaves_leaves_the_others_of_its_game_untouched(settings):
    settings.LIVE_COALESCE = 0

    async def scenario():
        loop = asyncio.get_running_loop()
        channel = hub.Channel(version=1)
        center = hub.Hub()
        sent: list[bytes] = []
        leaving, staying = loop.create_future(), loop.create_future()

        def client(gone):
            async def receive():
                await gone
                return {"type": "http.disconnect"}

            return receive

        async def send(message):
            sent.append(message["body"])

        left = loop.create_task(stream._follow(center, channel, 1, client(leaving), send))
        others = [loop.create_task(stream._follow(center, channel, 1, client(staying), send)) for _ in range(5)]
        await asyncio.sleep(0.01)
        leaving.set_result(None)  # one phone closes its page
        await left
        await asyncio.sleep(0.01)
        assert not any(t.done() for t in others) and not channel.changed.cancelled()
        channel.publish(2)
        await asyncio.sleep(0.01)
        assert sent.count(stream.event(2)) == 5
        staying.set_result(None)
        await asyncio.gather(*others)

    run(scenario())


@pytest.mark.django_db(transaction=True)
def test_a_change_told_while_a_streams_game_is_being_read_reaches_that_stream():
    """The first stream of a game in a process reads the game's version (in a thread); a change
    committed after that read is told (PostgreSQL's NOTIFY) before the game's channel exists. It
    must not be dropped: the phone would show the game one change behind until the next one."""
    game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben"], first_dealer="Ana")
    read = game.live_version

    async def scenario():
        center = hub.Hub()  # not started: this test plays the listener's part itself
        joining = asyncio.ensure_future(center.join(game.pk, "127.0.0.1"))
        while game.pk not in center.loading:  # the version is being read in its thread
            await asyncio.sleep(0)
        center.publish(game.pk, read + 1)  # a round recorded meanwhile, as the listener hears it
        channel = await joining
        assert channel.version == read + 1
        center.leave(game.pk, "127.0.0.1")
        assert not center.opening and not center.loading and not center.early  # nothing kept after

    run(scenario())


@pytest.mark.django_db(transaction=True)
def test_a_change_told_after_every_stream_waiting_on_the_read_left_reaches_the_next_one():
    """The read is shared: a stream that comes while it runs waits on it too. If every stream
    that waited left (the phone went away) before it ended, a change told meanwhile must still
    count for the next stream, which takes the same read."""
    game, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben"], first_dealer="Ana")
    read = game.live_version

    async def scenario():
        staged = 0
        for _attempt in range(20):  # the read must still be running once the first stream has left
            center = hub.Hub()
            first = asyncio.ensure_future(center.join(game.pk, "127.0.0.1"))
            while game.pk not in center.loading:
                await asyncio.sleep(0)
            first.cancel()
            await asyncio.gather(first, return_exceptions=True)
            if game.pk not in center.loading:
                continue  # the read ended as the stream left: stage it again
            staged += 1
            center.publish(game.pk, read + 1)
            channel = await center.join(game.pk, "127.0.0.2")
            assert channel.version == read + 1
            center.leave(game.pk, "127.0.0.2")
            assert not center.opening and not center.loading and not center.early
            break
        assert staged == 1

    run(scenario())
