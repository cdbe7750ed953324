// The copies in `.hipo/backup/` (cycle/hand-edits.ts: another tool's placeholder node, and any
// node older versions replaced) are the user's safety copies of tree text, kept byte for byte
// when hipo replaced the node. Tree text may hold a secret that only newer rules catch, so once
// after the rules changed each copy is written again with only that redacted: kept, as it is
// the user's, but no longer holding what the rules find.
import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { replaceIfUnchanged } from '../fs/atomic.js';
import type { Redactor } from '../redact/redactor.js';
import { decodeText } from '../tree/text.js';
import type { Workspace } from '../tree/layout.js';
import { statePath } from './dir.js';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The files under `dir`, at any depth; links are not followed, hidden names are a write in progress (fs/atomic.ts). */
function filesUnder(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries.flatMap((e) => {
    if (e.name.startsWith('.')) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path) : e.isFile() ? [path] : [];
  });
}

/**
 * Brings every copy in `.hipo/backup/` up to `redactor`'s rules. A copy that is not text (binary)
 * is left; one written again is UTF-8 (with its byte order mark, if it had one), whatever it was
 * read as. Returns the paths of the copies written again. Throws when one cannot be read or written.
 */
export function reredactBackups(ws: Workspace, redactor: Redactor): string[] {
  return filesUnder(statePath(ws, 'backup')).filter((file) => {
    const bytes = readFileSync(file);
    const decoded = decodeText(bytes);
    if (!decoded.ok) return false;
    const text = redactor.redact(decoded.text).text;
    if (text === decoded.text) return false;
    const bom = decoded.encoding === 'utf-8' && bytes.subarray(0, 3).equals(UTF8_BOM);
    const data = Buffer.concat([bom ? UTF8_BOM : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
    // Durable: the copy may be all that is left of what the user wrote.
    if (!replaceIfUnchanged(file, data, bytes)) throw new Error(`${file} changed while being redacted`);
    return true;
  });
}
