/** Shows enough of a key to recognise it, never enough to use it: `sk-lf-…9f3a`. */
export function maskKey(key: string | undefined): string {
  if (!key) return '';
  const prefix = /^(pk|sk)-lf-/.exec(key)?.[0];
  if (prefix && key.length >= prefix.length + 8) return `${prefix}…${key.slice(-4)}`;
  if (key.length >= 12) return `${key.slice(0, 2)}…${key.slice(-4)}`;
  return '…';
}

/**
 * Every form in which a secret may come back in text: as written, URL-encoded, JSON-escaped,
 * as hex (a proxy's or server's debugging dump of the header), and inside base64 (standard or URL-safe alphabet, padded or not) at any of the three byte
 * alignments, which covers the `Basic base64(public:secret)` header a server or proxy echoes.
 * For base64, only the characters that depend on the secret's bytes alone are kept, so the
 * secret is found whatever comes before or after it in the encoded text.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const bytes = Buffer.from(secret, 'utf8');
  if (bytes.length >= 8) {
    forms.add(bytes.toString('hex'));
    forms.add(bytes.toString('hex').toUpperCase());
    for (let shift = 0; shift < 3; shift++) {
      const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
      const core = encoded.slice(Math.ceil((8 * shift) / 6), Math.floor((8 * (shift + bytes.length)) / 6));
      forms.add(core);
      forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  for (const form of [...forms]) {
    const encoded = encodeURIComponent(form);
    forms.add(encoded);
    forms.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
    forms.add(form.replace(/\//g, '\\/'));
    forms.add(JSON.stringify(form).slice(1, -1));
  }
  return [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
}

// A Langfuse secret key anywhere in text, even one llmobs was not given (pasted into a URL).
const SECRET_KEY_SHAPE = /sk-lf-[0-9A-Za-z][0-9A-Za-z_-]{6,}/g;

/** Replaces anything shaped like a Langfuse secret key. */
export function redactKeyShapes(text: string): string {
  return text.includes('sk-lf-') ? text.replace(SECRET_KEY_SHAPE, 'sk-lf-[redacted]') : text;
}
