"""PNG files of palette images, written here rather than by Pillow, for speed.

A board is a palette image (one byte a pixel). Its rows are written unfiltered, as
Pillow's writer already writes a palette image's: the time is all in deflate. Measured on
300 boards from ``benchmarks.render_speed``'s positions (medians): Pillow's ``save`` (zlib, level 6)
takes 3.6 ms for 22 KB, and 1.2 ms for 32 KB at level 1; zlib's level 1 on these rows
takes 1.0 ms, and ISA-L's deflate (the ``isal`` package) 0.2 ms for 30 KB. The gain is
ISA-L's: 5 times sooner than Pillow at level 1, 16 times sooner than at its default, for
about a third more bytes than the default.

A picture that ISA-L leaves over ``DENSER_OVER`` (a Corner Stones board with long stacks
everywhere: none of ``benchmarks.render_speed``'s 300, 6 of the 24 that
``tests/render/test_promises.py`` draws at the longest stacks it finds) is deflated again
by zlib at level ``DENSER_LEVEL``: on the largest found (554 x 969, 48.7 KB from ISA-L),
37.7 KB in 3.2 ms more, where zlib's levels 6 and 9 take 4.7 and 47 ms for 35.0 and
32.4 KB. So every board keeps within the 50 KB the README promises, and only those few
pay for it.

The file is the plainest valid PNG: the header, the palette, one block of compressed rows
(each led by its filter byte, 0: none) and the end, each chunk with its CRC.
"""

from __future__ import annotations

import struct
import zlib

from isal import isal_zlib
from PIL import Image

LEVEL = 1  # ISA-L's levels are 0 to 3; 1 and 2 give the same size here, 3 is 7x slower
DENSER_OVER = 48 * 1024  # deflated bytes above which zlib tries harder
DENSER_LEVEL = 5
SIGNATURE = b"\x89PNG\r\n\x1a\n"
_END = b"IEND"


def encode(image: Image.Image, level: int = LEVEL) -> bytes:
    """``image``, a palette ("P") image without transparency, as PNG bytes."""
    if image.mode != "P" or "transparency" in image.info:
        raise ValueError(f"encode takes an opaque palette image, not mode {image.mode}")
    width, height = image.size
    palette = bytes(image.getpalette() or [0, 0, 0])
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indexed
    rows = _rows(image)
    deflated = isal_zlib.compress(rows, level)
    if len(deflated) > DENSER_OVER:
        deflated = min(deflated, zlib.compress(rows, DENSER_LEVEL), key=len)
    return b"".join((
        SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", palette),
        _chunk(b"IDAT", deflated),
        _chunk(_END, b""),
    ))


def _rows(image: Image.Image) -> bytearray:
    """The pixels row by row, each row led by a 0 byte (filter: none). An image one pixel
    wider is laid over the buffer, so pasting the picture at x = 1 writes the rows in
    place: one copy in C rather than a slice and a join per row."""
    width, height = image.size
    rows = bytearray(height * (width + 1))
    wider = Image.frombuffer("P", (width + 1, height), rows, "raw", "P", 0, 1)
    wider.im.paste(image.im, (1, 0, width + 1, height))
    return rows


def _chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join((
        struct.pack(">I", len(data)), kind, data,
        struct.pack(">I", zlib.crc32(data, zlib.crc32(kind))),
    ))
