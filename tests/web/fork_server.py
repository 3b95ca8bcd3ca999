"""Server processes for the kill test, forked from one parent that built the app once.

Each line read on stdin asks for a fresh server: the parent binds a free loopback port, forks,
and the child serves the app there with uvicorn until it is killed; the parent answers with
`PID PORT`. Starting an interpreter and building the app costs seconds on a busy machine; a
fork costs milliseconds, so fifty SIGKILLs stay cheap. The parent never opens the database
or starts a thread, so each child begins with nothing the previous server held.

Run as `python -m tests.web.fork_server DATABASE_URL`.
"""

from __future__ import annotations

import os
import signal
import socket
import sys

__all__ = ["main"]


def _serve(app: object, listener: socket.socket) -> None:
    import uvicorn

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    config = uvicorn.Config(app, log_level="warning")  # type: ignore[arg-type]
    uvicorn.Server(config).run(sockets=[listener])


def main() -> None:
    from fairfight.web.app import create_app
    from fairfight.web.settings import WebSettings

    app = create_app(WebSettings(database_url=sys.argv[1]))
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the killed children
    for _ in sys.stdin:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", 0))
        listener.listen(128)
        port = listener.getsockname()[1]
        pid = os.fork()
        if pid == 0:
            try:
                _serve(app, listener)
            finally:
                os._exit(0)
        listener.close()
        print(pid, port, flush=True)


if __name__ == "__main__":
    main()
