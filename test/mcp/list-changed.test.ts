// `hipo mcp` says when the set of nodes it lists changes (notifications/resources/list_changed),
// as its `resources: { listChanged: true }` capability promises: the SDK's own client over stdio,
// while nodes are written, rewritten and removed beside the running server.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { spawn } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcp } from '../helpers/mcp.js';
import { CLI, makeWorkspace } from '../helpers/workspace.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

const daily = (day: string, line: string): string =>
  `---\ntype: daily\nstatus: fixed\nperiod: ${day}\n---\n\n# Daily Summary: ${day}\n\n## Key Decisions\n- ${line}\n`;

/** Polls `check` until it holds, or fails after `ms` naming `what`. */
async function until(check: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits `ms`: the quiet period a notification that should not come would have come in. */
const quiet = (ms = 1500): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A client connected to `hipo mcp` on `root`, counting the list_changed notifications it gets. */
async function listening(root: string): Promise<{ client: Client; count: () => number }> {
  const client = await connectMcp(['--dir', root, '--now', '2026-03-16']);
  clients.push(client);
  let n = 0;
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    n++;
  });
  return { client, count: () => n };
}

describe('hipo mcp: notifications/resources/list_changed', () => {
  it('is sent when a node comes or goes, not when a node is rewritten', async () => {
    const ws = makeWorkspace({
      'memory/2026-03-14.md': '# 2026-03-14\n\n## sessions [project]\n- sessions move to redis\n',
      'memory/daily/2026-03-14.md': daily('2026-03-14', 'sessions move to redis'),
    });
    const { client, count } = await listening(ws.root);
    expect((await client.getServerCapabilities())?.resources?.listChanged).toBe(true);
    const names = async (): Promise<string[]> => (await client.listResources()).resources.map((r) => r.name);
    expect(await names()).toEqual(['daily/2026-03-14.md']);

    ws.write('memory/daily/2026-03-15.md', daily('2026-03-15', 'invoices go out on the 3rd'));
    await until(() => count() === 1, 'a notification for the new daily node');
    expect(await names()).toEqual(['daily/2026-03-15.md', 'daily/2026-03-14.md']);

    // A node's content rewritten, in place and as hipo writes it (a hidden file renamed over
    // it), and a raw log appended to: the listing is the same, so no notification.
    ws.write('memory/daily/2026-03-14.md', daily('2026-03-14', 'sessions move to redis, with a TTL'));
    writeFileSync(join(ws.memoryDir, 'daily', '.2026-03-15.md.tmp'), daily('2026-03-15', 'invoices go out on the 4th'));
    renameSync(join(ws.memoryDir, 'daily', '.2026-03-15.md.tmp'), join(ws.memoryDir, 'daily', '2026-03-15.md'));
    ws.write('memory/2026-03-14.md', `${ws.read('memory/2026-03-14.md')}- TTL of a day\n`);
    await quiet();
    expect(count()).toBe(1);

    // A node removed; a level folder that was not there made with its first node; ROOT.md written.
    rmSync(join(ws.memoryDir, 'daily', '2026-03-14.md'));
    await until(() => count() === 2, 'a notification for the removed node');
    ws.write('memory/weekly/2026-W11.md', '---\ntype: weekly\nstatus: tentative\nperiod: 2026-W11\n---\n\n# Weekly Summary: 2026-W11\n');
    await until(() => count() === 3, 'a notification for the first weekly node');
    ws.write('memory/ROOT.md', '---\ntype: root\n---\n\n# ROOT\n');
    await until(() => count() === 4, 'a notification for ROOT.md');
    expect(await names()).toEqual(['ROOT.md', 'weekly/2026-W11.md', 'daily/2026-03-15.md']);
  });

  it('sends one notification for a burst of nodes written together', async () => {
    const ws = makeWorkspace({ 'memory/daily/2026-03-01.md': daily('2026-03-01', 'first') });
    const { client, count } = await listening(ws.root);
    for (let d = 2; d <= 13; d++) {
      const day = `2026-03-${String(d).padStart(2, '0')}`;
      ws.write(`memory/daily/${day}.md`, daily(day, `decision ${d}`));
    }
    await until(() => count() >= 1, 'a notification for the burst');
    await quiet();
    expect(count()).toBe(1);
    expect((await client.listResources()).resources).toHaveLength(13);
  });

  it('is sent once the memory folder, absent at the start, is made with a node', async () => {
    const ws = makeWorkspace();
    rmSync(ws.memoryDir, { recursive: true });
    const { client, count } = await listening(ws.root);
    expect((await client.listResources()).resources).toEqual([]);
    mkdirSync(join(ws.memoryDir, 'daily'), { recursive: true });
    ws.write('memory/daily/2026-03-15.md', daily('2026-03-15', 'the memory folder came back'));
    await until(() => count() >= 1, 'a notification for the new memory folder');
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(['daily/2026-03-15.md']);
  });

  it('serves the workspace once a config broken at the start is fixed, and says the list changed', async () => {
    const ws = makeWorkspace({ 'memory/daily/2026-03-14.md': daily('2026-03-14', 'sessions move to redis') });
    const config = join(ws.root, 'hipo.config.json');
    writeFileSync(config, '{ "timeZone": ');
    const { client, count } = await listening(ws.root);
    const status = async (): Promise<{ isError?: boolean; text: string }> => {
      const r = (await client.callTool({ name: 'status', arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      return { isError: r.isError, text: r.content.map((c) => c.text).join('\n') };
    };
    expect(await status()).toMatchObject({ isError: true, text: expect.stringContaining(`hipo: ${config}: `) });
    expect((await client.listResources()).resources).toEqual([]);

    // Fixed with no call in between: the server hears of it from the file, not from a request.
    writeFileSync(config, JSON.stringify({ timeZone: 'UTC' }));
    await until(() => count() === 1, 'a notification once the config loads');
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(['daily/2026-03-14.md']);
    expect((await status()).isError).toBeUndefined();
    // The memory folder is watched from then on.
    ws.write('memory/daily/2026-03-15.md', daily('2026-03-15', 'invoices go out on the 3rd'));
    await until(() => count() === 2, 'a notification for a node written after the fix');

    // Broken while serving: the list is empty (as every tool says why), and it comes back once fixed.
    writeFileSync(config, '{ "timeZone": "UTC", }');
    await until(() => count() === 3, 'a notification once the config breaks');
    expect((await client.listResources()).resources).toEqual([]);
    expect(await status()).toMatchObject({ isError: true, text: expect.stringContaining(`hipo: ${config}: `) });
    writeFileSync(config, JSON.stringify({ timeZone: 'UTC' }));
    await until(() => count() === 4, 'a notification once the config is fixed again');
    expect((await client.listResources()).resources).toHaveLength(2);
    expect((await status()).isError).toBeUndefined();
  });

  it('follows the memory folder the config moves to', async () => {
    const ws = makeWorkspace({
      'memory/daily/2026-03-14.md': daily('2026-03-14', 'in the first folder'),
      'notes/daily/2026-03-15.md': daily('2026-03-15', 'in the second folder'),
    });
    const { client, count } = await listening(ws.root);
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC', memoryDir: 'notes' }));
    await until(() => count() === 1, 'a notification once the config names another memory folder');
    expect((await client.listResources()).resources.map((r) => r.name)).toEqual(['daily/2026-03-15.md']);
    ws.write('notes/daily/2026-03-16.md', daily('2026-03-16', 'written in the new folder'));
    await until(() => count() === 2, 'a notification for a node in the new memory folder');
    ws.write('memory/daily/2026-03-16.md', daily('2026-03-16', 'written in the old folder'));
    await quiet();
    expect(count()).toBe(2);
  });

  it('waits for the client to say it is initialized', async () => {
    const ws = makeWorkspace({ 'memory/daily/2026-03-14.md': daily('2026-03-14', 'first') });
    const child = spawn(process.execPath, [CLI, 'mcp', '--dir', ws.root, '--now', '2026-03-16'], {
      env: { ...process.env, HIPO_NOW: '' },
    });
    const lines: string[] = [];
    let buf = '';
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      lines.push(...parts);
    });
    try {
      const send = (m: unknown): boolean => child.stdin.write(`${JSON.stringify(m)}\n`);
      const clientInfo = { name: 'hipo-test', version: '1.0.0' };
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo } });
      await until(() => lines.some((l) => l.includes('"id":1')), 'the initialize answer');
      const changed = (): number => lines.filter((l) => l.includes('notifications/resources/list_changed')).length;
      ws.write('memory/daily/2026-03-15.md', daily('2026-03-15', 'before the client is ready'));
      await quiet();
      expect(changed()).toBe(0);
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      ws.write('memory/daily/2026-03-16.md', daily('2026-03-16', 'once the client is ready'));
      await until(() => changed() === 1, 'a notification once initialized');
    } finally {
      child.kill('SIGKILL');
    }
  });
});
