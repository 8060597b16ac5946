// The project's own model definitions (the built-in catalogue is not stored: it ships with llmobs).
import type { ModelRecord } from '../records.js';
import type { Statements } from './sqlite.js';

/** A definition's stored text read back. */
const modelOfText = (text: string): ModelRecord => JSON.parse(text) as ModelRecord;

const parse = (row: { record: string }): ModelRecord => modelOfText(row.record);

/** Records written and not yet read back that a store keeps (see `allTexts`). */
const WRITTEN_KEPT = 20_000;

export class ModelStore {
  constructor(private readonly sql: Statements) {}

  /**
   * How many writes of definitions this store has made (a rolled-back one counts too): what is
   * derived from the definitions can be kept while it stays the same.
   */
  changes = 0;

  /**
   * Every definition of the project as its stored text, oldest first, each given to `read` with a
   * way to its record: a caller that keeps what it made of each text makes it again only for the
   * texts that changed. A record this store wrote since the last call is the one it was given,
   * not parsed again (a text that a rolled-back write left is never read, and is forgotten here).
   */
  allTexts<T>(read: (text: string, record: () => ModelRecord) => T): T[] {
    const written = this.written;
    this.written = new Map();
    return this.sql.valueRows('SELECT record FROM models ORDER BY rowid').map((row) => {
      const text = row[0] as string;
      return read(text, () => written.get(text) ?? modelOfText(text));
    });
  }

  /** The records written since `allTexts` was last called, by their text (at most WRITTEN_KEPT). */
  private written = new Map<string, ModelRecord>();

  get(id: string): ModelRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM models WHERE id = ?', id);
    return row && parse(row);
  }

  /** The definition named `modelName`, if any. */
  named(modelName: string): ModelRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM models WHERE model_name = ?', modelName);
    return row && parse(row);
  }

  /** Creates a definition, or replaces the one with the same id (keeping its place in `allTexts`). */
  put(record: ModelRecord): void {
    this.changes++;
    const text = JSON.stringify(record);
    if (this.written.size >= WRITTEN_KEPT) this.written.clear();
    this.written.set(text, record);
    this.sql.run(
      `INSERT INTO models (id, model_name, record) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET model_name = excluded.model_name, record = excluded.record`,
      record.id,
      record.modelName,
      text,
    );
  }

  /**
   * When each model was last used: the start time of its latest generation, by model id (the
   * project's definitions and the built-in ones alike). A model never used has no entry.
   */
  lastUsed(): Map<string, string> {
    const rows = this.sql.rows<{ model_id: string; last_used: string }>('SELECT model_id, last_used FROM model_use');
    return new Map(rows.map((row) => [row.model_id, row.last_used]));
  }

  /** Moves each model's last use forward to the time given, where that is later than the stored one. */
  noteUse(latest: ReadonlyMap<string, string>): void {
    for (const [modelId, at] of latest) {
      this.sql.run(
        `INSERT INTO model_use (model_id, last_used) VALUES (?, ?)
         ON CONFLICT (model_id) DO UPDATE SET last_used = max(last_used, excluded.last_used)`,
        modelId,
        at,
      );
    }
  }

  /** Deletes a definition; false when there was none. */
  delete(id: string): boolean {
    this.changes++;
    return this.sql.run('DELETE FROM models WHERE id = ?', id) > 0;
  }
}
