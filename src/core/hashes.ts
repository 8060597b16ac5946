// Hashes for cache file names, without loading node:crypto where a secret is not involved: it
// brings the stream modules with it, at the start of every command that reads a cache.

/**
 * A 64-bit hash of a text, in hexadecimal (two 32-bit FNV-1a lanes, each finished with murmur3's
 * mix): names a cache file by what it holds. Not for secrets.
 */
export function nameHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
  }
  const mix = (h: number) => {
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  };
  return mix(a).toString(16).padStart(8, '0') + mix(b ^ a).toString(16).padStart(8, '0');
}

/** SHA-256 in hexadecimal, node:crypto loaded on first use: for what derives from a secret. */
export function sha256Hex(text: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');
}
