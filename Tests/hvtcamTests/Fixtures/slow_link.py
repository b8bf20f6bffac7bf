#!/usr/bin/python3
"""A TCP link on 127.0.0.1 whose speed towards the server a test sets, for the stream tests.

Usage: slow_link.py SERVER_PORT. It listens on a free port of 127.0.0.1 and joins the first connection
it accepts to 127.0.0.1:SERVER_PORT, both ways. What the server sends goes through at once; what the
client sends goes through at full speed until SIGUSR1, then at 64 kB/s (a network slower than the
stream) until SIGUSR2. Its receiving socket is small (16 kB), so a client fills its side sooner. It ends
when either side closes. On stderr: "listening PORT" once bound, "joined" once both connections are
open, "slow" and "fast" as each signal takes effect.
"""

import signal
import socket
import sys
import threading
import time

SLOW_BYTES_PER_SECOND = 64 * 1024
RECEIVE_BUFFER = 16 * 1024
slow = threading.Event()


def say(line):
    print(line, file=sys.stderr, flush=True)


def forward_to_client(server, client):
    """Copies the server's bytes to the client as they come, then closes the client's writing side."""
    while data := server.recv(65536):
        client.sendall(data)
    client.shutdown(socket.SHUT_WR)


def forward_to_server(client, server):
    """Copies the client's bytes to the server, at most SLOW_BYTES_PER_SECOND while slow is set."""
    said = False
    while True:
        if slow.is_set() != said:
            said = slow.is_set()
            say("slow" if said else "fast")
        size = SLOW_BYTES_PER_SECOND // 20 if said else 65536
        data = client.recv(size)
        if not data:
            break
        server.sendall(data)
        if said:
            # The pace of the slow link: each chunk takes the time it would at that rate.
            time.sleep(len(data) / SLOW_BYTES_PER_SECOND)
    server.shutdown(socket.SHUT_WR)


def main():
    signal.signal(signal.SIGUSR1, lambda *_: slow.set())
    signal.signal(signal.SIGUSR2, lambda *_: slow.clear())
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    say(f"listening {listener.getsockname()[1]}")
    client, _ = listener.accept()
    server = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    say("joined")
    back = threading.Thread(target=forward_to_client, args=(server, client), daemon=True)
    back.start()
    forward_to_server(client, server)
    back.join()


if __name__ == "__main__":
    main()
