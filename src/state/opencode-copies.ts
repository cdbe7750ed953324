// The OpenCode plugin's copies of its sessions (`.hipo/opencode/<session>.jsonl`,
// platforms/opencode-plugin.ts). OpenCode keeps sessions in its own store, so the plugin writes a
// session's messages as a transcript for `hipo hook` to archive, and deletes it once the hook
// succeeded: it holds the conversation as typed, secrets included. A hook that could not capture
// (a config that does not load) leaves it for the capture taken in later (capture/pending.ts),
// which removes it then, as the plugin would have. A hook the plugin's time limit killed leaves
// it with no one to read it (the plugin writes it again, whole, at the session's next archive):
// such a left-over copy goes when the redaction rules change (cycle/reredact-state.ts), as a
// session that never comes back would otherwise keep it for good.
import { readFileSync, realpathSync, statSync, unlinkSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { removeIfUnchanged } from '../fs/atomic.js';
import type { Workspace } from '../tree/layout.js';
import { statePath, stateRecords } from './dir.js';

/** A copy changed this recently may be one the plugin's hook is reading now (the plugin waits 15 s for it). */
const IN_FLIGHT_MS = 60_000;

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether the transcript at `path` is a copy the OpenCode plugin wrote in `ws`. */
function isCopy(ws: Pick<Workspace, 'stateDir'>, path: string): boolean {
  return path.endsWith('.jsonl') && real(dirname(path)) === real(statePath(ws, 'openCodeCopies'));
}

/**
 * Removes the copy at `transcript` once a late capture archived it up to `archived` bytes: when it
 * is a copy and holds nothing past them (a plugin's hook writing it again with more keeps it).
 */
export function dropArchivedCopy(ws: Pick<Workspace, 'stateDir'>, transcript: string, archived: number): void {
  if (!isCopy(ws, transcript)) return;
  let bytes: Buffer;
  try {
    bytes = readFileSync(transcript);
  } catch {
    return;
  }
  if (bytes.length <= archived) removeIfUnchanged(transcript, bytes);
}

/**
 * Removes the copies no capture needs: neither one a waiting capture names (`waiting`, the
 * transcripts' paths) nor one changed in the last minute. Returns their paths. Throws when one
 * cannot be removed.
 */
export function removeLeftOverCopies(ws: Pick<Workspace, 'stateDir'>, waiting: readonly string[], now = Date.now()): string[] {
  const needed = new Set(waiting.filter((t) => isCopy(ws, t)).map(real));
  return stateRecords(ws, 'openCodeCopies', '.jsonl').filter((file) => {
    if (needed.has(real(file))) return false;
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || now - st.mtimeMs < IN_FLIGHT_MS) return false;
    try {
      unlinkSync(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false; // the plugin removed it meanwhile
      throw err;
    }
    return true;
  });
}
