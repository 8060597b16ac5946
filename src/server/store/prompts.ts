// Prompt versions, their labels and tags, and the references each version was created with.
// The version row keeps the record whole (labels and tags in the order the server keeps them);
// `prompt_labels` and `prompt_tags` index them, and the first keeps each label on one version.
import type { PromptDependencyRecord, PromptRecord } from '../records.js';
import type { Statements } from './sqlite.js';

export interface PromptListFilter {
  name?: string | undefined;
  label?: string | undefined;
  tag?: string | undefined;
  version?: number | undefined;
  /** updatedAt >= this (ISO). */
  fromUpdatedAt?: string | undefined;
  /** updatedAt < this (ISO). */
  toUpdatedAt?: string | undefined;
}

/** A prompt name on the list's page, from its versions that match. */
export interface PromptListGroup {
  name: string;
  /** The versions' numbers, ascending. */
  versions: number[];
  /** Each version's labels and tags (from their index tables: no record is read for them). */
  labels: string[][];
  tags: string[][];
  updatedAts: string[];
  /** The highest version's record. */
  newest: PromptRecord;
}

export interface PromptListPage {
  /** The prompt names on the page that have a matching version, by name. */
  groups: PromptListGroup[];
  /** How many prompt names have a matching version. */
  totalNames: number;
}

/** A reference to prompt `childName` and the version that holds it. */
export interface Dependent {
  dependency: PromptDependencyRecord;
  parentName: string;
  parentVersion: number;
}

const parse = (row: { record: string }): PromptRecord => JSON.parse(row.record) as PromptRecord;

export class PromptStore {
  constructor(private readonly sql: Statements) {}

  /** The highest version of a prompt. */
  newest(name: string): PromptRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM prompts WHERE name = ? ORDER BY version DESC LIMIT 1', name);
    return row && parse(row);
  }

  get(name: string, version: number): PromptRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM prompts WHERE name = ? AND version = ?', name, version);
    return row && parse(row);
  }

  byId(id: string): PromptRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM prompts WHERE id = ?', id);
    return row && parse(row);
  }

  /** The version that holds `label`. */
  withLabel(name: string, label: string): PromptRecord | undefined {
    const row = this.sql.row<{ record: string }>(
      'SELECT p.record FROM prompt_labels l JOIN prompts p ON p.id = l.prompt_id WHERE l.name = ? AND l.label = ?',
      name,
      label,
    );
    return row && parse(row);
  }

  /** The versions that hold any of `labels`, highest first. */
  holdersOf(name: string, labels: readonly string[]): PromptRecord[] {
    if (labels.length === 0) return [];
    const rows = this.sql.rows<{ record: string }>(
      `SELECT DISTINCT p.record, p.version FROM prompt_labels l JOIN prompts p ON p.id = l.prompt_id
       WHERE l.name = ? AND l.label IN (SELECT value FROM json_each(?)) ORDER BY p.version DESC`,
      name,
      JSON.stringify(labels),
    );
    return rows.map(parse);
  }

  /** Every version of a prompt, lowest first. */
  versions(name: string): PromptRecord[] {
    return this.sql.rows<{ record: string }>('SELECT record FROM prompts WHERE name = ? ORDER BY version', name).map(parse);
  }

  /**
   * A prompt's version numbers below `before` (from the highest when undefined), highest first,
   * at most `limit`, each with its stored size: a page of versions without reading their records.
   */
  versionSizes(name: string, before: number | undefined, limit: number): Array<{ version: number; bytes: number }> {
    return this.sql.rows<{ version: number; bytes: number }>(
      'SELECT version, octet_length(record) AS bytes FROM prompts WHERE name = ? AND version < ? ORDER BY version DESC LIMIT ?',
      name,
      before ?? Number.MAX_SAFE_INTEGER,
      limit,
    );
  }

  /** How many versions a prompt has (from the index on name and version). */
  versionCount(name: string): number {
    return this.sql.row<{ n: number }>('SELECT COUNT(*) AS n FROM prompts WHERE name = ?', name)?.n ?? 0;
  }

  /** Each label of a prompt with the version that holds it, by label. */
  labelHolders(name: string): Array<{ label: string; version: number }> {
    return this.sql.rows<{ label: string; version: number }>(
      'SELECT l.label, p.version FROM prompt_labels l JOIN prompts p ON p.id = l.prompt_id WHERE l.name = ? ORDER BY l.label',
      name,
    );
  }

  /** Stores a new version with its references. */
  insert(record: PromptRecord, dependencies: readonly PromptDependencyRecord[]): void {
    this.sql.run('INSERT INTO prompts (id, name, version, updated_at, record) VALUES (?, ?, ?, ?, ?)', record.id, record.name, record.version, record.updatedAt, JSON.stringify(record));
    this.indexLabels(record);
    this.indexTags(record);
    for (const dependency of dependencies) {
      this.sql.run('INSERT INTO prompt_dependencies (id, parent_id, child_name, record) VALUES (?, ?, ?, ?)', dependency.id, dependency.parentId, dependency.childName, JSON.stringify(dependency));
    }
  }

  /**
   * Rewrites a stored version (labels, tags, updatedAt; the content never changes). A label still
   * held by another version makes this throw (SQLITE_CONSTRAINT): take it from there first.
   */
  update(record: PromptRecord): void {
    this.sql.run('UPDATE prompts SET updated_at = ?, record = ? WHERE id = ?', record.updatedAt, JSON.stringify(record), record.id);
    this.sql.run('DELETE FROM prompt_labels WHERE prompt_id = ?', record.id);
    this.sql.run('DELETE FROM prompt_tags WHERE prompt_id = ?', record.id);
    this.indexLabels(record);
    this.indexTags(record);
  }

  /**
   * Sets the tags of every version of a prompt (tags are one set per prompt) and their updatedAt,
   * in SQL: a prompt of thousands of versions is not read, parsed and written back one by one.
   * The record's text changes only there (json_set keeps the rest as it was written).
   */
  retag(name: string, tags: readonly string[], updatedAt: string): void {
    const list = JSON.stringify([...new Set(tags)]);
    this.sql.run(`UPDATE prompts SET updated_at = ?, record = json_set(record, '$.tags', json(?), '$.updatedAt', ?) WHERE name = ?`, updatedAt, list, updatedAt, name);
    this.sql.run('DELETE FROM prompt_tags WHERE prompt_id IN (SELECT id FROM prompts WHERE name = ?)', name);
    this.sql.run('INSERT INTO prompt_tags (prompt_id, tag) SELECT p.id, t.value FROM prompts p, json_each(?) t WHERE p.name = ?', list, name);
  }

  /** Deletes versions with their label and tag rows and the references they were created with. */
  delete(ids: readonly string[]): void {
    this.sql.run('DELETE FROM prompts WHERE id IN (SELECT value FROM json_each(?))', JSON.stringify(ids));
  }

  /**
   * The prompts list: filters apply to each version; the page is over prompt names (ascending),
   * and every matching version of those names comes back.
   */
  list(filter: PromptListFilter, page: { limit: number; offset: number }): PromptListPage {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.name !== undefined) {
      where.push('p.name = ?');
      params.push(filter.name);
    }
    if (filter.label !== undefined) {
      where.push('EXISTS (SELECT 1 FROM prompt_labels l WHERE l.prompt_id = p.id AND l.label = ?)');
      params.push(filter.label);
    }
    if (filter.tag !== undefined) {
      where.push('EXISTS (SELECT 1 FROM prompt_tags t WHERE t.prompt_id = p.id AND t.tag = ?)');
      params.push(filter.tag);
    }
    if (filter.version !== undefined) {
      where.push('p.version = ?');
      params.push(filter.version);
    }
    if (filter.fromUpdatedAt !== undefined) {
      where.push('p.updated_at >= ?');
      params.push(filter.fromUpdatedAt);
    }
    if (filter.toUpdatedAt !== undefined) {
      where.push('p.updated_at < ?');
      params.push(filter.toUpdatedAt);
    }
    const condition = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = this.sql.row<{ n: number }>(`SELECT COUNT(DISTINCT p.name) AS n FROM prompts p ${condition}`, ...params)?.n ?? 0;
    // Every matching version's number, labels, tags and time; only each name's newest record is
    // read whole: a prompt of thousands of versions is not parsed for its list entry.
    const rows = this.sql.valueRows(
      `SELECT p.id, p.name, p.version, p.updated_at,
         (SELECT json_group_array(l.label) FROM prompt_labels l WHERE l.prompt_id = p.id),
         (SELECT json_group_array(t.tag) FROM prompt_tags t WHERE t.prompt_id = p.id)
       FROM prompts p
       WHERE p.name IN (SELECT DISTINCT p.name FROM prompts p ${condition} ORDER BY p.name LIMIT ? OFFSET ?)
       ${where.length ? `AND ${where.join(' AND ')}` : ''}
       ORDER BY p.name, p.version`,
      ...params,
      page.limit,
      page.offset,
      ...params,
    ) as Array<[string, string, number, string, string, string]>;
    const groups: Array<Omit<PromptListGroup, 'newest'> & { newestId: string }> = [];
    for (const [id, name, version, updatedAt, labels, tags] of rows) {
      let group = groups[groups.length - 1];
      if (group?.name !== name) groups.push((group = { name, versions: [], labels: [], tags: [], updatedAts: [], newestId: id }));
      group.versions.push(version);
      group.labels.push(JSON.parse(labels) as string[]);
      group.tags.push(JSON.parse(tags) as string[]);
      group.updatedAts.push(updatedAt);
      group.newestId = id;
    }
    const newest = new Map(
      this.sql.rows<{ id: string; record: string }>('SELECT id, record FROM prompts WHERE id IN (SELECT value FROM json_each(?))', JSON.stringify(groups.map((g) => g.newestId))).map((row) => [row.id, parse(row)]),
    );
    return { groups: groups.map(({ newestId, ...group }) => ({ ...group, newest: newest.get(newestId)! })), totalNames: total };
  }

  /** The references a version was created with. */
  dependenciesOf(parentId: string): PromptDependencyRecord[] {
    return this.sql
      .rows<{ record: string }>('SELECT record FROM prompt_dependencies WHERE parent_id = ? ORDER BY rowid', parentId)
      .map((row) => JSON.parse(row.record) as PromptDependencyRecord);
  }

  /** Every stored reference to prompt `childName`, with the version that holds it. */
  dependentsOn(childName: string): Dependent[] {
    return this.sql
      .rows<{ record: string; parent_name: string; parent_version: number }>(
        `SELECT d.record, p.name AS parent_name, p.version AS parent_version
         FROM prompt_dependencies d JOIN prompts p ON p.id = d.parent_id WHERE d.child_name = ? ORDER BY d.rowid`,
        childName,
      )
      .map((row) => ({ dependency: JSON.parse(row.record) as PromptDependencyRecord, parentName: row.parent_name, parentVersion: row.parent_version }));
  }

  /** How many versions are stored, of every prompt. */
  count(): number {
    return this.sql.row<{ n: number }>('SELECT COUNT(*) AS n FROM prompts')?.n ?? 0;
  }

  private indexLabels(record: PromptRecord): void {
    for (const label of new Set(record.labels)) {
      this.sql.run('INSERT INTO prompt_labels (name, label, prompt_id) VALUES (?, ?, ?)', record.name, label, record.id);
    }
  }

  private indexTags(record: PromptRecord): void {
    for (const tag of new Set(record.tags)) this.sql.run('INSERT INTO prompt_tags (prompt_id, tag) VALUES (?, ?)', record.id, tag);
  }
}
