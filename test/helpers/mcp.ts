// The MCP SDK's own client on the compiled CLI's `hipo mcp`, over stdio: how the tests talk to it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI } from './workspace.js';

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
