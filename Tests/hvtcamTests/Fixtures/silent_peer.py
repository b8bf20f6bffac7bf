#!/usr/bin/python3
"""A peer on 127.0.0.1 that takes connections and never answers, for the stream fault tests.

Usage: silent_peer.py tcp|udp [PORT]. With tcp it accepts every connection and holds it open, reading and
writing nothing (a server that never completes a handshake); with udp it receives datagrams and sends
none. On stderr: "listening PORT" once bound; then "accepted" for each connection, or "datagram" for
the first datagram.
"""

import socket
import sys


def say(line):
    print(line, file=sys.stderr, flush=True)


def main():
    kind = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    stream = kind == "tcp"
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM if stream else socket.SOCK_DGRAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    say(f"listening {server.getsockname()[1]}")
    if stream:
        server.listen(16)
        held = []
        while True:
            connection, _ = server.accept()
            held.append(connection)
            say("accepted")
    else:
        server.recvfrom(65536)
        say("datagram")
        while True:
            server.recvfrom(65536)


if __name__ == "__main__":
    main()
