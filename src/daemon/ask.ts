// Asking a running daemon to do a command's work: one JSON request line to the Unix domain
// socket it listens on (`.hipo/daemon.sock`, mode 0600: only this user; never a TCP port), one
// JSON answer line back. A one-shot command that can hand its work to the daemon skips reading
// the tree and loading the compaction code; when no daemon answers (none runs, the socket is
// stale, the answer is late) it does the work itself. Kept small: the CLI loads it at start-up.
import { connect } from 'node:net';
import type { RecallRequest } from '../context/recall-run.js';
import type { SearchRequest } from '../search/answer.js';
import { workspaceIdentity } from '../config/workspace-root.js';
import { MAX_TIMER_MS } from '../config/settings-source.js';
import { statePath } from '../state/dir.js';

/**
 * A request line longer than this is refused. Most requests are a few hundred characters; a
 * hook's carries its input, up to 1 MB (hooks/input.ts), and a prompt pasted whole is often tens
 * of kilobytes. The asking side does its own work for a longer one instead of sending it.
 */
export const MAX_REQUEST_CHARS = 2 * 1024 * 1024;

/** The longest socket path the platforms allow (104 bytes on macOS, 108 on Linux), with room. */
const MAX_SOCKET_PATH = 100;

/** Where the daemon listens, or null when the path is too long for a Unix socket. */
export function socketPath(ws: { stateDir: string }): string | null {
  const p = statePath(ws, 'daemonSocket');
  return Buffer.byteLength(p) <= MAX_SOCKET_PATH ? p : null;
}

/**
 * An agent's hook for the daemon to run (cli/hook-entry.ts): the event, the hook's JSON input
 * as it came on stdin, and how long the hook process had been running when it asked (its time
 * budget counts from its own start).
 */
export interface HookRequest {
  event: string;
  input: string;
  elapsedMs: number;
}

/**
 * What the daemon is asked. `clock` is where the asking command takes "today" from (its --now,
 * HIPO_NOW or HIPO_NOW_FILE) and `settings` what its settings are made from (config/settings-
 * source.ts): the daemon answers only a command that reads the same clock and settings as it
 * does, so its answer is what the command would have printed had it done the work itself.
 * `root` is the workspace the command is about (workspaceIdentity, set by askDaemon): a daemon
 * answers only for its own, so a workspace moved from under it is not served from its old paths.
 */
export type DaemonRequest = { clock: string | null; settings: string; root?: string | null } & (
  | { op: 'compact' }
  | { op: 'hook'; hook: HookRequest }
  | { op: 'search'; search: SearchRequest }
  | { op: 'recall'; recall: RecallRequest }
  | { op: 'ping' }
);

/** A request without what every request carries (the asking process's clock, settings digest and workspace). */
export type DaemonAsk = DaemonRequest extends infer R ? (R extends DaemonRequest ? Omit<R, 'clock' | 'settings' | 'root'> : never) : never;

export type DaemonAnswer<T> = { ok: true; result: T } | { ok: false; error: string };

/** Where "today" comes from for a process with this environment and --now. */
export function clockSource(env: NodeJS.ProcessEnv, now?: string): string | null {
  if (now) return `now:${now}`;
  if (env.HIPO_NOW) return `now:${env.HIPO_NOW}`;
  if (env.HIPO_NOW_FILE) return `file:${env.HIPO_NOW_FILE}`;
  return null;
}

/**
 * The daemon's answer, or null when no daemon took the request (not running, a stale socket,
 * a daemon that declines: another clock, stopping) or it did not answer within `timeoutMs`, or
 * the asker stopped first (`signal`: an MCP server whose session ended).
 */
export function askDaemon<T>(
  ws: { root: string; stateDir: string },
  request: DaemonRequest,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<DaemonAnswer<T> | null> {
  const path = socketPath(ws);
  if (!path || signal?.aborted) return Promise.resolve(null);
  const root = workspaceIdentity(ws.root);
  if (!root) return Promise.resolve(null);
  const line = `${JSON.stringify({ ...request, root })}\n`;
  if (line.length > MAX_REQUEST_CHARS) return Promise.resolve(null);
  return new Promise((resolve) => {
    let answered = false;
    let buf = '';
    const finish = (v: DaemonAnswer<T> | null): void => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      socket.destroy();
      resolve(v);
    };
    const stop = (): void => finish(null);
    const socket = connect(path);
    // A wait made of two settings (daemon-first.ts) may pass what a timer takes, which would fire at once.
    const timer = setTimeout(() => finish(null), Math.min(timeoutMs, MAX_TIMER_MS));
    signal?.addEventListener('abort', stop, { once: true });
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(line));
    socket.on('data', (d: string) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      try {
        const answer = JSON.parse(buf.slice(0, nl)) as DaemonAnswer<T> | { declined: string };
        finish('declined' in answer ? null : answer);
      } catch {
        finish(null);
      }
    });
    socket.on('error', () => finish(null));
    socket.on('close', () => finish(null));
  });
}
