"""uvicorn's HTTP/1.1 protocol (h11) with the two bounds on slow clients that uvicorn lacks.

- **A deadline for each request**: its head and body must arrive within ``REQUEST_TIMEOUT_S`` of the
  connection opening (or, on a kept-alive connection, of the request's first byte). Past it the
  server answers 408 when part of a request came, and closes the connection either way. uvicorn
  itself waits for a request head forever; between requests its keep-alive timeout (5 s) applies.
- **A cap on open connections**: past ``MAX_CONNECTIONS``, a new connection closes the one that has
  waited longest for a request (a slow or idle one, never one whose request is being answered), so
  a newcomer always gets in and a flood of idle sockets cannot use up the file descriptors.

There is no limit on requests in flight here: uvicorn's ``limit_concurrency`` counts open sockets,
so 63 half-sent requests made it answer 503 to everything, the health check included. The
application queues the expensive answers itself (``app.AnswerQueue``).
"""

from __future__ import annotations

import asyncio
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT_S = 5.0
MAX_CONNECTIONS = 256
_RECEIVING = (h11.IDLE, h11.SEND_BODY)  # the client's states while its request has not arrived whole


def error_response(status: bytes, detail: str) -> bytes:
    """A whole HTTP/1.1 error response (``status``: b"408 Request Timeout") with ``{"detail": ...}``, closing."""
    body = json.dumps({"detail": detail}).encode()
    return (b"HTTP/1.1 %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
            b"connection: close\r\n\r\n%s" % (status, len(body), body))


def timeout_response(seconds: float) -> bytes:
    return error_response(b"408 Request Timeout", f"the request did not arrive whole within {seconds:g} s")


SHORT_BODY = error_response(b"400 Bad Request", "the request ended before its body did: fewer bytes came than its "
                                                "Content-Length says")
SHORT_HEAD = error_response(b"400 Bad Request", "the request ended before its head did")


class DeadlineH11Protocol(H11Protocol):
    """One connection: uvicorn's h11 protocol, cut when a request is late, shed when connections
    are too many (the module docstring)."""

    request_timeout = REQUEST_TIMEOUT_S
    max_connections = MAX_CONNECTIONS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_line()[self] = None
        self._arm()
        self._shed()

    def _waiting_line(self) -> dict:
        """The server's connections waiting for (the rest of) a request, longest-waiting first."""
        line = getattr(self.server_state, "wizsim_waiting", None)
        if line is None:
            line = self.server_state.wizsim_waiting = {}
        return line

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state in _RECEIVING and not self.transport.is_closing():
            self._arm()
            self._waiting_line().setdefault(self, None)
        else:  # the request is in: it is being answered
            self._disarm()
            self._waiting_line().pop(self, None)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():  # kept alive, idle
            line = self._waiting_line()
            line.pop(self, None)
            line[self] = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._waiting_line().pop(self, None)
        super().connection_lost(exc)

    def _partial(self) -> bool:
        """Whether part of a request came (then a 408 says why the connection closes)."""
        return self.conn.their_state is h11.SEND_BODY or bool(self.conn.trailing_data[0])

    def _unanswered(self) -> bool:
        """Whether no response has begun (h11 is ready to send one, or waits for a request)."""
        return self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE)

    def _cut(self, response: bytes | None = None) -> None:
        """Close the connection; when part of a request came and nothing was answered, answer ``response``
        first (default the 408 of a late request)."""
        self._disarm()
        self._waiting_line().pop(self, None)
        if self.transport.is_closing():
            return
        if self._partial() and self._unanswered():  # a head, or a head and part of its body
            self.transport.write(response or timeout_response(self.request_timeout))
        self.transport.close()

    def eof_received(self) -> None:
        """The client closed its side: a request that had not arrived whole never will. A body shorter than
        its Content-Length is a 400 (it would otherwise get no answer at all); then the connection closes."""
        if self.conn.their_state in _RECEIVING and self._partial():
            self._cut(SHORT_BODY if self.conn.their_state is h11.SEND_BODY else SHORT_HEAD)

    def _late(self) -> None:
        self._deadline = None
        if self.conn.their_state in _RECEIVING:
            self._cut()

    def _shed(self) -> None:
        if len(self.connections) <= self.max_connections:
            return
        for other in self._waiting_line():
            if other is not self:
                other._cut()
                return
