#!/usr/bin/env python3
"""A virtual mouse on a wlroots compositor (sway), speaking the Wayland wire protocol itself: Debian 12
packages no tool that clicks on Wayland (wlrctl came with Debian 13), and a headless compositor has no
mouse of its own.

  virtual_pointer.py hold          keeps a virtual pointer plugged in until killed: the seat then has
                                   the pointer capability before the window under test binds it
  virtual_pointer.py click X Y     moves the pointer to (X, Y) of the output and clicks the left button,
                                   then waits for the compositor to have read it all (wl_display.sync)

Protocols: wl_display, wl_registry, wl_seat (as an object id only) and zwlr_virtual_pointer_v1 from
wlroots' wlr-virtual-pointer-unstable-v1.xml (manager version 1: create_virtual_pointer; pointer:
motion_absolute, button, frame, destroy). WAYLAND_DISPLAY and XDG_RUNTIME_DIR name the socket.
"""
import os
import socket
import struct
import sys
import time

BTN_LEFT = 0x110


class Connection:
    def __init__(self):
        path = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ.get("WAYLAND_DISPLAY", "wayland-0"))
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.connect(path)
        self.next_id = 2  # 1 is wl_display
        self.pending = b""

    def new_id(self):
        self.next_id += 1
        return self.next_id - 1

    def send(self, target, opcode, *arguments):
        body = b""
        for argument in arguments:
            if isinstance(argument, str):
                text = argument.encode() + b"\0"
                body += struct.pack("<I", len(text)) + text + b"\0" * (-len(text) % 4)
            else:
                body += struct.pack("<I", argument & 0xFFFFFFFF)
        self.socket.sendall(struct.pack("<II", target, (8 + len(body)) << 16 | opcode) + body)

    def events(self):
        """Yields (object id, opcode, payload) for each event the compositor sends."""
        while True:
            while len(self.pending) < 8 or len(self.pending) < struct.unpack("<II", self.pending[:8])[1] >> 16:
                data = self.socket.recv(4096)
                if not data:
                    raise SystemExit("the compositor closed the connection")
                self.pending += data
            target, word = struct.unpack("<II", self.pending[:8])
            size = word >> 16
            payload, self.pending = self.pending[8:size], self.pending[size:]
            yield target, word & 0xFFFF, payload

    def roundtrip(self):
        """wl_display.sync, then reads until its callback is done (errors end the program)."""
        callback = self.new_id()
        self.send(1, 0, callback)
        for target, opcode, payload in self.events():
            if target == 1 and opcode == 0:
                raise SystemExit("Wayland error: %r" % payload)
            if target == callback and opcode == 0:
                return


def globals_of(connection):
    """The registry's id and its globals, {interface: (name, version)}."""
    registry = connection.new_id()
    connection.send(1, 1, registry)  # wl_display.get_registry
    callback = connection.new_id()
    connection.send(1, 0, callback)
    found = {}
    for target, opcode, payload in connection.events():
        if target == registry and opcode == 0:
            name, length = struct.unpack("<II", payload[:8])
            interface = payload[8:8 + length - 1].decode()
            version = struct.unpack("<I", payload[8 + length + (-length % 4):][:4])[0]
            found[interface] = (name, version)
        elif target == callback:
            return registry, found


def bind(connection, registry, found, interface, version):
    if interface not in found:
        raise SystemExit("the compositor offers no %s" % interface)
    object_id = connection.new_id()
    connection.send(registry, 0, found[interface][0], interface, version, object_id)
    return object_id


def main():
    connection = Connection()
    registry, found = globals_of(connection)
    seat = bind(connection, registry, found, "wl_seat", 1)
    manager = bind(connection, registry, found, "zwlr_virtual_pointer_manager_v1", 1)
    pointer = connection.new_id()
    connection.send(manager, 0, seat, pointer)  # create_virtual_pointer
    connection.roundtrip()
    if sys.argv[1:2] == ["hold"]:
        print("holding", flush=True)
        for _ in connection.events():
            pass
    elif sys.argv[1:2] == ["click"] and len(sys.argv) == 4:
        x, y = int(sys.argv[2]), int(sys.argv[3])
        # The extent is the output's size in the harness (one output at 0,0): x and y are its pixels.
        width, height = int(os.environ["HVT_OUTPUT_WIDTH"]), int(os.environ["HVT_OUTPUT_HEIGHT"])
        stamp = int(time.monotonic() * 1000)
        connection.send(pointer, 1, stamp, x, y, width, height)  # motion_absolute
        connection.send(pointer, 4)  # frame
        connection.send(pointer, 2, stamp + 1, BTN_LEFT, 1)  # button pressed
        connection.send(pointer, 4)
        connection.send(pointer, 2, stamp + 2, BTN_LEFT, 0)  # released
        connection.send(pointer, 4)
        connection.send(pointer, 8)  # destroy
        connection.roundtrip()
        print("clicked", flush=True)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
