// The ids a listing remembers: every repeat within the window is found, and memory stays flat.
import { describe, expect, it } from 'vitest';
import { RecentIds, REPEAT_WINDOW } from '../../../src/api/recent-ids.js';

describe('the ids a listing remembers', () => {
  it('find every repeat within REPEAT_WINDOW ids, and hold at most twice that many', () => {
    const recent = new RecentIds();
    const total = REPEAT_WINDOW * 2 + 10;
    for (let i = 0; i < total; i++) expect(recent.seen(`id-${i}`)).toBe(false);
    for (let i = total - REPEAT_WINDOW; i < total; i += 997) expect(recent.seen(`id-${i}`)).toBe(true);
    // The oldest are forgotten: memory stays flat however long the export.
    expect(recent.seen('id-0')).toBe(false);
  });
});
