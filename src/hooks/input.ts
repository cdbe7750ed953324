// A hook's input: JSON on stdin, read with a size bound and a time bound (a platform that
// never closes stdin must not hang the hook), and the workspace it is about.
import { resolve } from 'node:path';
import { findWorkspaceRoot } from '../config/workspace-root.js';

export interface HookInput {
  session_id?: string;
  transcript_path?: string | null;
  cwd?: string;
  hook_event_name?: string;
  /** SessionStart: startup | resume | clear | compact | fork. */
  source?: string;
  /** UserPromptSubmit. */
  prompt?: string;
  /** PreCompact: manual | auto. */
  trigger?: string;
  [k: string]: unknown;
}

export const MAX_INPUT_BYTES = 1024 * 1024;

export function readStdin(stream: NodeJS.ReadableStream & { isTTY?: boolean }, maxBytes: number, timeoutMs: number): Promise<string> {
  if (stream.isTTY) return Promise.resolve('');
  return new Promise((resolvePromise, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err?: Error): void => {
      clearTimeout(timer);
      stream.removeAllListeners('data');
      stream.removeAllListeners('end');
      stream.removeAllListeners('error');
      if ('pause' in stream) stream.pause();
      if (err) reject(err);
      else resolvePromise(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(() => finish(size ? undefined : new Error(`no hook input on stdin within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    stream.on('data', (d: Buffer | string) => {
      const b = typeof d === 'string' ? Buffer.from(d) : d;
      size += b.length;
      if (size > maxBytes) return finish(new Error(`hook input larger than ${maxBytes} bytes`));
      chunks.push(b);
    });
    stream.on('end', () => finish());
    stream.on('error', (e: Error) => finish(e));
  });
}

export function parseHookInput(text: string): HookInput {
  if (text.trim() === '') return {};
  const v: unknown = JSON.parse(text);
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('hook input is not a JSON object');
  return v as HookInput;
}

/** The workspace of a hook: `--dir`, else the nearest workspace up from the hook's cwd (the session's folder). */
export function hookWorkspace(dir: string | undefined, input: HookInput): string | null {
  if (dir) return resolve(dir);
  return findWorkspaceRoot(typeof input.cwd === 'string' && input.cwd ? input.cwd : process.cwd());
}
