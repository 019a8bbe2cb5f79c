"""Writing a file whole or not at all."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from pathlib import Path


def write_atomically(target: Path, data: bytes) -> None:
    """Write ``data`` to a new file beside ``target``, then rename it to ``target``: a reader
    (or a full disk) never sees a partial file. A symbolic link at ``target`` is refused,
    never followed; a device or a pipe (``/dev/null``) is written as it is.

    Raises ``OSError`` when it cannot; the temporary file is then gone.
    """
    try:
        mode = target.lstat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISLNK(mode):
        raise OSError(errno.ELOOP, "it is a symbolic link; bkref writes no file through a link (remove it first)")
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):  # /dev/null, a pipe
        with open(target, "wb") as device:
            device.write(data)
        return
    temporary = target.with_name(f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as to any new file
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        os.replace(temporary, target)  # replaces what is at the name, never what a link there points to
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
