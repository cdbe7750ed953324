// What a running daemon tells `hipo status`: `.hipo/daemon.json`, rewritten (atomically) after
// every run. A record whose pid is dead describes a daemon that stopped or crashed.
import { readFileSync } from 'node:fs';
import { workspaceIdentity } from '../config/workspace-root.js';
import type { Workspace } from '../tree/layout.js';
import { ensureStateDir, statePath } from './dir.js';
import { atomicWriteFile } from '../fs/atomic.js';
import { redactValue } from '../redact/lines.js';
import type { Redactor } from '../redact/redactor.js';
import { workspaceRedactor } from '../redact/workspace.js';
import { rewriteRedactedJson } from './redaction.js';

interface DaemonRun {
  at: string;
  reason: string;
  cycles: number;
  written: number;
  errors: string[];
  ms: number;
  /** Nodes still to do after this run (a backlog drains over several runs). */
  pending: number;
}

export interface DaemonState {
  pid: number;
  host: string;
  /** The workspace it serves, as it was started (absent from a daemon of an earlier hipo). */
  root?: string;
  since: string;
  /** Set when the daemon stopped cleanly. */
  stoppedAt: string | null;
  runs: number;
  lastRun: DaemonRun | null;
  lastError: { at: string; message: string } | null;
  /** When the search index last matched the tree (null until the first update succeeds). */
  indexedAt: string | null;
}

function daemonStatePath(ws: Workspace): string {
  return statePath(ws, 'daemon');
}

export function writeDaemonState(ws: Workspace, state: DaemonState): void {
  try {
    ensureStateDir(ws);
    atomicWriteFile(daemonStatePath(ws), `${JSON.stringify(redactValue(workspaceRedactor(ws), state), null, 2)}\n`);
  } catch {
    /* status information only: a full disk must not stop the daemon */
  }
}

/**
 * Brings the record's last run and last error up to `redactor`'s rules, once after the rules
 * changed: an error may quote a node's line, and a daemon that is stopped writes it no more.
 * Returns its path when it was written again. Throws when it cannot be.
 */
export function reredactDaemonState(ws: Workspace, redactor: Redactor): string[] {
  const file = daemonStatePath(ws);
  const written = rewriteRedactedJson<DaemonState>(
    file,
    redactor,
    (state) =>
      state && typeof state === 'object'
        ? { ...state, lastRun: redactValue(redactor, state.lastRun), lastError: redactValue(redactor, state.lastError) }
        : state,
    (state) => `${JSON.stringify(state, null, 2)}\n`,
  );
  return written ? [file] : [];
}

export function readDaemonState(ws: Workspace): DaemonState | null {
  try {
    return JSON.parse(readFileSync(daemonStatePath(ws), 'utf8')) as DaemonState;
  } catch {
    return null;
  }
}

/**
 * Whether the daemon a record describes serves the workspace at `ws.root`. Its record (and its
 * lock) move with the folder; its paths do not: after `mv ws ws2` it still works on `ws`, and
 * commands in `ws2` must not count on it. A record without a root (an earlier hipo's) is taken
 * to serve where it lies.
 */
export function servesWorkspace(state: Pick<DaemonState, 'root'> | null, ws: { root: string }): boolean {
  if (!state?.root) return true;
  const its = workspaceIdentity(state.root);
  return its !== null && its === workspaceIdentity(ws.root);
}
