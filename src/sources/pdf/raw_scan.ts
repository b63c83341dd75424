/**
 * Where a name (`/Count`, `/Image`) occurs in a PDF's raw bytes, found by the engine's native search instead of a
 * JavaScript loop over a common byte. A loop that stopped at every `/` of a paper (~4 000–16 000 turns) was
 * compiled by V8's optimising compiler during a server's first search, and that compiler's first use keeps ~3 MiB of
 * the process resident for good (#36: idle after one search). Decoding the bytes to a string for a regular
 * expression costs 4–15× the loop's CPU.
 */

/**
 * The byte positions where `needle` (ASCII, at least 6 characters) starts in `bytes`, in no particular order. The
 * bytes are searched as 16-bit units, natively: an occurrence at p holds the unit at p + 2 or the one at p + 3,
 * whichever is aligned, so two searches for two of its inner pairs find every occurrence, and only candidates
 * (rare pairs) are checked byte by byte.
 */
export function* positionsOf(bytes: Uint8Array, needle: string): Generator<number> {
  const code = Array.from(needle, (c) => c.charCodeAt(0));
  if (code.length < 6) throw new RangeError("positionsOf needs a needle of at least 6 characters");
  const base = bytes.byteOffset % 2;
  const units = new Uint16Array(bytes.buffer, bytes.byteOffset + base, (bytes.length - base) >> 1);
  // The pairs at offsets 2 and 3 of the needle as units, in this machine's byte order.
  const pairs = new Uint16Array(Uint8Array.of(code[2], code[3], code[3], code[4]).buffer);
  for (const [offset, unit] of [[2, pairs[0]], [3, pairs[1]]]) {
    for (let i = units.indexOf(unit); i >= 0; i = units.indexOf(unit, i + 1)) {
      const at = base + 2 * i - offset;
      if (at >= 0 && startsAt(bytes, code, at)) yield at;
    }
  }
}

function startsAt(bytes: Uint8Array, code: number[], at: number): boolean {
  for (let k = 0; k < code.length; k++) if (bytes[at + k] !== code[k]) return false;
  return true;
}
