// An index built under other redaction rules (an older hipo's, other `redactPatterns`) may hold,
// in the chunks of files that did not change since, a secret the rules in force find. The rules
// the index was last brought up to are kept in its meta table (Redactor.rulesKey); when they
// differ, each file's stored chunks are redacted with the rules in force, and a file where they
// find something is marked due (REDACTION_DUE), so the update reads it again. Its chunks whose
// text did not change keep their vectors (update.ts keeps chunks by hash): only the changed ones
// are embedded again.
import type { Redactor } from '../redact/redactor.js';
import { readMeta, stmt, writeMeta, type IndexDb } from './db.js';

/** The hash of a file to read again for the rules in force: never a file's real hash. */
export const REDACTION_DUE = 'redaction-due';

const META_KEY = 'redaction';

/**
 * Marks the files whose stored chunks the rules in force would redact further, once after the
 * rules changed; records the rules. Returns how many files were marked.
 */
export function markRedactionDue(db: IndexDb, redactor: Redactor): number {
  if (readMeta(db, META_KEY) === redactor.rulesKey) return 0;
  return db
    .transaction(() => {
      const due: number[] = [];
      let file = -1;
      let parts: string[] = [];
      const check = (): void => {
        // A file's chunks together, in line order: a rule that needs the line before sees it.
        if (file !== -1 && redactor.find(parts.join('\n')).length > 0) due.push(file);
      };
      const rows = stmt(
        db,
        'SELECT file_id AS f, heading_path AS h, text AS t FROM chunks ORDER BY file_id, line_start',
      ).iterate() as Iterable<{
        f: number;
        h: string;
        t: string;
      }>;
      for (const r of rows) {
        if (r.f !== file) {
          check();
          file = r.f;
          parts = [];
        }
        parts.push(r.h, r.t);
      }
      check();
      const mark = stmt(db, 'UPDATE files SET hash = ?, mtime_ms = -1 WHERE id = ?');
      for (const id of due) mark.run(REDACTION_DUE, id);
      writeMeta(db, META_KEY, redactor.rulesKey);
      return due.length;
    })
    .immediate();
}

/**
 * After the files due for the rules in force were read again: the full-text index is merged into
 * one segment, which drops the terms of deleted rows that deletion only marks, and the file is
 * rewritten whole (VACUUM), since an index an older hipo wrote without `secure_delete` keeps
 * old copies of rewritten rows in its pages; the log is then written into the file and emptied.
 * Returns why it could not be (a full disk, a busy file), or null.
 */
export function purgeDeleted(db: IndexDb): string | null {
  try {
    stmt(db, "INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')").run();
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
    return null;
  } catch (err) {
    const why = (err as Error).message;
    const until = 'until `hipo index --rebuild`';
    return `the index file could not be rewritten after the redaction rules changed (${why}): what they now redact may stay in it ${until}`;
  }
}
