// The MCP server under abuse: a FIFO named like a raw log, a request line larger than any
// buffer, a line that is not JSON. Each gets an answer, and the server keeps answering.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp } from '../helpers/mcp.js';
import { rawLog } from '../helpers/tree.js';
import { CLI, makeWorkspace } from '../helpers/workspace.js';

type Text = { content: { type: string; text: string }[]; isError?: boolean };
const text = (r: unknown): string => (r as Text).content.map((c) => c.text).join('\n');

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

describe('faults: the MCP server', () => {
  it('answers `get` on a FIFO inside memory/ with an error, and keeps answering', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-15.md': rawLog('2026-03-15', { 'fifo day [project]': ['a regular log'] }) });
    execFileSync('mkfifo', [join(ws.memoryDir, '2026-03-14.md')]);
    const client = await connectMcp(['--dir', ws.root, '--now', '2026-03-15'], { name: 'faults' });
    cleanup.push(() => client.close());
    const opts = { timeout: 5000 };
    const fifo = await client.callTool({ name: 'get', arguments: { path: '2026-03-14.md' } }, undefined, opts);
    expect((fifo as Text).isError).toBe(true);
    expect(text(fifo)).toContain('memory/2026-03-14.md: not a regular file');
    // The server is not stuck: the next calls (a context pack reads this week's raw logs too) answer.
    expect(text(await client.callTool({ name: 'get', arguments: { path: '2026-03-15.md' } }, undefined, opts))).toContain('a regular log');
    expect(text(await client.callTool({ name: 'context', arguments: { budget: 500 } }, undefined, opts))).toContain('a regular log');
    expect(text(await client.callTool({ name: 'status', arguments: {} }, undefined, opts))).toContain('"memoryDir"');
  }, 30_000);

  it('answers an oversized request and a line that is not JSON with errors, and keeps answering', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-15.md': rawLog('2026-03-15', { 'big [project]': ['a regular log'] }) });
    const child = spawn(process.execPath, [CLI, 'mcp', '--dir', ws.root, '--now', '2026-03-15'], {
      env: { ...process.env, HIPO_NOW: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanup.push(() => void child.kill());
    const replies = new Map<unknown, Record<string, unknown>>();
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      let i: number;
      while ((i = out.indexOf('\n')) >= 0) {
        const msg = JSON.parse(out.slice(0, i)) as Record<string, unknown>;
        out = out.slice(i + 1);
        replies.set(msg.id ?? `null-${replies.size}`, msg);
      }
    });
    let exited = false;
    const exit = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    void exit.then(() => (exited = true));
    child.stdin.on('error', () => {
      /* the server went away: the reply check says so */
    });
    const send = (o: unknown): boolean => child.stdin.write(`${JSON.stringify(o)}\n`);
    const reply = async (id: unknown, ms = 15_000): Promise<Record<string, unknown>> => {
      const end = Date.now() + ms;
      while (!replies.has(id)) {
        if (Date.now() > end) throw new Error(`no reply to request ${String(id)} (server ${exited ? 'exited' : 'mute'})`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return replies.get(id)!;
    };
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'faults', version: '1' } },
    });
    expect(await reply(1)).toHaveProperty('result');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // 12 MB in one line: over the SDK's 10 MB buffer and hipo's own limit.
    const huge = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'log', arguments: { text: 'x'.repeat(12 * 1024 * 1024) } },
    };
    await Promise.race([new Promise<void>((resolve) => (send(huge) ? resolve() : child.stdin.once('drain', () => resolve()))), exit]);
    const tooBig = await reply(2);
    expect(tooBig.error).toMatchObject({ code: -32600, message: expect.stringMatching(/request of \d+ bytes is over hipo's limit/) });
    child.stdin.write('{"jsonrpc":"2.0","id":3,"method":\n');
    expect((await reply(3)).error).toMatchObject({ code: -32700 });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'get', arguments: { path: '2026-03-15.md' } } });
    const got = await reply(4);
    expect(JSON.stringify(got.result)).toContain('a regular log');
    expect(ws.read('memory/2026-03-15.md')).not.toContain('xxxx');
    expect(exited).toBe(false);
  }, 60_000);
});
