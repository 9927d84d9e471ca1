"""Read QR codes back, as a phone camera would: from a screenshot (PNG) or from the
SVG the engine draws, decoded by zxing-cpp. No image library needed: PNG and the
engine's SVG paths are read here."""

from __future__ import annotations

import re
import struct
import zlib

import zxingcpp
from playwright.sync_api import Locator


def png_gray(data: bytes) -> tuple[bytes, int, int]:
    """An 8-bit RGB or RGBA PNG (what Chromium's screenshots are) as grayscale pixels."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, width, height, kind = 8, b"", 0, 0, 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        tag, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if tag == b"IHDR":
            width, height, depth, kind = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and kind in (2, 6), (depth, kind)
        elif tag == b"IDAT":
            chunks += body
        pos += 12 + length
    raw = zlib.decompress(chunks)
    bpp = 3 if kind == 2 else 4
    stride = width * bpp
    prev = bytearray(stride)
    gray = bytearray()
    for y in range(height):
        start = y * (stride + 1)
        kind_f, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind_f == 1:
                line[i] = (line[i] + a) & 255
            elif kind_f == 2:
                line[i] = (line[i] + b) & 255
            elif kind_f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind_f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        gray.extend((line[x] * 3 + line[x + 1] * 6 + line[x + 2]) // 10 for x in range(0, stride, bpp))
    return bytes(gray), width, height


def decode_gray(gray: bytes, width: int, height: int) -> list[str]:
    view = memoryview(gray).cast("B", (height, width))
    return [code.text for code in zxingcpp.read_barcodes(view)]


def decode_png(data: bytes) -> list[str]:
    return decode_gray(*png_gray(data))


def decode_svg(svg: str, scale: int = 4) -> list[str]:
    """The engine's SVG (a white square, then one path of 1-module horizontal strokes)
    rasterised module by module and decoded."""
    box = re.search(r'viewBox="0 0 (\d+) (\d+)"', svg)
    assert box, svg[:120]
    size = int(box.group(1))
    dark = [[False] * size for _ in range(size)]
    path = re.search(r'stroke="#000" d="([^"]+)"', svg)
    assert path
    x = y = 0.0
    for op, a, b in re.findall(r"([Mmh])\s*(-?[\d.]+)(?:\s+(-?[\d.]+))?", path.group(1)):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            for col in range(int(x), int(x + float(a))):
                dark[int(y)][col] = True
            x += float(a)
    side = size * scale
    gray = bytes(0 if dark[r // scale][c // scale] else 255 for r in range(side) for c in range(side))
    return decode_gray(gray, side, side)


def qr_shot(image: Locator) -> bytes:
    """A screenshot of a QR code on the page, brought to the middle of the screen first (clear of
    the bars fixed at the top and bottom)."""
    image.evaluate("img => img.scrollIntoView({ block: 'center' })")
    return image.screenshot()
