"""Where the project keeps files: one per-user data folder.

The folder is ``$SHUTTHEBOX_HOME`` if set, else ``$XDG_DATA_HOME/shutthebox``, else
``~/.local/share/shutthebox``. Terminal games are saved under ``games/`` in it, and the web
app's SQLite database is ``shutthebox.sqlite`` in it.

A folder that cannot be made or read (read-only, unreadable, a file in its place) raises
:class:`DataFolderError`, which the command line reports in one line with exit status 1: the
input was good, the machine refused.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from shutthebox.errors import ShutTheBoxError
from shutthebox.language import N_, _

ADVICE = N_("the environment variable SHUTTHEBOX_HOME chooses the data folder: set it to a "
            "folder you can write")
"""What a reader can do when the data folder cannot be written, said after the reason."""


REASONS = {
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ENOTDIR: N_("a part of the path is a file, not a folder"),
    errno.ENOENT: N_("no such file or folder"),
    errno.ENOSPC: N_("no space left on the disk"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EISDIR: N_("it is a folder"),
    errno.EEXIST: N_("it exists already"),
}
"""Why the system refused a file, in the reader's language (the system's own words are
English, or the C library's language)."""


def reason(error: OSError) -> str:
    """Why the system refused, in the reader's language (the system's words when the
    reason is not one of :data:`REASONS`).

    >>> reason(OSError(errno.ENOTDIR, "Not a directory"))
    'a part of the path is a file, not a folder'
    """
    if error.errno in REASONS:
        return _(REASONS[error.errno])
    return error.strerror or str(error)


class DataFolderError(ShutTheBoxError):
    """The data folder, or a file in it, cannot be made, read or written."""

    exit_status = 1
    """The command line's exit status: the machine refused, the input was good."""


def data_home() -> Path:
    """The per-user data folder's path (nothing is created)."""
    home = os.environ.get("SHUTTHEBOX_HOME")
    if home:
        return Path(home)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "shutthebox"


def make_folder(folder: Path) -> Path:
    """``folder``, created with its parents if missing.

    :raises DataFolderError: it cannot be created, or a file stands in its place.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise DataFolderError(_("cannot use {folder!r} as a folder: a file (or a broken link) "
                                "stands in its place; {advice}").format(
                                    folder=str(folder), advice=_(ADVICE))) from None
    except OSError as error:
        raise DataFolderError(_("cannot create the folder {folder!r}: {why}; {advice}").format(
            folder=str(folder), why=reason(error), advice=_(ADVICE))) from None
    return folder


NO_WRITING = "SHUTTHEBOX_NO_WRITING"
"""Set (to ``1``) by ``play --no-save``: nothing is written in the data folder, the
solver's tables kept on disk included (its worker processes inherit it)."""


def writing_allowed() -> bool:
    """Whether this process may write in the data folder (see :data:`NO_WRITING`)."""
    return os.environ.get(NO_WRITING) != "1"


def data_dir() -> Path:
    """The per-user data folder (created on first use).

    :raises DataFolderError: it cannot be created.
    """
    return make_folder(data_home())


def games_dir(create: bool = True) -> Path:
    """The folder of saved game logs (JSON); with ``create=False`` it may not exist yet (a
    command that only reads writes nothing).

    :raises DataFolderError: it cannot be created.
    """
    folder = data_home() / "games"
    return make_folder(folder) if create else folder
