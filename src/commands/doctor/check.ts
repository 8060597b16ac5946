// One check of `llmobs doctor`: what it found and, when something is wrong, what to do.

export type Status = 'ok' | 'warn' | 'fail' | 'skip';

export interface Check {
  id: string;
  title: string;
  status: Status;
  summary: string;
  details: string[];
  /** What to do about it (warn and fail only). */
  fix: string | null;
}

export const check = (id: string, title: string, status: Status, summary: string, extra: { details?: string[]; fix?: string | null } = {}): Check => ({
  id,
  title,
  status,
  summary,
  details: extra.details ?? [],
  fix: extra.fix ?? null,
});
