"""Boards as PNG files, deflated by ISA-L (the ``isal`` package) instead of zlib.

Every board the bot sends is a PNG, and deflating it was the largest part of drawing one:
ISA-L's deflate is several times faster than zlib's at a comparable size
(docs/benchmarks.md). The file is an ordinary PNG (8-bit palette, no filter, no interlace),
which every viewer and Discord reads as it reads Pillow's.
"""

from __future__ import annotations

import struct
import zlib

from isal import isal_zlib
from PIL import Image

DEFLATE_LEVEL = 2
"""ISA-L's level (0 to 3): 2, its default, is as fast as 1 and a little smaller; 3 is slower."""
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_NO_FILTER = 0


def png_of(image: Image.Image) -> bytes:
    """``image``, a palette ("P") picture, as a PNG file: the same pixels and palette that
    Pillow's own PNG writer stores."""
    if image.mode != "P":
        raise ValueError(f"a board's PNG holds a palette image, not {image.mode}")
    width, height = image.size
    # Each scanline starts with its filter type: the picture pasted one byte to the right.
    scanlines = Image.new("P", (width + 1, height), _NO_FILTER)
    scanlines.paste(image, (1, 0))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette indices
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(image.getpalette() or ())),
            _chunk(b"IDAT", isal_zlib.compress(scanlines.tobytes(), DEFLATE_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    checksum = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", checksum)
