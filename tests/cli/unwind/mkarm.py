# SPDX-License-Identifier: MIT
"""Writes the aarch64 stream of unwind/arm64.sh on standard output.

    python3 mkarm.py LIBARM.SO ARCH|- [DYN_SIZE] > arm.data

One cpu-clock event sampling IP|TID|TIME|REGS_USER|STACK_USER with
perf's arm64 register mask (x0-x30, sp, pc), the arch feature (ARCH, or
none for "-": the mask must then tell), the maps the kernel would report
for LIBARM.SO (arm64.s linked by ld.lld) at 0x7f0000000000, and one
sample in c as the kernel would take it: pc at c + 4, lr and the stack's
frame records pointing 8 bytes into b, a and main, then a 0 return
address that ends the chain. DYN_SIZE (default 64, all of it) is how
much of the 64-byte stack copy the kernel could fill.
"""
import os
import struct
import sys

IP, TID, TIME, REGS_USER, STACK_USER = 1, 2, 4, 1 << 12, 1 << 13
BASE = 0x7F0000000000
SP = 0x7FFFFFF000
PID = 4242


def rec(rtype, misc, payload):
    return struct.pack("<IHH", rtype, misc, 8 + len(payload)) + payload


def cstr(s, pad=8):
    b = s.encode() + b"\0"
    return b + bytes(-len(b) % pad)


def elf(path):
    """PT_LOAD (offset, vaddr, filesz, flags) and symbols of an ELF64 LE."""
    data = open(path, "rb").read()
    phoff, shoff = struct.unpack_from("<QQ", data, 0x20)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", data,
                                                            0x36)
    loads = []
    for i in range(phnum):
        p_type, p_flags, p_offset, p_vaddr, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", data, phoff + i * phentsize)
        if p_type == 1:
            loads.append((p_offset, p_vaddr, p_filesz, p_flags))
    shdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize)
             for i in range(shnum)]
    syms = {}
    for sh in shdrs:
        if sh[1] != 2:          # SHT_SYMTAB
            continue
        strtab = shdrs[sh[6]]
        for k in range(sh[5] // 24):
            name, info, _, _, value, _ = struct.unpack_from(
                "<IBBHQQ", data, sh[4] + k * 24)
            end = data.index(b"\0", strtab[4] + name)
            syms[data[strtab[4] + name:end].decode()] = value
    return loads, syms


def main():
    path = os.path.abspath(sys.argv[1])
    loads, syms = elf(path)
    out = struct.pack("<QQ", 0x32454C4946524550, 16)
    st = IP | TID | TIME | REGS_USER | STACK_USER
    attr = struct.pack("<IIQQQQQ", 1, 128, 0, 4000, st, 0, 0)
    attr += bytes(80 - len(attr)) + struct.pack("<QI", (1 << 33) - 1, 64)
    attr += bytes(128 - len(attr))
    out += rec(64, 0, attr + struct.pack("<Q", 1))
    if sys.argv[2] != "-":
        out += rec(80, 0, struct.pack("<QI", 6, 16) + cstr(sys.argv[2], 16))
    out += rec(3, 0, struct.pack("<II", PID, PID) + cstr("armprog"))
    for off, vaddr, filesz, flags in loads:
        start = BASE + (vaddr & ~0xFFF)
        end = BASE + ((vaddr + filesz + 0xFFF) & ~0xFFF)
        prot = (1 if flags & 4 else 0) | (2 if flags & 2 else 0) | \
            (4 if flags & 1 else 0)
        out += rec(10, 2, struct.pack("<IIQQQIIQQII", PID, PID, start,
                                      end - start, off & ~0xFFF, 0, 0, 0, 0,
                                      prot, 2) + cstr(path))
    regs = [0] * 33
    regs[30] = BASE + syms["b"] + 8
    regs[31] = SP
    regs[32] = BASE + syms["c"] + 4
    stack = struct.pack("<8Q", 0, BASE + syms["b"] + 8, 0,
                        BASE + syms["a"] + 8, 0, BASE + syms["main"] + 8,
                        0, 0)
    body = struct.pack("<QIIQ", regs[32], PID, PID, 1000)
    body += struct.pack("<Q", 2) + struct.pack("<33Q", *regs)
    body += struct.pack("<Q", len(stack)) + stack
    body += struct.pack("<Q", int(sys.argv[3]) if len(sys.argv) > 3
                        else len(stack))
    out += rec(9, 2, body)
    sys.stdout.buffer.write(out)


main()
