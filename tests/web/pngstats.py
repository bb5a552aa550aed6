"""Reads an 8-bit RGB or RGBA PNG without third-party modules (zlib, PNG filters undone), for the
page and install tests: what a person would see, counted in pixels."""
import struct
import zlib


def read_png(path):
    """(width, height, [row of (r, g, b, a) tuples]) of an 8-bit RGB/RGBA, non-interlaced PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(path + " is not a PNG")
    w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("%s: depth %d colour type %d interlace %d not handled" % (path, depth, colour, interlace))
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    bpp = 4 if colour == 6 else 3
    stride = bpp * w
    prev = bytearray(stride)
    rows = []
    for r in range(h):
        kind = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + bpp]) + ((255,) if bpp == 3 else ()) for x in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def count_near(rows, rgb, tolerance):
    """Pixels within `tolerance` of `rgb` in every channel."""
    return sum(1 for row in rows for p in row
               if abs(p[0] - rgb[0]) <= tolerance and abs(p[1] - rgb[1]) <= tolerance and abs(p[2] - rgb[2]) <= tolerance)
