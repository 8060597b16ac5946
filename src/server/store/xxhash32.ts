// xxHash32 (seed 0) of a string's UTF-8 bytes, as ClickHouse's xxHash32(String) computes it: the
// service orders observations whose start times tie by xxHash32(trace_id), and the v2 list and
// its cursor here follow the same order. Written from the algorithm's specification
// (github.com/Cyan4973/xxHash, doc/xxhash_spec.md).
const P1 = 2654435761;
const P2 = 2246822519;
const P3 = 3266489917;
const P4 = 668265263;
const P5 = 374761393;

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));
const round = (acc: number, lane: number) => Math.imul(rotl((acc + Math.imul(lane, P2)) | 0, 13), P1);
const u32 = (b: Uint8Array, i: number) => (b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)) >>> 0;

export function xxHash32(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  const length = bytes.length;
  let i = 0;
  let h: number;
  if (length >= 16) {
    let v1 = (P1 + P2) | 0;
    let v2 = P2 | 0;
    let v3 = 0;
    let v4 = -P1 | 0;
    for (; i + 16 <= length; i += 16) {
      v1 = round(v1, u32(bytes, i));
      v2 = round(v2, u32(bytes, i + 4));
      v3 = round(v3, u32(bytes, i + 8));
      v4 = round(v4, u32(bytes, i + 12));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = P5 | 0;
  }
  h = (h + length) | 0;
  for (; i + 4 <= length; i += 4) h = Math.imul(rotl((h + Math.imul(u32(bytes, i), P3)) | 0, 17), P4);
  for (; i < length; i++) h = Math.imul(rotl((h + Math.imul(bytes[i]!, P5)) | 0, 11), P1);
  h ^= h >>> 15;
  h = Math.imul(h, P2);
  h ^= h >>> 13;
  h = Math.imul(h, P3);
  h ^= h >>> 16;
  return h >>> 0;
}
