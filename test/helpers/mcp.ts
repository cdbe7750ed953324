// The MCP SDK's own client on the compiled CLI's `hipo mcp`, over stdio: how the tests talk to it.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach } from 'vitest';
import { CLI, REPO } from './workspace.js';

/**
 * A client connected to `hipo mcp` with `args` (e.g. `--dir`, `--now`), run in `cwd` with `env`
 * added; what the server writes on stderr is pushed to `stderr`. The caller closes it.
 */
export async function connectMcp(
  args: readonly string[],
  opts: { cwd?: string; name?: string; env?: NodeJS.ProcessEnv; stderr?: string[] } = {},
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    env: { ...process.env, HIPO_NOW: '', ...opts.env } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: opts.name ?? 'hipo-test', version: '1.0.0' });
  await client.connect(transport);
  transport.stderr?.on('data', (d: Buffer) => opts.stderr?.push(d.toString()));
  return client;
}

export interface RawMcp {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Starts the session and calls `tool` with `args` (JSON-RPC id 2), without waiting for the answer. */
  call(tool: string, args: Record<string, unknown>): void;
}

const raw: RawMcp[] = [];
afterEach(() => {
  for (const m of raw.splice(0)) if (m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
});

/**
 * `hipo mcp` with `args`, spoken to over its stdio directly (the SDK's client, on close, ends
 * the server itself after a while): for closing its stdin or signalling it mid-call.
 */
export function startRawMcp(args: readonly string[], env: NodeJS.ProcessEnv = {}): RawMcp {
  const child = spawn(process.execPath, [CLI, 'mcp', ...args], { cwd: REPO, env: { ...process.env, HIPO_NOW: '', ...env } });
  child.stdout.resume();
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const send = (m: unknown): boolean => child.stdin.write(`${JSON.stringify(m)}\n`);
  const m: RawMcp = {
    child,
    exited,
    stderr: () => stderr,
    call(tool, toolArgs) {
      const clientInfo = { name: 'hipo-test', version: '1.0.0' };
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: tool, arguments: toolArgs } });
    },
  };
  raw.push(m);
  return m;
}
