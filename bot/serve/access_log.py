"""aiohttp's access log without the noise of probes: a load balancer asks ``/healthz`` every few
seconds, and a line for each would bury the requests that matter (they show at ``LOG_LEVEL=DEBUG``)."""

from __future__ import annotations

import logging

from aiohttp.abc import AbstractAccessLogger
from aiohttp.web import BaseRequest, StreamResponse
from aiohttp.web_log import AccessLogger


def quiet_access_log(*paths: str) -> type[AbstractAccessLogger]:
    """An access logger class that leaves out requests for ``paths`` unless debug logging is on."""

    class QuietAccessLogger(AccessLogger):
        def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
            if request.path in paths and not self.logger.isEnabledFor(logging.DEBUG):
                return
            super().log(request, response, time)

    return QuietAccessLogger
