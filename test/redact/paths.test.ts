// Every way out of hipo, checked against the secret corpus: a workspace whose raw logs hold all
// of it is compacted (daily, weekly, monthly, ROOT) and indexed; then what the CLI and the MCP
// server return (search, recall, context, get, status), what a hook archives from a transcript
// holding the corpus (raw log and .hipo/sessions), what a SessionStart restore prints, every file
// hipo keeps under .hipo/ (the SQLite index read as bytes) and every request body a real local
// model and embeddings server received must carry none of the planted values.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion, echoSummary, startFakeLlm, type FakeLlm } from '../helpers/llm-server.js';
import { hookJson, TranscriptWriter } from '../helpers/transcript.js';
import { CLI, makeWorkspace, runCliAsync, type TestWorkspace } from '../helpers/workspace.js';
import { SECRETS } from '../fixtures/secret-corpus.js';

const NOW = '2026-07-20';
const RAW_DAYS = ['2026-06-01', '2026-06-02', '2026-06-03'];
const SESSION = '7c1e2d3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

/** The formats whose value (or a 16-character piece of it) appears in `text`. */
function leaks(text: string): string[] {
  return SECRETS.filter((s) => {
    // A value of a few digits (a card's security code) is in any text: it leaks beside its word.
    if (s.secret.length < 6) return text.includes(s.text.slice(0, s.text.indexOf(s.secret) + s.secret.length));
    if (text.includes(s.secret)) return true;
    if (s.secret.length < 24) return false;
    const mid = Math.floor(s.secret.length / 2) - 8;
    return text.includes(s.secret.slice(mid, mid + 16));
  }).map((s) => s.format);
}

const bullet = (text: string): string =>
  text
    .split('\n')
    .map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`))
    .join('\n');

/** Three days of raw logs holding the corpus: typed entries above the summary threshold, a short day, a conversation. */
function rawLogs(): Record<string, string> {
  const entries = SECRETS.map(
    (s, i) => `## ${s.format} [${i % 2 ? 'reference' : 'project'}]\n${bullet(s.text)}\n- checked by Dana on the ops rota\n`,
  );
  const filler = Array.from({ length: 60 }, (_, i) => `- routine note ${i}: rebuilt the staging cache and reran the smoke tests`);
  const chat = SECRETS.map((s) => `User: for ${s.format}, keep this: ${s.text}\nAssistant: Stored it for ${s.format}.`);
  return {
    'memory/2026-06-01.md': ['# 2026-06-01', '', ...entries, '## routine [project]', ...filler, ''].join('\n'),
    'memory/2026-06-02.md': ['# 2026-06-02', '', ...entries.slice(0, 12), ''].join('\n'),
    'memory/2026-06-03.md': ['# 2026-06-03', '', '## Session 1', '', ...chat, ''].join('\n'),
  };
}

/** A Claude Code transcript in which the user pastes every secret and the agent runs commands with some. */
function transcript(): TranscriptWriter {
  const t = new TranscriptWriter(SESSION, `${NOW}T09:00:00.000Z`);
  for (const s of SECRETS) {
    t.user(`Remember the ${s.format}: ${s.text}`);
    t.assistant(`Saved. The ${s.format} is noted.`);
  }
  for (const s of SECRETS.filter((x) => !x.text.includes('\n')).slice(0, 20))
    t.tool('Bash', { command: `echo '${s.text}' >> notes.txt`, description: 'note it' });
  return t;
}

/** Files hipo wrote: every node, and every file under .hipo/ (read as bytes). */
function writtenFiles(ws: TestWorkspace): Record<string, string> {
  const planted = new Set(RAW_DAYS.map((d) => `memory/${d}.md`));
  const files = [...ws.files('memory').filter((f) => !planted.has(f)), ...ws.files('.hipo')];
  return Object.fromEntries(files.map((f) => [f, readFileSync(join(ws.root, f)).toString('latin1')]));
}

async function cli(ws: TestWorkspace, args: string[], input?: string, env: NodeJS.ProcessEnv = {}) {
  const r = await runCliAsync([...args, '--dir', ws.root], { env: { HIPO_NOW: NOW, ...env }, ...(input !== undefined ? { input } : {}) });
  return r;
}

async function mcpOutputs(ws: TestWorkspace): Promise<Record<string, string>> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', '--dir', ws.root, '--now', NOW],
    env: { ...process.env, HIPO_NOW: '' } as Record<string, string>,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'hipo-redaction-test', version: '1.0.0' });
  await client.connect(transport);
  // The text and every string of the structured result (each string as it is, not JSON-escaped).
  const strings = (v: unknown): string[] =>
    typeof v === 'string'
      ? [v]
      : Array.isArray(v)
        ? v.flatMap(strings)
        : v && typeof v === 'object'
          ? Object.entries(v).flatMap(([k, x]) => [k, ...strings(x)])
          : [];
  const structured: Record<string, string> = {};
  let calls = 0;
  const text = (r: unknown): string => {
    const res = r as { content: { text: string }[]; structuredContent?: unknown };
    structured[`structured ${++calls}`] = strings(res.structuredContent).join('\n');
    return res.content.map((c) => c.text).join('\n');
  };
  try {
    const out: Record<string, string> = {};
    out.search = text(
      await client.callTool({ name: 'search', arguments: { query: 'key token password secret webhook private', limit: 100 } }),
    );
    out.recall = text(
      await client.callTool({ name: 'recall', arguments: { question: 'which keys, tokens and passwords did we keep?', budget: 50_000 } }),
    );
    out.context = text(await client.callTool({ name: 'context', arguments: { budget: 50_000 } }));
    out.status = text(await client.callTool({ name: 'status', arguments: {} }));
    for (const day of RAW_DAYS)
      out[`get ${day}`] = text(await client.callTool({ name: 'get', arguments: { path: `${day}.md`, lines: 2000 } }));
    out['get daily'] = text(await client.callTool({ name: 'get', arguments: { path: 'daily/2026-06-01.md', lines: 2000 } }));
    out['get ROOT'] = text(await client.callTool({ name: 'get', arguments: { path: 'ROOT.md', lines: 2000 } }));
    out.log = text(await client.callTool({ name: 'log', arguments: { text: `staging ${SECRETS[0]!.text}` } }));
    for (const uri of ['hipo://memory/ROOT.md', 'hipo://memory/daily/2026-06-01.md']) {
      const r = await client.readResource({ uri });
      out[`resource ${uri.slice('hipo://memory/'.length)}`] = r.contents.map((c) => ('text' in c ? String(c.text) : '')).join('\n');
    }
    return { ...out, ...structured };
  } finally {
    await client.close();
  }
}

async function cliOutputs(ws: TestWorkspace, extra: string[] = []): Promise<Record<string, string>> {
  const runs: Record<string, string[]> = {
    'search --json': ['search', 'key token password secret webhook private', '-n', '100', '--json', ...extra],
    search: ['search', 'aws stripe slack discord telegram twilio grafana mailgun azure', '-n', '100', ...extra],
    'recall --json': ['recall', 'which keys, tokens and passwords did we keep?', '--budget', '50000', '--json'],
    recall: ['recall', 'what was the password for the router?', '--budget', '50000'],
    'context --json': ['context', '--budget', '50000', '--json'],
    context: ['context', '--budget', '50000', '--query', 'token key password'],
    'status --json': ['status', '--json'],
    log: ['log', '--type', 'reference', `vault note: ${SECRETS[1]!.text}`],
  };
  const out: Record<string, string> = {};
  for (const [name, args] of Object.entries(runs)) {
    const r = await cli(ws, args);
    expect(r.code, `${name}: ${r.stderr}`).toBe(0);
    out[name] = r.stdout + r.stderr;
  }
  return out;
}

/** Captures the transcript through the hooks, then restores after a compaction; returns what was printed. */
async function captureAndRestore(ws: TestWorkspace): Promise<Record<string, string>> {
  const path = transcript().writeTo(join(ws.root, 'session.jsonl'));
  const fields = { session_id: SESSION, cwd: ws.root, transcript_path: path };
  const out: Record<string, string> = {};
  const prompt = await cli(
    ws,
    ['hook', 'UserPromptSubmit'],
    hookJson('UserPromptSubmit', { ...fields, prompt: `and the ${SECRETS[2]!.format}: ${SECRETS[2]!.text}` }),
  );
  const stop = await cli(ws, ['hook', 'Stop'], hookJson('Stop', { ...fields, stop_hook_active: false }));
  const start = await cli(ws, ['hook', 'SessionStart'], hookJson('SessionStart', { ...fields, source: 'compact' }));
  for (const [name, r] of Object.entries({ prompt, stop, start })) {
    expect(r.code, name).toBe(0);
    out[`hook ${name}`] = r.stdout + r.stderr;
  }
  return out;
}

describe('no planted secret leaves hipo', () => {
  describe('offline (extractive summaries, the default embedder)', () => {
    const outputs: Record<string, string> = {};
    // What hipo wrote, read before the workspace is removed (after the first test).
    let written: Record<string, string> = {};
    let planted = '';

    beforeAll(async () => {
      const ws = makeWorkspace(rawLogs(), { timeZone: 'UTC', search: { autoIndex: true } });
      const compact = await cli(ws, ['compact', '--catch-up']);
      expect(compact.code, compact.stderr).toBe(0);
      Object.assign(outputs, await captureAndRestore(ws));
      Object.assign(outputs, await cliOutputs(ws));
      Object.assign(outputs, Object.fromEntries(Object.entries(await mcpOutputs(ws)).map(([k, v]) => [`mcp ${k}`, v])));
      written = writtenFiles(ws);
      planted = ws.read('memory/2026-06-01.md');
    }, 240_000);

    it('writes every level of the tree and an index from the planted logs', () => {
      for (const rel of [
        'memory/daily/2026-06-01.md',
        'memory/daily/2026-06-02.md',
        'memory/daily/2026-06-03.md',
        'memory/weekly/2026-W23.md',
        'memory/monthly/2026-06.md',
        'memory/ROOT.md',
        '.hipo/index.db',
        '.hipo/journal.jsonl',
      ])
        expect(Object.keys(written)).toContain(rel);
      expect(written['memory/daily/2026-06-01.md']).toMatch(/summarizer: "?extractive/);
      // The captured transcript went to today's raw log, redacted; the session state is kept.
      expect(written[`memory/${NOW}.md`]).toContain('[REDACTED:');
      expect(Object.keys(written).filter((f) => f.startsWith('.hipo/sessions/'))).toHaveLength(1);
    });

    it('nodes, ROOT, the captured raw log and everything under .hipo/ hold no secret', () => {
      const found = Object.entries(written)
        .map(([f, text]) => [f, leaks(text)] as const)
        .filter(([, l]) => l.length);
      expect(found).toEqual([]);
    });

    it('search, recall, context, status and log print no secret (CLI)', () => {
      for (const name of ['search --json', 'search', 'recall --json', 'recall', 'context --json', 'context', 'status --json', 'log']) {
        expect(outputs[name]!.length, name).toBeGreaterThan(0);
        expect(leaks(outputs[name]!), name).toEqual([]);
      }
      // They did return the planted entries, redacted, not nothing.
      expect(outputs['recall --json']).toContain('[REDACTED:');
      expect(outputs['search --json']).toContain('[REDACTED:');
    });

    it('MCP search, recall, context, get, status and log answer with no secret', () => {
      const mcp = Object.entries(outputs).filter(([k]) => k.startsWith('mcp '));
      expect(mcp.length).toBe(12 + 10); // ten tool answers (text and structured), two resources
      for (const [name, text] of mcp) expect(leaks(text), name).toEqual([]);
      expect(outputs['mcp get 2026-06-01']).toContain('[REDACTED:');
    });

    it("hooks print no secret, and get keeps the raw log's line numbers", () => {
      for (const name of ['hook prompt', 'hook stop', 'hook start']) expect(leaks(outputs[name]!), name).toEqual([]);
      expect(outputs['hook start']).toContain('hookSpecificOutput');
      const lines = planted.split('\n');
      const got = outputs['mcp get 2026-06-01']!.split('\n').slice(1);
      expect(got.length).toBe(lines.length - (lines.at(-1) === '' ? 1 : 0));
    });
  });

  describe('with a model and an embeddings endpoint', () => {
    let llm: FakeLlm;
    const outputs: Record<string, string> = {};
    let written: Record<string, string> = {};

    beforeAll(async () => {
      llm = await startFakeLlm((req) => {
        if (req.path.endsWith('/embeddings')) {
          const input = (req.body as unknown as { input: string[] }).input;
          return {
            json: {
              object: 'list',
              model: 'embed',
              data: input.map((_, index) => ({ object: 'embedding', index, embedding: [1, index % 7, 0.5, 0.25] })),
              usage: { prompt_tokens: 1, total_tokens: 1 },
            },
          };
        }
        if (req.body.messages[0]?.content.includes('search queries'))
          return completion('lex: aws key rotation\nvec: the password for the router');
        return completion(echoSummary(req));
      });
      const ws = makeWorkspace(rawLogs(), {
        timeZone: 'UTC',
        llm: { baseUrl: llm.url, model: 'test-model' },
        search: { autoIndex: true, embedder: 'openai', openai: { baseUrl: llm.url, model: 'embed' } },
      });
      const compact = await cli(ws, ['compact', '--catch-up']);
      expect(compact.code, compact.stderr).toBe(0);
      Object.assign(outputs, await captureAndRestore(ws));
      Object.assign(outputs, await cliOutputs(ws, ['--expand']));
      written = writtenFiles(ws);
    }, 240_000);

    afterAll(async () => {
      await llm.kill();
    });

    it('the model wrote the nodes above the threshold, and embeddings and an expansion were asked for', () => {
      expect(written['memory/daily/2026-06-01.md']).toMatch(/summarizer: "?llm:test-model/);
      expect(llm.requests.some((r) => r.path.endsWith('/chat/completions') && r.raw.includes('Sources of the daily node 2026-06-01'))).toBe(
        true,
      );
      expect(llm.requests.some((r) => r.path.endsWith('/embeddings'))).toBe(true);
      expect(llm.requests.some((r) => r.raw.includes('search queries'))).toBe(true);
    });

    it('no chat or embeddings request body carries a secret', () => {
      const found = llm.requests.map((r, i) => [`${i} ${r.path}`, leaks(r.raw)] as const).filter(([, l]) => l.length);
      expect(found).toEqual([]);
      // The planted entries were sent, redacted.
      expect(llm.requests.some((r) => r.raw.includes('[REDACTED:'))).toBe(true);
    });

    it('nodes, the model cache, the journal and the rest of .hipo/ hold no secret; nor do the outputs', () => {
      expect(Object.keys(written).filter((f) => f.startsWith('.hipo/llm-cache/')).length).toBeGreaterThan(0);
      const found = Object.entries(written)
        .map(([f, text]) => [f, leaks(text)] as const)
        .filter(([, l]) => l.length);
      expect(found).toEqual([]);
      for (const [name, text] of Object.entries(outputs)) expect(leaks(text), name).toEqual([]);
    });
  });
});
