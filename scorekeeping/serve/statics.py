"""Static files, answered on the event loop from memory: ServeStatic's middleware, its reads kept.

ServeStatic's middleware opens every file it sends in a thread pool of its own (a new thread
for each answer) and reads it 8 KB at a time, a thread switch each: measured side by side with
WhiteNoise (``bench --against`` with the table page's files asked too), htmx and the stylesheet
took 1 to 1.5 ms longer each. The site's static files are few and small, and nothing changes
them until the next start (ServeStatic itself reads their sizes and dates once, at start): each
file is read once per process, in a thread, and kept; later answers come from memory with no
thread at all. At most ``KEEP_FILE_BYTES`` a file and ``KEEP_TOTAL_BYTES`` in all are kept (the
admin's and the API schema page's files are many): past that a file is read on each answer.
Development (``SERVESTATIC_AUTOREFRESH``, files that change under it) is left to ServeStatic,
but for its list of every file at start, which it never reads then (below).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest
from servestatic.middleware import AsyncServeStaticFileResponse, GetResponseCallable, ServeStaticMiddleware
from servestatic.responders import Redirect, StaticFile
from servestatic.utils import EmptyAsyncIterator

KEEP_FILE_BYTES = 512 * 1024
KEEP_TOTAL_BYTES = 4 * 1024 * 1024


async def _at_once(body: bytes) -> AsyncIterator[bytes]:
    yield body


class StaticFilesMiddleware(ServeStaticMiddleware):  # type: ignore[misc]  # servestatic ships no types
    kept: dict[str, bytes]
    kept_bytes: int

    def __init__(self, get_response: GetResponseCallable | None = None) -> None:
        super().__init__(get_response)
        self.kept, self.kept_bytes = {}, 0

    def add_files_from_finders(self) -> None:
        """With autorefresh, each request finds its file through the finders (ServeStatic's
        ``find_file``): the list of every file that ServeStatic makes here at start is never read,
        only the directories it may serve from. Listing the 2,160 files took 122 ms each time
        Django built its middleware: once a process on a server, once a client in the tests."""
        if not self.autorefresh:
            super().add_files_from_finders()
            return
        for finder in finders.get_finders():
            for storage in getattr(finder, "storages", {}).values():
                self.insert_directory(storage.location, self.static_prefix)

    async def aserve(self, static_file: StaticFile | Redirect, request: HttpRequest) -> AsyncServeStaticFileResponse:
        if self.autorefresh:
            return await super().aserve(static_file, request)
        # pathsend: a whole file's answer names its path and opens nothing (no thread pool);
        # a range, a 304 or a HEAD answer is ServeStatic's own.
        response = await static_file.aget_response(request.method or "GET", request.META, pathsend=True)
        content: object = response.file or EmptyAsyncIterator()
        if response.file is None and response.path is not None:
            content = _at_once(await self._body(response.path))
        answer = AsyncServeStaticFileResponse(content, status=int(response.status))
        del answer["content-type"]
        for key, value in response.headers:
            if value is not None:
                answer[key] = value
        return answer

    async def _body(self, path: str) -> bytes:
        body = self.kept.get(path)
        if body is None:
            body = await asyncio.to_thread(Path(path).read_bytes)
            if len(body) <= KEEP_FILE_BYTES and self.kept_bytes + len(body) <= KEEP_TOTAL_BYTES:
                self.kept[path] = body
                self.kept_bytes += len(body)
        return body
