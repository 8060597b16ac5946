// Cuts a byte stream into chunks of whole lines (at newline bytes, so a multi-byte character is
// never split), about `size` bytes each. Memory holds one chunk and one unfinished line.

export async function* lineChunks(stream: AsyncIterable<unknown>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const take = (): Buffer => {
    const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    return all;
  };
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    pending.push(bytes);
    pendingBytes += bytes.length;
    if (pendingBytes < size) continue;
    const all = take();
    const cut = all.lastIndexOf(10);
    if (cut === -1) {
      pending = [all]; // one line longer than a chunk: read on
      pendingBytes = all.length;
      continue;
    }
    yield all.subarray(0, cut + 1);
    if (cut + 1 < all.length) {
      // A copy, so the remainder does not keep the whole chunk alive.
      pending = [Buffer.from(all.subarray(cut + 1))];
      pendingBytes = pending[0]!.length;
    }
  }
  if (pendingBytes > 0) yield take();
}
