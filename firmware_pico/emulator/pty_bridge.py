#!/usr/bin/env python3
"""A pseudo-terminal whose other end is this process's stdin/stdout (binary, raw).

The emulator runner (run.mjs) starts it: bytes the app writes to the pty come out on
stdout, bytes written to stdin go to the app. The pty's path goes to stderr (and a symlink
to --link PATH). We hold the slave side open ourselves, so an app may close and reopen the
port at will; bytes written while nobody reads wait in the pty (or are dropped when it is
full: the protocol resynchronises).

    pty_bridge.py [--link PATH]
"""
import fcntl
import os
import select
import sys
import tty


def main() -> None:
    link = None
    if len(sys.argv) == 3 and sys.argv[1] == "--link":
        link = sys.argv[2]
    master, slave = os.openpty()
    tty.setraw(slave)
    name = os.ttyname(slave)
    fcntl.fcntl(master, fcntl.F_SETFL, fcntl.fcntl(master, fcntl.F_GETFL) | os.O_NONBLOCK)
    if link:
        try:
            os.unlink(link)
        except FileNotFoundError:
            pass
        os.symlink(name, link)
    print(f"pty {name}" + (f" <- {link}" if link else ""), file=sys.stderr, flush=True)
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()
    try:
        while True:
            ready, _, _ = select.select([master, stdin], [], [])
            if master in ready:
                try:
                    data = os.read(master, 65536)
                except (BlockingIOError, OSError):
                    data = b""
                if data:
                    os.write(stdout, data)
            if stdin in ready:
                data = os.read(stdin, 65536)
                if not data:
                    break  # the runner went away
                try:
                    os.write(master, data)
                except (BlockingIOError, OSError):
                    pass  # nobody reading and the pty is full: dropped
    finally:
        if link:
            try:
                os.unlink(link)
            except OSError:
                pass


if __name__ == "__main__":
    main()
