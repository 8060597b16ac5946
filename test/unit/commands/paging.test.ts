// The paging helper every list command uses: --limit is the most items, --all every item, --page
// one page; the JSON shape never changes; a server whose paging does not add up cannot keep it reading.
import { describe, expect, it } from 'vitest';
import { checkPaging, type FetchPage, hintMore, listingJson, MAX_PAGES, readList } from '../../../src/commands/paging.js';
import { ApiError, UsageError } from '../../../src/errors.js';

/** A server with `total` items 0..total-1 and a default page size. */
function server(total: number, defaultLimit = 10) {
  const requests: Array<{ page: number | undefined; limit: number | undefined }> = [];
  const fetch: FetchPage<number> = async (request) => {
    requests.push(request);
    const page = request.page ?? 1;
    const limit = request.limit ?? defaultLimit;
    const start = (page - 1) * limit;
    const data = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => start + i);
    return { data, meta: { page, limit, totalItems: total, totalPages: Math.ceil(total / limit) } };
  };
  return { fetch, requests };
}

describe('readList', () => {
  it('without flags reads one page of the server\'s size, asking for nothing', async () => {
    const { fetch, requests } = server(37);
    const listing = await readList(fetch, { all: false });
    expect(listing.data).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(requests).toEqual([{ page: undefined, limit: undefined }]);
    expect(listing.more).toBe(27);
    expect(listingJson(listing)).toEqual({ data: listing.data, meta: { page: 1, limit: 10, totalItems: 37, totalPages: 4 } });
  });

  it('--limit is the most items printed, over as many pages as it takes', async () => {
    const { fetch, requests } = server(437);
    const small = await readList(fetch, { all: false, limit: 5 });
    expect([small.data, small.more]).toEqual([[0, 1, 2, 3, 4], 432]);
    requests.length = 0;
    const large = await readList(fetch, { all: false, limit: 250 });
    expect(large.data).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(requests).toEqual([1, 2, 3].map((page) => ({ page, limit: 100 })));
    expect(large.more).toBe(187);
    const beyond = await readList(fetch, { all: false, limit: 1000 });
    expect([beyond.data.length, beyond.more]).toEqual([437, 0]);
  });

  it('--all reads every page and keeps the {data, meta} shape', async () => {
    const { fetch, requests } = server(205);
    const all = await readList(fetch, { all: true });
    expect(all.data).toHaveLength(205);
    expect(requests.map((r) => r.page)).toEqual([1, 2, 3]);
    expect(Object.keys(listingJson(all))).toEqual(['data', 'meta']);
  });

  it('--page reads that page, sized by --limit', async () => {
    const { fetch, requests } = server(37);
    const page = await readList(fetch, { all: false, page: 2, limit: 5 });
    expect([page.data, page.more, requests]).toEqual([[5, 6, 7, 8, 9], 27, [{ page: 2, limit: 5 }]]);
  });

  it('a filter reads pages until --limit items pass it, or all of them', async () => {
    const { fetch, requests } = server(1000);
    const even = await readList(fetch, { all: false, limit: 150 }, { filter: (n) => n % 2 === 0 });
    expect(even.data).toHaveLength(150);
    expect(even.data.at(-1)).toBe(298);
    expect(requests).toHaveLength(3);
    expect(even.more).toBe(1);
    const all = await readList(server(1000).fetch, { all: false }, { filter: (n) => n % 2 === 0 });
    expect([all.data.length, all.more]).toEqual([500, 0]);
  });

  it('stops, with an error, when the server ignores the page, sends too much, or never ends', async () => {
    const same: FetchPage<number> = async () => ({ data: [1, 2], meta: { page: 1, limit: 2, totalItems: 99, totalPages: 50 } });
    await expect(readList(same, { all: true })).rejects.toThrow(/page 2 is the same as page 1/);
    const big: FetchPage<number> = async ({ limit }) => ({ data: Array.from({ length: (limit ?? 10) + 1 }, (_, i) => i), meta: { page: 1, limit: 1, totalItems: 1, totalPages: 1 } });
    await expect(readList(big, { all: true })).rejects.toThrow(/a page of 101 items when at most 100 were asked for/);
    let calls = 0;
    const endless: FetchPage<number> = async ({ page }) => {
      calls++;
      return { data: [page ?? 0], meta: { page: page ?? 1, limit: 1, totalItems: 1e12, totalPages: 1e12 } };
    };
    await expect(readList(endless, { all: true })).rejects.toThrow(ApiError);
    expect(calls).toBe(MAX_PAGES);
  });

  it('refuses contradictory flags before anything is read', () => {
    expect(() => checkPaging({ all: true, limit: 5 })).toThrow(UsageError);
    expect(() => checkPaging({ all: true, page: 2 })).toThrow(UsageError);
    expect(() => checkPaging({ all: false, page: 1, limit: 101 })).toThrow('with --page, --limit is the page size: at most 100');
    expect(() => checkPaging({ all: false, page: 1 }, { filtered: true, filterFlag: '--custom' })).toThrow('--page cannot be combined with --custom');
    expect(() => checkPaging({ all: false, limit: 5000 })).not.toThrow();
  });
});

describe('hintMore', () => {
  async function hint(listing: Awaited<ReturnType<typeof readList<number>>>): Promise<string> {
    const lines: string[] = [];
    hintMore({ out: { hint: (text: string) => lines.push(text) } } as never, listing, 'prompts');
    return lines.join('\n');
  }

  it('says how many there are and how to get them', async () => {
    expect(await hint(await readList(server(37).fetch, { all: false }))).toBe('Showing 10 of 37 prompts. More: --limit 37, or --all');
    expect(await hint(await readList(server(37).fetch, { all: false, page: 2 }))).toBe('Page 2 of 4 (37 prompts). Next: --page 3, or --all');
    expect(await hint(await readList(server(37).fetch, { all: false, page: 9 }))).toBe('Page 9 is past the end: there are 4 pages of 10.');
    expect(await hint(await readList(server(37).fetch, { all: true }))).toBe('');
  });
});
