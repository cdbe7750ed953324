// hipo's own folder beside the tree (`.hipo/`), and the one list of what it holds. Everything in
// it is state hipo can rebuild or do without (locks, journal, caches, the search index): deleting
// the folder loses no memory. It ignores itself for git, so `git add -A` in a workspace never
// picks up caches. The modules of this folder (src/state/) read and write each file; other code
// asks `statePath` where a file is rather than naming it.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from '../tree/layout.js';

/** What `.hipo/` holds, by what it is for, and who reads and writes it. */
const STATE_FILES = {
  /** One compaction writer at a time (state/lock.ts). */
  writerLock: 'lock',
  /** Held while a daemon runs (state/lock.ts). */
  daemonLock: 'daemon.lock',
  /** One raw-log appender at a time, apart from compaction (state/lock.ts). */
  appendLock: 'append.lock',
  /** What each cycle did, redacted (state/journal.ts); rotated once to `journal.1.jsonl`. */
  journal: 'journal.jsonl',
  journalRotated: 'journal.1.jsonl',
  /** How far capture got in each agent session (state/sessions.ts), a file per session. */
  sessions: 'sessions',
  /** Captures a hook could not make while the config did not load, a file per session (state/pending-captures.ts). */
  pendingCaptures: 'pending-captures',
  /** What a running daemon tells `hipo status` (state/daemon-record.ts). */
  daemon: 'daemon.json',
  /** Where one-shot commands reach a running daemon (daemon/ask.ts). */
  daemonSocket: 'daemon.sock',
  /** Each file's record by size and mtime, so a cycle need not read unchanged files (state/stamp-cache.ts). */
  stamps: 'tree-cache.json',
  /** The model's backoff, failed nodes and ROOT narrative inputs (state/llm.ts). */
  llm: 'llm-state.json',
  /** Model answers by input hash (summarize/llm/cache.ts), a file per answer. */
  llmCache: 'llm-cache',
  /** The redaction rules the nodes and the state files were last brought up to (cycle/reredact.ts, reredact-state.ts). */
  redaction: 'redaction.json',
  /** Token counts of the nodes, by body hash (`hipo status`). */
  tokens: 'tokens.json',
  /** The search index: SQLite, FTS5 and vectors (index/db.ts). */
  index: 'index.db',
  /** Word vectors converted for fast loading, when the user cache folder is not writable (index/embed). */
  wordVectors: 'cache',
  /** Another tool's placeholder node (older versions: any node) kept before hipo replaced it (cycle/hand-edits.ts). */
  backup: 'backup',
  /** The OpenCode plugin's copy of a session's transcript, while hipo archives it (state/opencode-copies.ts). */
  openCodeCopies: 'opencode',
} as const;

export type StateFile = keyof typeof STATE_FILES;

/** Where `what` lives in the workspace's state folder. */
export function statePath(ws: Pick<Workspace, 'stateDir'>, what: StateFile): string {
  return join(ws.stateDir, STATE_FILES[what]);
}

/**
 * The records of a state folder that keeps one file each (sessions, pending captures, the model's
 * answers as `.json`; the OpenCode plugin's transcripts as `.jsonl`): their paths, none when the
 * folder is not there. Hidden names are a write in progress (fs/atomic.ts), not a record.
 */
export function stateRecords(ws: Pick<Workspace, 'stateDir'>, what: StateFile, ext = '.json'): string[] {
  const dir = statePath(ws, what);
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(ext) && !n.startsWith('.'))
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

export function ensureStateDir(ws: Pick<Workspace, 'stateDir'>): string {
  if (!existsSync(ws.stateDir)) {
    // Inside the workspace folder, never making it: a daemon whose workspace was moved away
    // must not leave a state folder where it used to be.
    try {
      mkdirSync(ws.stateDir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const ignore = join(ws.stateDir, '.gitignore');
  if (!existsSync(ignore)) {
    try {
      writeFileSync(ignore, '# hipo state: caches, journal, lock. Safe to delete.\n*\n');
    } catch {
      /* read-only: not worth failing for */
    }
  }
  return ws.stateDir;
}
