"""Write ``Runtime/Sha256.cs``: SHA-256's compression function with its 64 rounds unrolled.

The deal hashes six short messages a game, and under Mono the framework's SHA-256 spends most of a
replay's time there; unrolled, with the message schedule in locals, the same function takes half of
that. The rounds are written out by this script, so the file is never edited by hand:
``tests/clients/test_csharp.py`` checks it is what this script writes.

    python3 clients/csharp/Tools~/make_sha256.py
"""

from pathlib import Path

TARGET = Path(__file__).resolve().parent.parent / "Runtime" / "Sha256.cs"

# FIPS 180-4, 4.2.2: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
ROUND_CONSTANTS = (
    0x428A2F98, 0x71374491, 0xB5C0FBCF, 0xE9B5DBA5, 0x3956C25B, 0x59F111F1, 0x923F82A4, 0xAB1C5ED5,
    0xD807AA98, 0x12835B01, 0x243185BE, 0x550C7DC3, 0x72BE5D74, 0x80DEB1FE, 0x9BDC06A7, 0xC19BF174,
    0xE49B69C1, 0xEFBE4786, 0x0FC19DC6, 0x240CA1CC, 0x2DE92C6F, 0x4A7484AA, 0x5CB0A9DC, 0x76F988DA,
    0x983E5152, 0xA831C66D, 0xB00327C8, 0xBF597FC7, 0xC6E00BF3, 0xD5A79147, 0x06CA6351, 0x14292967,
    0x27B70A85, 0x2E1B2138, 0x4D2C6DFC, 0x53380D13, 0x650A7354, 0x766A0ABB, 0x81C2C92E, 0x92722C85,
    0xA2BFE8A1, 0xA81A664B, 0xC24B8B70, 0xC76C51A3, 0xD192E819, 0xD6990624, 0xF40E3585, 0x106AA070,
    0x19A4C116, 0x1E376C08, 0x2748774C, 0x34B0BCB5, 0x391C0CB3, 0x4ED8AA4A, 0x5B9CCA4F, 0x682E6FF3,
    0x748F82EE, 0x78A5636F, 0x84C87814, 0x8CC70208, 0x90BEFFFA, 0xA4506CEB, 0xBEF9A3F7, 0xC67178F2,
)

HEAD = '''// Written by clients/csharp/Tools~/make_sha256.py: do not edit.
namespace Scoundrel.Referee
{
    /// <summary>
    /// SHA-256 (FIPS 180-4) for the deal's short messages, its rounds unrolled: under Mono it takes half
    /// the time of the framework's. The test runner holds it equal to System.Security.Cryptography's
    /// SHA-256 on messages of every length up to two blocks and beyond.
    /// </summary>
    internal static class Sha256
    {
        /// <summary>The digest of message[0, length), as eight big-endian words, into digest.</summary>
        internal static void Hash(byte[] message, int length, uint[] digest, uint[] block)
        {
            digest[0] = 0x6A09E667; digest[1] = 0xBB67AE85; digest[2] = 0x3C6EF372; digest[3] = 0xA54FF53A;
            digest[4] = 0x510E527F; digest[5] = 0x9B05688C; digest[6] = 0x1F83D9AB; digest[7] = 0x5BE0CD19;
            var padded = (length + 9 + 63) / 64 * 64; // the message, 0x80, zeros, and its length in bits
            for (var start = 0; start < padded; start += 64)
            {
                for (var word = 0; word < 16; word++)
                {
                    var first = start + word * 4;
                    if (first + 4 <= length)
                    {
                        block[word] = (uint)(message[first] << 24 | message[first + 1] << 16 |
                                             message[first + 2] << 8 | message[first + 3]);
                        continue;
                    }
                    uint value = 0; // the word holding the message's end, or past it
                    for (var at = first; at < first + 4; at++)
                        value = (value << 8) | (at < length ? message[at] : at == length ? 0x80u : 0u);
                    block[word] = value;
                }
                if (start + 64 == padded)
                {
                    block[14] = (uint)((ulong)length * 8 >> 32);
                    block[15] = (uint)((ulong)length * 8);
                }
                Compress(digest, block);
            }
        }

        private static void Compress(uint[] state, uint[] block)
        {
'''

TAIL = '''        }
    }
}
'''


def rotate(word: str, bits: int) -> str:
    """C# for ``word`` rotated right by ``bits``."""
    return f"(({word} >> {bits}) | ({word} << {32 - bits}))"


def rounds() -> list[str]:
    """FIPS 180-4, 6.2.2, one statement a line: the schedule kept in 16 locals, the variables renamed
    round by round instead of shifted."""
    lines = ["uint a = state[0], b = state[1], c = state[2], d = state[3], e = state[4], f = state[5], g = state[6],"
             " h = state[7], t1, t2;"]
    lines += [f"uint w{i} = block[{i}];" for i in range(16)]
    names = list("abcdefgh")
    for t, constant in enumerate(ROUND_CONSTANTS):
        a, b, c, d, e, f, g, h = names
        w = f"w{t % 16}"
        if t >= 16:
            x, y, z = f"w{(t - 15) % 16}", f"w{(t - 2) % 16}", f"w{(t - 7) % 16}"
            lines.append(f"{w} += {rotate(x, 7)} ^ {rotate(x, 18)} ^ ({x} >> 3);")
            lines.append(f"{w} += {z} + ({rotate(y, 17)} ^ {rotate(y, 19)} ^ ({y} >> 10));")
        lines.append(f"t1 = {h} + ({rotate(e, 6)} ^ {rotate(e, 11)} ^ {rotate(e, 25)})"
                     f" + (({e} & {f}) ^ (~{e} & {g})) + 0x{constant:08X}u + {w};")
        lines.append(f"t2 = ({rotate(a, 2)} ^ {rotate(a, 13)} ^ {rotate(a, 22)})"
                     f" + (({a} & {b}) ^ ({a} & {c}) ^ ({b} & {c}));")
        lines.append(f"{d} += t1;")
        lines.append(f"{h} = t1 + t2;")
        names = [h, a, b, c, d, e, f, g]
    lines += [f"state[{i}] += {name};" for i, name in enumerate("abcdefgh")]
    return lines


def sha256_module() -> str:
    return HEAD + "".join(f"            {line}\n" for line in rounds()) + TAIL


if __name__ == "__main__":
    TARGET.write_text(sha256_module(), encoding="utf-8")
