// The tree follows the sessions without anyone running `hipo compact` or a daemon: after a capture
// hook archived new turns, it starts `hipo compact --catch-up` as a detached process and returns
// at once (a hook never waits for compaction); `--index` too while the prompt hook is on, so that
// the index it reads exists without a daemon or a `hipo index`. At most once per
// `agents.compactAfterCaptureMinutes`; never while a daemon runs (its watcher sees the append) or
// a compaction holds the writer lock. `HIPO_BACKGROUND_COMPACT=0` turns it off for a process
// tree (scripted runs, test suites), as a 0 in the config does for a workspace.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HipoConfig } from '../config/config.js';
import { atomicWriteFile } from '../fs/atomic.js';
import { readDaemonState, servesWorkspace } from '../state/daemon-record.js';
import { ensureStateDir } from '../state/dir.js';
import { lockHolder } from '../state/lock.js';
import type { Workspace } from '../tree/layout.js';

export type BackgroundCompaction = 'started' | 'off' | 'recent' | 'daemon' | 'busy' | 'no-cli';

/** The marker whose time is the last start (a file's mtime: one stat to check). */
const MARKER = 'background-compact';

export function compactInBackground(
  ws: Workspace,
  config: HipoConfig,
  opts: { now?: string; env?: NodeJS.ProcessEnv } = {},
): BackgroundCompaction {
  const env = opts.env ?? process.env;
  const minutes = config.agents.compactAfterCaptureMinutes;
  if (minutes <= 0 || env.HIPO_BACKGROUND_COMPACT === '0') return 'off';
  // The built command line beside this module; run from sources (no build) there is none.
  const cli = fileURLToPath(new URL('../cli.js', import.meta.url));
  if (!existsSync(cli)) return 'no-cli';
  const marker = join(ws.stateDir, MARKER);
  const at = Date.now();
  try {
    // A start dated ahead of now is no recent one: the clock went back since, and waiting for it
    // to catch up would leave the tree behind the sessions for as long as it went back.
    const age = at - statSync(marker).mtimeMs;
    if (age >= 0 && age < minutes * 60_000) return 'recent';
  } catch {
    /* never started here */
  }
  // A daemon started for another path (the workspace moved under it) does not follow this one.
  if (lockHolder(ws, 'daemonLock') && servesWorkspace(readDaemonState(ws), ws)) return 'daemon';
  if (lockHolder(ws)) return 'busy';
  ensureStateDir(ws);
  atomicWriteFile(marker, `${new Date(at).toISOString()}\n`);
  // The prompt hook searches an index and never builds one: the first compaction builds it.
  const index = config.agents.promptRecallHits > 0 ? ['--index'] : [];
  const args = [cli, 'compact', '--catch-up', ...index, '--dir', ws.root, ...(opts.now ? ['--now', opts.now] : [])];
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', env });
  child.on('error', () => {
    /* the next hook tries again after the interval; `hipo status` shows what is pending */
  });
  child.unref();
  return 'started';
}
