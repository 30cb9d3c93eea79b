"""WhiteNoise under Daphne: static files from an async-capable middleware.

``WhiteNoiseMiddleware`` is synchronous; in Django's async stack a sync middleware makes every
request hop to a thread and back, and streamed chat answers with it. This subclass keeps the
stack async: a static file is looked up in memory and served from a worker thread (file I/O),
and everything else goes straight on to the next middleware.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import markcoroutinefunction, sync_to_async
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware


class AsyncWhiteNoiseMiddleware(WhiteNoiseMiddleware):
    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(get_response, *args, **kwargs)
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if self.autorefresh:
            static_file = await sync_to_async(self.find_file)(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self.serve, thread_sensitive=False)(static_file, request)
        response: HttpResponseBase = await self.get_response(request)
        return response
