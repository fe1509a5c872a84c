"""The PNG writer of boards (bot/render/png.py): a file every reader takes, with the pixels
and palette it was given."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from bot.render.palette import palette_image, quantise
from bot.render.png import png_of
from bot.render.style import COLOUR_BLIND, STANDARD


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The PNG's chunks (kind, data), each checked against its CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        (checksum,) = struct.unpack(">I", data[at + 8 + length : at + 12 + length])
        assert checksum == zlib.crc32(kind + body), kind
        chunks.append((kind, body))
        at += 12 + length
    return chunks


def _picture(palette: str) -> Image.Image:
    """A palette picture with flat areas, gradients and an odd width."""
    image = Image.new("RGB", (131, 57), (30, 30, 40))
    for x in range(131):
        for y in range(20, 57):
            image.putpixel((x, y), (2 * x % 256, 4 * y, (x * y) % 256))
    return quantise(image, palette)


@pytest.mark.parametrize("palette", [STANDARD, COLOUR_BLIND])
def test_the_file_holds_the_pixels_and_palette_it_was_given(palette: str) -> None:
    picture = _picture(palette)
    data = png_of(picture)
    read = Image.open(io.BytesIO(data))
    read.load()
    assert (read.format, read.mode, read.size) == ("PNG", "P", picture.size)
    assert read.getpalette() == picture.getpalette() == palette_image(palette).getpalette()
    assert read.tobytes() == picture.tobytes()
    Image.open(io.BytesIO(data)).verify()  # Pillow's own checks of the chunks


def test_the_chunks_are_a_plain_eight_bit_palette_png() -> None:
    picture = _picture(STANDARD)
    chunks = _chunks(png_of(picture))
    assert [kind for kind, _ in chunks] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    assert chunks[0][1] == struct.pack(">IIBBBBB", 131, 57, 8, 3, 0, 0, 0)
    assert chunks[1][1] == bytes(picture.getpalette() or ())
    scanlines = zlib.decompress(chunks[2][1])  # zlib reads ISA-L's deflate
    assert len(scanlines) == 57 * (131 + 1)
    rows = [scanlines[y * 132 : (y + 1) * 132] for y in range(57)]
    assert all(row[0] == 0 for row in rows)  # no filter on any line
    assert b"".join(row[1:] for row in rows) == picture.tobytes()


def test_only_palette_pictures_are_written() -> None:
    with pytest.raises(ValueError, match="palette image, not RGB"):
        png_of(Image.new("RGB", (4, 4)))
