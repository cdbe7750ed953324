// Where a capture session's record lives (`.hipo/sessions/<id>.json`), and how far its transcript
// was archived, read without the rest of sessions.ts (which loads the redactor): a hook asking a
// running daemon first (cli/hook-entry.ts) checks how much of the transcript is still unread.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from '../tree/layout.js';
import { statePath } from './dir.js';

export function sessionsDir(ws: Pick<Workspace, 'stateDir'>): string {
  return statePath(ws, 'sessions');
}

/** A file name for a session id: the id itself when it is tame, else a hash of it. */
export function sessionFile(ws: Pick<Workspace, 'stateDir'>, sessionId: string): string {
  const safe =
    /^[A-Za-z0-9._-]{1,100}$/.test(sessionId) && !sessionId.startsWith('.')
      ? sessionId
      : createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
  return join(sessionsDir(ws), `${safe}.json`);
}

/** The transcript bytes the session's record says are archived: 0 with no record (or one that does not read). */
export function archivedOffset(ws: Pick<Workspace, 'stateDir'>, sessionId: string): number {
  try {
    const offset = (JSON.parse(readFileSync(sessionFile(ws, sessionId), 'utf8')) as { offset?: unknown }).offset;
    return typeof offset === 'number' && offset >= 0 ? offset : 0;
  } catch {
    return 0;
  }
}
