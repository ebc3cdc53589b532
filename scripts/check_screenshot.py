#!/usr/bin/env python3
"""Fails when a PNG screenshot is blank (a single colour) or unreadable.

Usage: check_screenshot.py SHOT.png [--min-colors N]
Decodes 8-bit RGB/RGBA non-interlaced PNGs (what stb_image_write produces) with the standard
library only, and prints the size, the number of distinct colours and the share of the most
common one.
"""
import argparse
import collections
import struct
import sys
import zlib


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG file")
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if header is None:
        raise ValueError(f"{path}: no IHDR chunk")
    width, height, depth, color_type, _, _, interlace = header
    channels = {2: 3, 6: 4}.get(color_type)
    if depth != 8 or channels is None or interlace != 0:
        raise ValueError(f"{path}: unsupported PNG (depth {depth}, colour type {color_type})")
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        filt = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if filt == 1:
                line[i] = (line[i] + a) & 255
            elif filt == 2:
                line[i] = (line[i] + b) & 255
            elif filt == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif filt == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("png")
    ap.add_argument("--min-colors", type=int, default=16)
    args = ap.parse_args()
    try:
        width, height, channels, rows = read_png(args.png)
    except (OSError, ValueError, zlib.error) as e:
        print(f"check_screenshot: {e}", file=sys.stderr)
        return 1
    counts = collections.Counter()
    for row in rows[::2]:  # every other row and column is plenty for a blank check
        for x in range(0, width * channels, channels * 2):
            counts[row[x:x + 3]] += 1
    total = sum(counts.values())
    top = counts.most_common(1)[0][1] / total if total else 1.0
    print(f"{args.png}: {width}x{height}, {len(counts)} distinct colours, "
          f"most common covers {top:.0%}")
    if len(counts) < args.min_colors:
        print(f"check_screenshot: {args.png} looks blank ({len(counts)} colours)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
