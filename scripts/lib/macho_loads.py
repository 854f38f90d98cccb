"""Print a 64-bit Mach-O file's dylibs and whether it carries a code signature.

scripts/release.sh checks that macOS binaries linked on Linux bind to the real
system libraries and that arm64 ones are signed (macOS kills unsigned arm64
programs at launch). Usage: python3 macho_loads.py FILE
"""
import struct
import sys

LC_LOAD_DYLIB, LC_CODE_SIGNATURE = 0xC, 0x1D


def main(path):
    with open(path, "rb") as f:
        data = f.read()
    magic, _, _, _, ncmds = struct.unpack_from("<IiiII", data)
    if magic != 0xFEEDFACF:
        sys.exit(f"{path}: not a 64-bit little-endian Mach-O file")
    off, signed = 32, False
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, off)
        if cmd == LC_LOAD_DYLIB:
            (name_off,) = struct.unpack_from("<I", data, off + 8)
            print("dylib", data[off + name_off:off + size].split(b"\0")[0].decode())
        signed = signed or cmd == LC_CODE_SIGNATURE
        off += size
    print("signed" if signed else "unsigned")


if __name__ == "__main__":
    main(sys.argv[1])
