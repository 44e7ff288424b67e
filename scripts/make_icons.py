# SPDX-License-Identifier: MIT
# Draws web/icon-192.png and web/icon-512.png, the English board as web/icon.svg draws it (the
# manifest's raster icons), with the standard library alone: python3 scripts/make_icons.py
import struct
import zlib
from pathlib import Path

BG, PEG, HOLE = (0x7A, 0x4A, 0x24), (0xF2, 0xC1, 0x4E), (0x3D, 0x24, 0x10)


def draw(n):
    s = n / 192  # icon.svg's units to pixels
    cells = [(r, c) for r in range(7) for c in range(7) if 2 <= r <= 4 or 2 <= c <= 4]
    discs = [((24 + c * 24) * s, (24 + r * 24) * s, (7 if (r, c) == (3, 3) else 9) * s,
              HOLE if (r, c) == (3, 3) else PEG) for r, c in cells]
    radius = 36 * s
    rows = []
    for y in range(n):
        row = bytearray([0])
        for x in range(n):
            px, py = x + 0.5, y + 0.5
            # the rounded square's corners are transparent
            cx = min(max(px, radius), n - radius)
            cy = min(max(py, radius), n - radius)
            if (px - cx) ** 2 + (py - cy) ** 2 > radius ** 2:
                row += bytes([0, 0, 0, 0])
                continue
            colour = BG
            for dx, dy, r, c in discs:
                if (px - dx) ** 2 + (py - dy) ** 2 <= r * r:
                    colour = c
                    break
            row += bytes(colour) + b'\xff'
        rows.append(bytes(row))
    raw = zlib.compress(b''.join(rows), 9)

    def chunk(kind, data):
        return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))

    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', n, n, 8, 6, 0, 0, 0))
            + chunk(b'IDAT', raw) + chunk(b'IEND', b''))


web = Path(__file__).resolve().parent.parent / 'web'
for size in (192, 512):
    (web / f'icon-{size}.png').write_bytes(draw(size))
