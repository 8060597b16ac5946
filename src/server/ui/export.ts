// "Export" of the traces or observations list: every row of the current filter as CSV, JSON or
// JSON Lines, written page by page as the list reads them, so memory stays flat whatever the
// count, and the event loop runs other requests between pages. A client that reads slowly holds
// the next page back (the socket's drain).
import type { ServerResponse } from 'node:http';
import { csvRow } from '../../core/csv.js';
import { breathe as nextTurn } from '../http/json-stream.js';
import type { ServerReply } from '../http/router.js';
import type { InternalApi } from './internal-api.js';
import { listTraces } from './traces-list.js';

export const EXPORT_FORMATS = ['csv', 'json', 'jsonl'] as const;
type Format = (typeof EXPORT_FORMATS)[number];

const TYPES: Record<Format, string> = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8', jsonl: 'application/jsonl; charset=utf-8' };

/** One page of rows and the cursor of the next, or the list's error answer. */
type Page = { rows: Array<Record<string, unknown>>; next: string | null } | { error: ServerReply };

interface ExportedList {
  /** The CSV columns; JSON and JSON Lines carry each row whole. */
  columns: readonly string[];
  page(api: InternalApi, filter: URLSearchParams, cursor: string | null): Page | Promise<Page>;
}

const OBSERVATION_FILTERS = ['type', 'name', 'userId', 'level', 'traceId', 'environment', 'fromStartTime', 'toStartTime', 'version', 'sessionId'];

export const EXPORTED_LISTS: Record<string, ExportedList> = {
  traces: {
    columns: ['id', 'timestamp', 'name', 'userId', 'sessionId', 'environment', 'tags', 'latency', 'totalTokens', 'totalCost'],
    async page(api, filter, cursor) {
      const query = new URLSearchParams(filter);
      query.set('limit', '100');
      if (cursor) query.set('cursor', cursor);
      const page = await listTraces(api, query);
      return page.ok ? { rows: page.body.data as unknown as Array<Record<string, unknown>>, next: page.body.nextCursor } : { error: page };
    },
  },
  observations: {
    columns: ['id', 'traceId', 'parentObservationId', 'type', 'name', 'startTime', 'endTime', 'environment', 'level', 'userId', 'sessionId', 'providedModelName', 'modelId', 'usageDetails', 'costDetails', 'totalCost', 'usagePricingTierName', 'latency', 'input', 'output'],
    page(api, filter, cursor) {
      // Pages the size of a large trace answer's slices: each one's read is a turn of the event loop.
      const query = new URLSearchParams({ limit: '250', fields: 'core,basic,time,io,metadata,model,usage,prompt,metrics,trace_context' });
      for (const key of OBSERVATION_FILTERS) for (const value of filter.getAll(key)) if (value !== '') query.append(key, value);
      if (cursor) query.set('cursor', cursor);
      const reply = api.call('GET', '/api/public/v2/observations', query);
      if (reply.status !== 200) return { error: reply };
      const body = reply.body as { data: Array<Record<string, unknown>>; meta: { cursor?: string } };
      return { rows: body.data, next: body.meta.cursor ?? null };
    },
  },
};

export async function exportList(api: InternalApi, res: ServerResponse, kind: string, list: ExportedList, filter: URLSearchParams, format: Format): Promise<void> {
  let page = await list.page(api, filter, null);
  if ('error' in page) {
    res.writeHead(page.error.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(page.error.body ?? {}));
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[format], 'content-disposition': `attachment; filename="${kind}.${format}"`, 'cache-control': 'no-store' });
  let count = 0;
  if (format === 'csv' && !(await write(res, csvRow(list.columns)))) return;
  if (format === 'json' && !(await write(res, '['))) return;
  for (;;) {
    let chunk = '';
    for (const row of page.rows) {
      if (format === 'csv') chunk += csvRow(list.columns.map((column) => row[column]));
      else if (format === 'jsonl') chunk += `${JSON.stringify(row)}\n`;
      else chunk += `${count === 0 ? '' : ','}\n${JSON.stringify(row)}`;
      count++;
    }
    if (!(await write(res, chunk))) return;
    if (!page.next) break;
    page = await list.page(api, filter, page.next);
    // The list could not go on (its cursor refused): the download ends cut short, not as if whole.
    if ('error' in page) {
      res.destroy();
      return;
    }
  }
  if (format === 'json' && !(await write(res, count === 0 ? ']\n' : '\n]\n'))) return;
  res.end();
}

/**
 * Writes, waits for the socket when its buffer is full, then waits for a turn of the event loop
 * shared with the other requests' steps (json-stream.ts) before the next page is read (a 'drain'
 * alone can chain page after page inside one turn of the loop); false when the client went away.
 */
function write(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  const breathe = () => nextTurn().then(() => !res.destroyed);
  if (text === '' || res.write(text)) return breathe();
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok ? breathe() : false);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
