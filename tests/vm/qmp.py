#!/usr/bin/env python3
"""A minimal QMP client for the VM tests: one command to a running QEMU, its answer printed.

    qmp.py SOCKET COMMAND [ARGUMENTS_JSON]
    qmp.py "$vm_dir/qmp.sock" qom-set '{"path": "/machine/peripheral/nvsick", "property": "smart_critical_warning", "value": 4}'

Reads the greeting, negotiates capabilities (qmp_capabilities), sends the command and waits for its
return, skipping asynchronous events. Exits 1 on a QMP error, 2 when the socket does not answer.
"""
import json
import socket
import sys


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip())
        return 2
    path, command = argv[1], argv[2]
    arguments = json.loads(argv[3]) if len(argv) > 3 else {}
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(20)
        sock.connect(path)
    except OSError as e:
        print(f"qmp.py: cannot connect to {path}: {e}")
        return 2
    stream = sock.makefile("rw", encoding="utf-8", newline="\n")

    def answer():
        # Events ({"event": ...}) may come between a command and its return.
        while True:
            line = stream.readline()
            if not line:
                raise ConnectionError("QEMU closed the QMP socket")
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def execute(cmd, args=None):
        stream.write(json.dumps({"execute": cmd, "arguments": args or {}}) + "\n")
        stream.flush()
        msg = answer()
        if "error" in msg:
            raise RuntimeError(f"{cmd}: {msg['error'].get('class')}: {msg['error'].get('desc')}")
        return msg.get("return")

    try:
        greeting = answer()
        if "QMP" not in greeting:
            raise ConnectionError(f"no QMP greeting: {greeting}")
        execute("qmp_capabilities")
        print(json.dumps(execute(command, arguments)))
    except RuntimeError as e:
        print(f"qmp.py: {e}")
        return 1
    except (OSError, ConnectionError, ValueError) as e:
        print(f"qmp.py: {path}: {e}")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
