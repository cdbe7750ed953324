// `hipo mcp` end to end: the SDK's own client talks to the compiled CLI over stdio.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Database from 'better-sqlite3';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { completion, startFakeLlm } from '../helpers/llm-server.js';
import { asideSession, cleaningAdvice } from '../helpers/conversation.js';
import { connectMcp, startRawMcp } from '../helpers/mcp.js';
import { makeWorkspace, runCli } from '../helpers/workspace.js';

type Text = { content: { type: string; text: string }[]; isError?: boolean };

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function connect(dir: string): Promise<Client> {
  const client = await connectMcp(['--dir', dir, '--now', '2026-03-15']);
  clients.push(client);
  return client;
}

const text = (r: unknown): string => (r as Text).content.map((c) => c.text).join('\n');

describe('hipo mcp', () => {
  it('lists its tools with descriptions and input schemas', async () => {
    const ws = makeWorkspace();
    const client = await connect(ws.root);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const name of ['search', 'context', 'recall', 'get', 'log', 'status']) {
      expect(byName[name]?.description?.length).toBeGreaterThan(40);
      expect(byName[name]?.inputSchema.type).toBe('object');
    }
    expect(byName.get!.inputSchema.required).toEqual(['path']);
    expect(byName.log!.inputSchema.properties).toHaveProperty('type');
  });

  it('logs an entry, reads it back with get, shows it in context and status', async () => {
    const ws = makeWorkspace();
    const client = await connect(ws.root);
    const logged = await client.callTool({
      name: 'log',
      arguments: {
        text: 'sessions live in Postgres, not Redis; token ghp_abcdefghijklmnopqrstuvwxyz0123456789',
        type: 'project',
        topic: 'session storage',
      },
    });
    expect(text(logged)).toContain('appended to memory/2026-03-15.md: ## session storage [project]');
    const raw = ws.read('memory/2026-03-15.md');
    expect(raw).toContain('- sessions live in Postgres, not Redis; token [REDACTED:github-token]');

    const got = await client.callTool({ name: 'get', arguments: { path: 'memory/2026-03-15.md:3:2' } });
    expect(text(got)).toMatch(
      /^memory\/2026-03-15\.md lines 3-4 of 5\n {4}3 {2}## session storage \[project\] · \d\d:\d\d\n {4}4 {2}- sessions live in Postgres/,
    );
    // An agent's own file tools name files by absolute path, and status shows the memory folder's.
    const absolute = await client.callTool({ name: 'get', arguments: { path: `${join(ws.root, 'memory', '2026-03-15.md')}:3:2` } });
    expect(text(absolute)).toBe(text(got));
    const slash = await client.callTool({ name: 'get', arguments: { path: '/2026-03-15.md:3:2' } });
    expect(text(slash)).toBe(text(got));
    const outside = await client.callTool({ name: 'get', arguments: { path: '../hipo.config.json' } });
    expect((outside as Text).isError).toBe(true);
    expect(text(outside)).toContain('outside the memory folder');

    const ctx = await client.callTool({ name: 'context', arguments: { budget: 500 } });
    expect(text(ctx)).toMatch(/^# Memory context · 2026-03-15/);
    expect(text(ctx)).toContain('sessions live in Postgres');

    const recalled = await client.callTool({ name: 'recall', arguments: { question: 'where do sessions live?', budget: 300 } });
    expect(text(recalled)).toMatch(/^# Recall · where do sessions live\?\n[\s\S]*## memory\/2026-03-15\.md:\d+-\d+\n[\s\S]*Postgres/);

    const found = await client.callTool({ name: 'search', arguments: { query: 'postgres sessions', mode: 'bm25', limit: 3 } });
    expect(text(found)).toMatch(/^hipo search "postgres sessions" · bm25 · 1 result/);
    expect(text(found)).toContain('memory/2026-03-15.md:3-4');
    // The agent names the fact the task depends on: found although the request shares no word with it.
    const request = { query: 'which database should the cache use', mode: 'bm25', limit: 3 };
    expect(text(await client.callTool({ name: 'search', arguments: request }))).not.toContain('memory/2026-03-15.md');
    const also = await client.callTool({ name: 'search', arguments: { ...request, also: ['where sessions live'] } });
    expect(text(also)).toMatch(
      /^hipo search "which database should the cache use" · bm25 · \d+ results?[^\n]*\n {2}also query: where sessions live\n/,
    );
    expect(text(also)).toContain('memory/2026-03-15.md:3-4');
    const recallAlso = await client.callTool({
      name: 'recall',
      arguments: { question: 'which database should the cache use', also: ['where sessions live'], budget: 300 },
    });
    expect((recallAlso as Text).isError).toBeFalsy();
    expect(text(recallAlso)).toContain('sessions live in Postgres');
    const badDate = await client.callTool({ name: 'search', arguments: { query: 'x', since: 'yesterday' } });
    expect((badDate as Text).isError).toBe(true);

    const status = JSON.parse(text(await client.callTool({ name: 'status', arguments: {} })));
    expect(status.raw.files).toBe(1);
    expect(status.today).toBe('2026-03-15');
  });

  it('gives a fact its summaries repeat once, naming where else it appears, in search and recall', async () => {
    const ws = makeWorkspace({
      'memory/2026-03-10.md':
        '# 2026-03-10\n\n## session storage [project]\n- sessions live in Postgres, not Redis, because failover matters\n',
      'memory/daily/2026-03-10.md':
        '---\ntype: daily\nstatus: fixed\n---\n\n# Daily Summary: 2026-03-10\n\n## Key Decisions\n- session storage: sessions live in Postgres, not Redis, because failover matters\n',
    });
    const client = await connect(ws.root);
    const found = text(await client.callTool({ name: 'search', arguments: { query: 'where do sessions live', mode: 'bm25' } }));
    expect(found).toMatch(/^hipo search "where do sessions live" · bm25 · 1 result/);
    expect(found).toContain(' 1. memory/2026-03-10.md:3-4  raw');
    expect(found).toContain('    also in memory/daily/2026-03-10.md:9');
    const recalled = text(await client.callTool({ name: 'recall', arguments: { question: 'where do sessions live?', budget: 300 } }));
    expect(recalled).toContain('## memory/2026-03-10.md:3-4\n(also in daily/2026-03-10.md:9)\n## session storage [project]');
    expect(recalled).not.toContain('## memory/daily/');
  });

  it("brings what the user said of themselves beside a hit's matched lines", async () => {
    const ws = makeWorkspace({
      'memory/2026-03-02.md': asideSession([
        "Assistant: I'd recommend baking soda. Here is a cleaning plan for the bedroom:",
        ...cleaningAdvice(6),
      ]),
    });
    const client = await connect(ws.root);
    const r = await client.callTool({
      name: 'search',
      arguments: { query: 'vacuum the carpet and empty the storage boxes', mode: 'bm25' },
    });
    expect(text(r)).toContain("    the user, line 4: By the way, I've been keeping my old sneakers under my bed for storage");
    const hit = (r as { structuredContent: { hits: { path: string; said?: { line: number; text: string }[] }[] } }).structuredContent
      .hits[0]!;
    expect(hit.path).toBe('memory/2026-03-02.md');
    expect(hit.said).toEqual([{ line: 4, text: expect.stringContaining('keeping my old sneakers under my bed') }]);
    // The assistant's first person is never the user's.
    expect(text(r)).not.toMatch(/the user, line \d+: I'd recommend/);
  });

  it('rejects arguments outside the schema', async () => {
    const ws = makeWorkspace();
    const client = await connect(ws.root);
    const r = await client.callTool({ name: 'log', arguments: { text: 'x', type: 'gossip' } });
    expect((r as Text).isError).toBe(true);
    expect(runCli(['status', '--dir', ws.root]).code).toBe(0);
  });

  it("expands a search through the workspace's model when asked (expand: true)", async () => {
    const llm = await startFakeLlm(() => completion('lex: postgres sessions'));
    const ws = makeWorkspace(
      {
        'memory/2026-03-14.md': '# 2026-03-14\n\n## session storage [project]\n- sessions live in Postgres, not Redis\n',
        'memory/ROOT.md': '# ROOT\n\n## Topics Index\n- session storage [project]: postgres\n',
      },
      { timeZone: 'UTC', llm: { baseUrl: llm.url, model: 'test-model' } },
    );
    const client = await connect(ws.root);
    const r = await client.callTool({
      name: 'search',
      arguments: { query: 'which database should the cache use', mode: 'bm25', expand: true },
    });
    expect(text(r)).toContain('  also lex: postgres sessions\n');
    expect(text(r)).toContain('memory/2026-03-14.md:3-4');
    expect(llm.requests[0]!.body.messages[1]!.content).toContain('- session storage [project]: postgres');
  });

  it('ends at once when its stdin closes, or on SIGTERM, while a query expansion never answers', async () => {
    const llm = await startFakeLlm(() => ({ hang: true }));
    const ws = makeWorkspace(
      { 'memory/2026-03-14.md': '# 2026-03-14\n\n## session storage [project]\n- sessions live in Postgres, not Redis\n' },
      // search.expand.timeoutMs as by default: only abandoning the call lets the server end sooner.
      { timeZone: 'UTC', llm: { baseUrl: llm.url, model: 'test-model' }, search: { expand: { timeoutMs: 20_000 } } },
    );
    for (const end of ['stdin', 'SIGTERM'] as const) {
      const mcp = startRawMcp(['--dir', ws.root, '--now', '2026-03-15']);
      const sent = llm.requests.length;
      mcp.call('search', { query: 'which database', mode: 'bm25', expand: true });
      for (const until = Date.now() + 20_000; llm.requests.length === sent && Date.now() < until; )
        await new Promise((r) => setTimeout(r, 20));
      expect(llm.requests).toHaveLength(sent + 1);
      const t0 = Date.now();
      if (end === 'stdin') mcp.child.stdin.end();
      else mcp.child.kill('SIGTERM');
      const exited = await Promise.race([mcp.exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
      expect(exited, end).toEqual(end === 'stdin' ? { code: 0, signal: null } : { code: null, signal: 'SIGTERM' });
      expect(Date.now() - t0, end).toBeLessThan(5_000);
    }
  });
});

describe('hipo mcp: structured results, resources, errors', () => {
  const structured = (r: unknown): Record<string, any> => (r as { structuredContent: Record<string, any> }).structuredContent;

  it('declares an output schema for every tool and returns structuredContent that fits it beside the text', async () => {
    const ws = makeWorkspace({
      'memory/2026-03-14.md': '# 2026-03-14\n\n## session storage [project]\n- sessions live in Postgres, not Redis\n',
    });
    const client = await connect(ws.root);
    const { tools } = await client.listTools();
    for (const t of tools) expect(t.outputSchema?.type, t.name).toBe('object');
    // The SDK's client checks structuredContent against the declared schema on every call.
    const found = await client.callTool({ name: 'search', arguments: { query: 'postgres sessions', mode: 'bm25' } });
    expect(structured(found).hits[0]).toMatchObject({
      path: 'memory/2026-03-14.md',
      lines: { start: 3, end: 4 },
      heading: 'session storage [project]',
      level: 'raw',
      type: 'project',
    });
    const got = structured(await client.callTool({ name: 'get', arguments: { path: '2026-03-14.md:3:2' } }));
    expect(got).toEqual({
      path: 'memory/2026-03-14.md',
      from: 3,
      to: 4,
      total: 4,
      lines: [
        { n: 3, text: '## session storage [project]' },
        { n: 4, text: '- sessions live in Postgres, not Redis' },
      ],
    });
    const logged = structured(await client.callTool({ name: 'log', arguments: { text: 'cache in Redis', topic: 'cache' } }));
    expect(logged).toMatchObject({
      file: 'memory/2026-03-15.md',
      heading: expect.stringMatching(/^## cache \[project\] · \d\d:\d\d$/),
      redacted: 0,
    });
    const recalled = structured(await client.callTool({ name: 'recall', arguments: { question: 'where do sessions live?', budget: 300 } }));
    expect(recalled.passages[0]).toMatchObject({ path: 'memory/2026-03-14.md', from: 3 });
    const ctx = structured(await client.callTool({ name: 'context', arguments: { budget: 400 } }));
    expect(ctx.text).toMatch(/^# Memory context · 2026-03-15/);
    expect(ctx.total).toBeLessThanOrEqual(400);
    const status = structured(await client.callTool({ name: 'status', arguments: {} }));
    expect(status.raw.files).toBe(2);
  });

  it('answers every tool with an error while the memory folder is gone: no folder made, the index kept', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-14.md': '# 2026-03-14\n\n## session storage [project]\n- sessions live in Postgres\n' });
    const client = await connect(ws.root);
    const search = { name: 'search', arguments: { query: 'postgres sessions', mode: 'bm25' } };
    expect(text(await client.callTool(search))).toContain('memory/2026-03-14.md:3-4');
    const memory = join(ws.root, 'memory');
    renameSync(memory, `${memory}.away`);
    const calls = [
      { name: 'log', arguments: { text: 'written while the memory folder is away' } },
      search,
      { name: 'recall', arguments: { question: 'where do sessions live?' } },
      { name: 'context', arguments: {} },
      { name: 'get', arguments: { path: '2026-03-14.md' } },
    ];
    for (const call of calls) {
      const r = await client.callTool(call);
      expect((r as Text).isError, call.name).toBe(true);
      expect(text(r), call.name).toContain(`${memory}: no memory folder`);
    }
    expect(existsSync(memory)).toBe(false);
    const db = new Database(join(ws.root, '.hipo', 'index.db'), { readonly: true });
    expect(db.prepare('SELECT path FROM files').all()).toEqual([{ path: 'memory/2026-03-14.md' }]);
    db.close();
    // Back: answered as before.
    renameSync(`${memory}.away`, memory);
    expect(text(await client.callTool(search))).toContain('memory/2026-03-14.md:3-4');
  });

  it('answers a line past the end of a file as an error', async () => {
    const ws = makeWorkspace({ 'memory/2026-03-14.md': '# 2026-03-14\n\n- one line\n' });
    const client = await connect(ws.root);
    const r = await client.callTool({ name: 'get', arguments: { path: 'memory/2026-03-14.md', from: 40 } });
    expect((r as Text).isError).toBe(true);
    expect(text(r)).toBe('memory/2026-03-14.md: line 40 is past the end (3 lines)');
  });

  it('lists ROOT.md and the nodes as resources and reads them; nothing outside the tree', async () => {
    const ws = makeWorkspace({
      'memory/2026-03-09.md': '# 2026-03-09\n\n## deploys [project]\n- deploys move to Fridays\n',
      'memory/2026-03-14.md': '# 2026-03-14\n\n## billing [project]\n- invoices go out on the 3rd\n',
    });
    expect(runCli(['compact', '--catch-up', '--dir', ws.root, '--now', '2026-03-15']).code).toBe(0);
    const client = await connect(ws.root);
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris[0]).toBe('hipo://memory/ROOT.md');
    expect(uris).toEqual(
      expect.arrayContaining([
        'hipo://memory/daily/2026-03-14.md',
        'hipo://memory/daily/2026-03-09.md',
        'hipo://memory/weekly/2026-W11.md',
        'hipo://memory/monthly/2026-03.md',
      ]),
    );
    expect(uris.indexOf('hipo://memory/daily/2026-03-14.md')).toBeLessThan(uris.indexOf('hipo://memory/daily/2026-03-09.md'));
    const daily = await client.readResource({ uri: 'hipo://memory/daily/2026-03-14.md' });
    expect(daily.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: ws.read('memory/daily/2026-03-14.md') });
    const root = await client.readResource({ uri: 'hipo://memory/ROOT.md' });
    expect((root.contents[0] as { text: string }).text).toBe(ws.read('memory/ROOT.md'));
    await expect(client.readResource({ uri: 'hipo://memory/daily/2026-03-30.md' })).rejects.toThrow(/no such node/);
    await expect(client.readResource({ uri: 'hipo://memory/..%2F/hipo.config.json' })).rejects.toThrow();
  });

  it('follows an edit to the config: a pattern added to redactPatterns holds from the next call', async () => {
    const ws = makeWorkspace();
    const client = await connect(ws.root);
    const log = (t: string) => client.callTool({ name: 'log', arguments: { text: t, type: 'project', topic: 'client' } });
    await log('the client calls it Project Falcon');
    expect(ws.read('memory/2026-03-15.md')).toContain('- the client calls it Project Falcon');
    writeFileSync(join(ws.root, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC', redactPatterns: ['Project Falcon'] }));
    await log('Project Falcon ships in May');
    expect(ws.read('memory/2026-03-15.md')).toMatch(/- \[REDACTED[^\]]*\] ships in May/);
    // Its answers pass the new redactor too: the line written before the edit comes back redacted.
    const got = await client.callTool({ name: 'get', arguments: { path: 'memory/2026-03-15.md' } });
    expect(text(got)).not.toContain('Falcon');
    // A config that does not load: every answer says why, naming the file; nothing is written.
    writeFileSync(join(ws.root, 'hipo.config.json'), '{ "timeZone": ');
    const refused = await log('written with no settings');
    expect((refused as Text).isError).toBe(true);
    expect(text(refused)).toContain('hipo.config.json');
    expect(ws.read('memory/2026-03-15.md')).not.toContain('written with no settings');
  });

  it('starts where there is no workspace and answers every tool with the reason', async () => {
    const dir = makeWorkspace({}, null as unknown as Record<string, unknown>).root;
    rmSync(join(dir, 'memory'), { recursive: true });
    const client = await connectMcp([], { cwd: dir });
    clients.push(client);
    expect((await client.listTools()).tools).toHaveLength(6);
    for (const name of ['status', 'context', 'search', 'get', 'log', 'recall']) {
      const args =
        { search: { query: 'x' }, get: { path: 'ROOT.md' }, log: { text: 'x' }, recall: { question: 'x' } }[name as 'search'] ?? {};
      const r = await client.callTool({ name, arguments: args });
      expect((r as Text).isError, name).toBe(true);
      expect(text(r), name).toContain(`no hipo workspace in ${dir} or any folder above it`);
    }
    expect((await client.listResources()).resources).toEqual([]);
  });
});
