// `hipo mcp` lists its resources in pages: the SDK's own client over stdio, page by page, while
// nodes come and go between the requests.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCE_PAGE_SIZE } from '../../src/mcp/resources.js';
import { connectMcp } from '../helpers/mcp.js';
import { makeWorkspace } from '../helpers/workspace.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

const day = (i: number): string => new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
const two = (n: number): string => String(n).padStart(2, '0');
const node = (rel: string): string => `---\ntype: ${rel.split('/')[0]}\nstatus: fixed\n---\n\n# ${rel}\n`;

/** ROOT, 12 monthly and 52 weekly nodes of 2025, and dailies from 2025-01-01 up to two and a half pages in all. */
function tree(): { files: Record<string, string>; order: string[] } {
  const monthly = Array.from({ length: 12 }, (_, i) => `monthly/2025-${two(i + 1)}.md`);
  const weekly = Array.from({ length: 52 }, (_, i) => `weekly/2025-W${two(i + 1)}.md`);
  const dailies = Array.from({ length: RESOURCE_PAGE_SIZE * 2.5 - 65 }, (_, i) => `daily/${day(i)}.md`);
  const order = ['ROOT.md', ...monthly.reverse(), ...weekly.reverse(), ...dailies.reverse()];
  return { files: Object.fromEntries(order.map((rel) => [`memory/${rel}`, rel === 'ROOT.md' ? '# ROOT\n' : node(rel)])), order };
}

const names = (r: { resources: { name: string }[] }): string[] => r.resources.map((x) => x.name);

describe('hipo mcp: resources/list in pages', () => {
  it('lists every node once, in order, across pages while nodes are added and removed between them', async () => {
    const { files, order } = tree();
    const ws = makeWorkspace(files);
    const client = await connectMcp(['--dir', ws.root, '--now', '2026-03-15']);
    clients.push(client);

    const first = await client.listResources();
    expect(names(first)).toEqual(order.slice(0, RESOURCE_PAGE_SIZE));
    expect(first.resources[0]).toMatchObject({ uri: 'hipo://memory/ROOT.md', mimeType: 'text/markdown' });
    expect(first.resources[0]!.description).toContain('topics index');
    // A node's entry is its own: the node template's description is not repeated on each.
    expect(first.resources[1]).toEqual({
      uri: 'hipo://memory/monthly/2025-12.md',
      name: 'monthly/2025-12.md',
      title: 'Monthly summary 2025-12',
      mimeType: 'text/markdown',
    });
    expect(JSON.stringify(first).length).toBeLessThan(RESOURCE_PAGE_SIZE * 160);
    expect(first.nextCursor).toEqual(expect.any(String));
    // Between pages: two nodes that sort before the cursor, one that sorts after it, and the
    // node the cursor names removed. A count would now repeat a node; the cursor does not.
    ws.write('memory/monthly/2026-01.md', node('monthly/2026-01.md'));
    ws.write('memory/daily/2026-01-01.md', node('daily/2026-01-01.md'));
    ws.write('memory/daily/2024-12-31.md', node('daily/2024-12-31.md'));
    rmSync(join(ws.memoryDir, order[RESOURCE_PAGE_SIZE - 1]!));

    const second = await client.listResources({ cursor: first.nextCursor! });
    expect(names(second)).toEqual(order.slice(RESOURCE_PAGE_SIZE, 2 * RESOURCE_PAGE_SIZE));
    // One already listed goes: a count would now skip a node.
    rmSync(join(ws.memoryDir, order[RESOURCE_PAGE_SIZE]!));

    const third = await client.listResources({ cursor: second.nextCursor! });
    expect(third.nextCursor).toBeUndefined();
    // Every node there for the whole listing exactly once; the one added after the cursor too.
    const listed = [...names(first), ...names(second), ...names(third)];
    expect(listed).toEqual([...order, 'daily/2024-12-31.md']);
    const read = await client.readResource({ uri: third.resources.at(-1)!.uri });
    expect(read.contents[0]).toMatchObject({ text: node('daily/2024-12-31.md') });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['hipo://memory/{file}', 'hipo://memory/{level}/{file}']);

    // Those added before the cursor come in the next listing, the removed ones no more.
    const again: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      expect(page.resources.length).toBeLessThanOrEqual(RESOURCE_PAGE_SIZE);
      again.push(...names(page));
      cursor = page.nextCursor;
    } while (cursor);
    const removed = new Set([order[RESOURCE_PAGE_SIZE - 1], order[RESOURCE_PAGE_SIZE]]);
    expect(again).toEqual([
      'ROOT.md',
      'monthly/2026-01.md',
      ...order.slice(1, 65),
      'daily/2026-01-01.md',
      ...order.slice(65).filter((n) => !removed.has(n)),
      'daily/2024-12-31.md',
    ]);
  });

  it('answers a cursor it never gave with an invalid-params error that says so', async () => {
    const { files } = tree();
    const ws = makeWorkspace(files);
    const client = await connectMcp(['--dir', ws.root, '--now', '2026-03-15']);
    clients.push(client);
    for (const cursor of ['nonsense', 'daily/2025-02-30.md', '2025-01-01.md', '../hipo.config.json', ''])
      await expect(client.listResources({ cursor }), cursor).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining(`cursor ${JSON.stringify(cursor)} is not one this server gives`),
      });
    // The session goes on: the first page as ever.
    expect((await client.listResources()).resources).toHaveLength(RESOURCE_PAGE_SIZE);
  });
});
