// "Export" of the traces list: every trace of the current filter as CSV, JSON or JSON Lines,
// written page by page as the list reads them, so memory stays flat whatever the count. A
// client that reads slowly holds the next page back (the socket's drain).
import type { ServerResponse } from 'node:http';
import { csvRow } from '../../core/csv.js';
import type { InternalApi } from './internal-api.js';
import { listTraces } from './traces-list.js';

export const EXPORT_FORMATS = ['csv', 'json', 'jsonl'] as const;
type Format = (typeof EXPORT_FORMATS)[number];

const TYPES: Record<Format, string> = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8', jsonl: 'application/jsonl; charset=utf-8' };
const COLUMNS = ['id', 'timestamp', 'name', 'userId', 'sessionId', 'environment', 'tags', 'latency', 'totalTokens', 'totalCost'] as const;

export function isExportFormat(value: string | null): value is Format {
  return (EXPORT_FORMATS as readonly (string | null)[]).includes(value);
}

export async function exportTraces(api: InternalApi, res: ServerResponse, params: URLSearchParams, format: Format): Promise<void> {
  const query = new URLSearchParams(params);
  query.delete('format');
  query.delete('cursor');
  query.set('limit', '100');
  const first = listTraces(api, query);
  if (!first.ok) {
    res.writeHead(first.status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(first.body));
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[format], 'content-disposition': `attachment; filename="traces.${format}"`, 'cache-control': 'no-store' });
  let page = first.body;
  let count = 0;
  if (format === 'csv') await write(res, csvRow(COLUMNS));
  if (format === 'json') await write(res, '[');
  for (;;) {
    let chunk = '';
    for (const row of page.data) {
      if (format === 'csv') chunk += csvRow(COLUMNS.map((column) => row[column]));
      else if (format === 'jsonl') chunk += `${JSON.stringify(row)}\n`;
      else chunk += `${count === 0 ? '' : ','}\n${JSON.stringify(row)}`;
      count++;
    }
    if (!(await write(res, chunk))) return;
    if (!page.nextCursor) break;
    query.set('cursor', page.nextCursor);
    const next = listTraces(api, query);
    // The list changed under the export in a way the cursor cannot follow: end it cut short.
    if (!next.ok) {
      res.destroy();
      return;
    }
    page = next.body;
  }
  if (format === 'json') await write(res, count === 0 ? ']\n' : '\n]\n');
  res.end();
}

/** Writes and waits for the socket when its buffer is full; false when the client went away. */
function write(res: ServerResponse, text: string): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (text === '' || res.write(text)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}
