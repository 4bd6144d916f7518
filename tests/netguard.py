"""Proof that code opens no network socket: `with no_network(): ...` fails on any attempt.

Patches the three Python entry points every client goes through (socket.connect,
create_connection, getaddrinfo). Unix-domain sockets stay allowed: they never leave
the machine. C extensions that open sockets in native code are not covered.
"""
from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager


def _refuse(what: str, target: object) -> None:
    raise AssertionError(f"network access attempted: {what} {target!r}")


@contextmanager
def no_network() -> Iterator[None]:
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_create_connection = socket.create_connection
    original_getaddrinfo = socket.getaddrinfo

    def guarded_connect(sock: socket.socket, address: object) -> None:
        if sock.family == socket.AF_UNIX:
            return original_connect(sock, address)
        _refuse("connect", address)

    def guarded_connect_ex(sock: socket.socket, address: object) -> int:
        if sock.family == socket.AF_UNIX:
            return original_connect_ex(sock, address)
        _refuse("connect_ex", address)

    def guarded_create_connection(address: object, *args: object, **kwargs: object) -> None:
        _refuse("create_connection", address)

    def guarded_getaddrinfo(host: object, port: object, *args: object, **kwargs: object) -> None:
        _refuse("getaddrinfo", (host, port))

    socket.socket.connect = guarded_connect
    socket.socket.connect_ex = guarded_connect_ex
    socket.create_connection = guarded_create_connection
    socket.getaddrinfo = guarded_getaddrinfo
    try:
        yield
    finally:
        socket.socket.connect = original_connect
        socket.socket.connect_ex = original_connect_ex
        socket.create_connection = original_create_connection
        socket.getaddrinfo = original_getaddrinfo
