"""A change costs a process one wake-up per game, however many streams watch it: no timer and no
task is made per stream per change (``scorekeeping.live``)."""

import asyncio

from scorekeeping import live


def test_a_change_reaches_a_thousand_streams_with_no_timer_or_task_made_per_stream():
    async def scenario():
        loop = asyncio.get_running_loop()
        center = live.Hub()
        channel = live.Channel(version=1)
        sent: list[bytes] = []
        hang = loop.create_future()

        async def receive():
            await hang
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message["body"])

        followers = [loop.create_task(live._follow(center, channel, 1, receive, send)) for _ in range(1000)]
        await asyncio.sleep(0.01)  # every stream waits
        timers, tasks = len(loop._scheduled), len(asyncio.all_tasks())
        for version in (2, 3, 4):
            channel.publish(version)
            await asyncio.sleep(0.01)
            assert len(loop._scheduled) == timers and len(asyncio.all_tasks()) == tasks
        assert timers <= 1  # asyncio.sleep's own; none per stream
        # Each stream got each change once, in order (a stream that was slower may skip straight to the newest).
        assert sent.count(live.event(4)) == 1000 and len(sent) <= 3000
        hang.set_result(None)
        await asyncio.gather(*followers)
        assert all(f.done() for f in followers)

    asyncio.run(scenario())


def test_the_heartbeat_is_one_timer_for_every_stream(settings):
    settings.LIVE_HEARTBEAT = 0.05

    async def scenario():
        loop = asyncio.get_running_loop()
        center = live.Hub()
        beats = loop.create_task(center._beat())
        channel = live.Channel(version=1)
        sent: list[bytes] = []
        hang = loop.create_future()

        async def receive():
            await hang
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message["body"])

        followers = [loop.create_task(live._follow(center, channel, 1, receive, send)) for _ in range(200)]
        await asyncio.sleep(0.12)
        assert 200 <= sent.count(b": keep-alive\n\n") <= 600 and len(loop._scheduled) <= 2
        hang.set_result(None)
        beats.cancel()
        await asyncio.gather(*followers)

    asyncio.run(scenario())
