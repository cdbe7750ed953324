// The redaction rules hipo last brought the workspace up to (`.hipo/redaction.json`,
// Redactor.rulesKey): `nodes` for the tree's nodes (cycle/reredact.ts), `state` for what it
// keeps under `.hipo/` (cycle/reredact-state.ts). Missing (a workspace an older hipo wrote, or
// the file deleted): everything is looked at once more, which finds nothing to change in what is
// already redacted as now.
import { readFileSync } from 'node:fs';
import type { Workspace } from '../tree/layout.js';
import { atomicWriteFile, replaceIfUnchanged } from '../fs/atomic.js';
import { ensureStateDir, statePath } from './dir.js';
import type { Redactor } from '../redact/redactor.js';

interface RedactionFile {
  nodes?: string;
  state?: string;
}

export type RedactedPart = keyof RedactionFile;

function readRecord(ws: Workspace): RedactionFile {
  try {
    const parsed = JSON.parse(readFileSync(statePath(ws, 'redaction'), 'utf8')) as RedactionFile;
    const out: RedactionFile = {};
    if (typeof parsed.nodes === 'string') out.nodes = parsed.nodes;
    if (typeof parsed.state === 'string') out.state = parsed.state;
    return out;
  } catch {
    return {};
  }
}

/** The rules `part` was brought up to, or null when unknown. */
export function redactedWith(ws: Workspace, part: RedactedPart): string | null {
  return readRecord(ws)[part] ?? null;
}

/** Records that all of `part` is redacted under `rulesKey`. A failure costs one more look next run. */
export function recordRedactedWith(ws: Workspace, part: RedactedPart, rulesKey: string): void {
  try {
    ensureStateDir(ws);
    const file: RedactionFile = { ...readRecord(ws), [part]: rulesKey };
    atomicWriteFile(statePath(ws, 'redaction'), `${JSON.stringify(file)}\n`, { durable: false });
  } catch {
    /* a read-only state folder: it is looked at again next run */
  }
}

/** Times a state file that others write while it is redacted (a hook's journal line) is read again. */
const ATTEMPTS = 3;

/**
 * Rewrites the state file at `path` as `redact` makes its text, when that differs; over the version
 * read only (replaceIfUnchanged), so a line a hook appends meanwhile is not lost. Returns whether it
 * was rewritten; throws when it kept changing, or cannot be read or written.
 */
export function rewriteRedacted(path: string, redact: (text: string) => string): boolean {
  for (let i = 0; i < ATTEMPTS; i++) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
    const text = bytes.toString('utf8');
    const next = redact(text);
    if (next === text) return false;
    if (replaceIfUnchanged(path, next, bytes, { durable: false })) return true;
  }
  throw new Error('it kept changing while being redacted');
}

/**
 * rewriteRedacted for a state file holding one JSON document: `redact` gives the value with what
 * the rules find redacted (the value itself when there is nothing to redact or it is not one it
 * knows), written as `format` writes it; a file that does not parse is redacted as text (no one
 * reads it as a record, and it may hold anything).
 */
export function rewriteRedactedJson<T>(path: string, redactor: Redactor, redact: (value: T) => T, format: (value: T) => string): boolean {
  return rewriteRedacted(path, (text) => {
    let value: T;
    try {
      value = JSON.parse(text) as T;
    } catch {
      return redactor.redact(text).text;
    }
    const redacted = redact(value);
    return JSON.stringify(redacted) === JSON.stringify(value) ? text : format(redacted);
  });
}
