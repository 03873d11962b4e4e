"""The console's pictures: a board's when asked for, each stats card and replay, written to
a folder, numbered on from earlier sessions' (nothing is overwritten), the newest
``KEEP_PICTURES`` kept: older ones are deleted as new ones come."""

from __future__ import annotations

import re
from pathlib import Path

KEEP_PICTURES = 50  # the newest pictures kept in the boards folder; older ones are deleted


class PictureFolder:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = _last_number(folder)
        self._last: tuple[bytes, Path] | None = None  # the last written, and where

    def save(self, png: bytes, filename: str) -> Path:
        """Write a picture, numbered on; only the newest ``KEEP_PICTURES`` are kept. The
        same picture again (a board asked for twice, say) is not written twice."""
        if self._last is not None and self._last[0] == png:
            return self._last[1]
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count += 1
        path = self.folder / f"{self.count:03}-{filename}"
        path.write_bytes(png)
        self._last = (png, path)
        for old in _pictures(self.folder)[:-KEEP_PICTURES]:
            old.unlink(missing_ok=True)
        return path

    def forget(self) -> int:
        """Delete every picture this console wrote (after /forget-me); how many."""
        gone = _pictures(self.folder)
        for old in gone:
            old.unlink(missing_ok=True)
        self._last = None
        return len(gone)


def _pictures(folder: Path) -> list[Path]:
    """The console's pictures in ``folder``, oldest first."""
    numbered = [(int(m[1]), p) for p in folder.glob("*.*")
                if p.suffix in (".png", ".gif") and (m := re.match(r"(\d+)-", p.name))]
    return [p for _number, p in sorted(numbered)]


def _last_number(folder: Path) -> int:
    """Number on from earlier sessions' pictures instead of overwriting them."""
    pictures = _pictures(folder)
    return int(pictures[-1].name.split("-")[0]) if pictures else 0
