// The OpenAI-compatible embedder against real HTTP servers on 127.0.0.1, started by each test:
// one that embeds (a deterministic bag of hashed words, so shared words mean similar vectors),
// one that fails, one that never answers, one that sends its headers and stalls, and a port
// nobody listens on.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/config.js';
import { OpenAiEmbedder } from '../../src/index/embed/openai.js';
import { resolveEmbedderSettings } from '../../src/index/embed/select.js';
import { updateIndex } from '../../src/index/update.js';
import { search } from '../../src/search/search.js';
import { startFakeLlm } from '../helpers/llm-server.js';
import { makeWorkspace, runCliAsync } from '../helpers/workspace.js';
import { indexOf } from '../helpers/search.js';

interface Seen {
  model: string;
  inputs: string[];
  encodingFormat: string | undefined;
  authorization: string | undefined;
  headers: IncomingHttpHeaders;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const DIMS = 32;
function bagOfWords(text: string, dims = DIMS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 0;
    for (const c of w) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    v[h % dims]! += 1;
  }
  return v;
}

async function embeddingServer(seen: Seen[]): Promise<string> {
  return serve((req, body, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404).end();
      return;
    }
    const parsed = JSON.parse(body) as { model: string; input: string[]; encoding_format?: string };
    seen.push({
      model: parsed.model,
      inputs: parsed.input,
      encodingFormat: parsed.encoding_format,
      authorization: req.headers.authorization,
      headers: req.headers,
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        object: 'list',
        model: parsed.model,
        data: parsed.input.map((t, index) => ({ object: 'embedding', index, embedding: bagOfWords(t) })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      }),
    );
  });
}

const FILES = {
  'memory/2026-03-09.md':
    '# 2026-03-09\n\n## Pets\n- the cat scratches the sofa\n\n## Billing\n- invoices go out monthly\n\n## Garden\n- tomatoes need water\n',
};

describe('an OpenAI-compatible embeddings endpoint', () => {
  it('embeds in batches, asking for floats, and vector search uses it', async () => {
    const seen: Seen[] = [];
    const url = await embeddingServer(seen);
    const ws = makeWorkspace(FILES, {
      timeZone: 'UTC',
      search: { embedder: 'openai', openai: { baseUrl: url, model: 'test-embed', batchSize: 2 } },
    });
    const index = indexOf(ws);
    expect(index.embedder?.id).toBe(`openai:test-embed@${url}`);
    const r = await updateIndex(index);
    expect(r).toMatchObject({ chunksAdded: 3, embedded: 3, pendingEmbeddings: 0, warnings: [] });
    // One probe for the dimensions, then batches of at most two.
    expect(seen.map((s) => s.inputs.length)).toEqual([1, 2, 1]);
    expect(seen.every((s) => s.encodingFormat === 'float' && s.model === 'test-embed')).toBe(true);
    const hit = await search(index, 'sofa scratches', { mode: 'vector', limit: 1 });
    expect(hit.hits[0]!.heading).toBe('Pets');
  });

  it('takes base URL, model and key from HIPO_EMBED_* over the config', async () => {
    const seen: Seen[] = [];
    const url = await embeddingServer(seen);
    const ws = makeWorkspace(FILES, {
      timeZone: 'UTC',
      search: { embedder: 'wink', openai: { baseUrl: 'http://127.0.0.1:9/v1', model: 'from-config' } },
    });
    const index = indexOf(ws, { env: { HIPO_EMBED_BASE_URL: url, HIPO_EMBED_MODEL: 'from-env', HIPO_EMBED_API_KEY: 'sk-test-key' } });
    await updateIndex(index);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => s.model === 'from-env' && s.authorization === 'Bearer sk-test-key')).toBe(true);
  });

  it("never sends the environment's OPENAI_API_KEY, organization or project to a configured endpoint", async () => {
    const seen: Seen[] = [];
    const url = await embeddingServer(seen);
    const ws = makeWorkspace(FILES, { timeZone: 'UTC' });
    const openAiEnv = {
      OPENAI_API_KEY: 'sk-proj-fromTheEnvironment0000000000000000',
      OPENAI_ORG_ID: 'org-fromTheEnvironment',
      OPENAI_PROJECT_ID: 'proj_fromTheEnvironment',
    };
    // A child process: the `openai` package reads these variables from its own environment.
    const idx = await runCliAsync(['index', '--dir', ws.root], { env: { ...openAiEnv, HIPO_EMBED_BASE_URL: url, HIPO_EMBED_MODEL: 'm' } });
    expect(idx.code).toBe(0);
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.headers).not.toHaveProperty('openai-organization');
      expect(s.headers).not.toHaveProperty('openai-project');
      expect(s.authorization).toBe('Bearer no-key');
      expect(JSON.stringify(s.headers)).not.toContain('fromTheEnvironment');
    }
  });

  it("takes OPENAI_API_KEY, organization and project for OpenAI's own endpoint only, and a configured key first", () => {
    const search = (baseUrl: string, apiKey = '') => ({
      ...defaultConfig().search,
      embedder: 'openai' as const,
      openai: { ...defaultConfig().search.openai, baseUrl, model: 'm', apiKey },
    });
    const env = { OPENAI_API_KEY: 'sk-openai', OPENAI_ORG_ID: 'org-1', OPENAI_PROJECT_ID: 'proj_1' };
    const keyOf = (baseUrl: string, e: NodeJS.ProcessEnv = env, apiKey = '') => {
      const { apiKey: key, organization, project } = resolveEmbedderSettings(search(baseUrl, apiKey), e).openai;
      return { key, organization, project };
    };
    const openAi = { key: 'sk-openai', organization: 'org-1', project: 'proj_1' };
    const none = { key: '', organization: null, project: null };
    expect(keyOf('')).toEqual(openAi);
    expect(keyOf('https://api.openai.com/v1')).toEqual(openAi);
    for (const other of ['http://127.0.0.1:11434/v1', 'http://api.openai.com/v1', 'https://api.openai.com.example.net/v1', 'not a url'])
      expect(keyOf(other), other).toEqual(none);
    expect(keyOf('', { ...env, HIPO_EMBED_BASE_URL: 'http://127.0.0.1:8080/v1' })).toEqual(none);
    expect(keyOf('http://127.0.0.1:8080/v1', env, 'sk-configured')).toEqual({ key: 'sk-configured', organization: null, project: null });
    expect(keyOf('', { ...env, HIPO_EMBED_API_KEY: 'sk-hipo' })).toEqual({ key: 'sk-hipo', organization: null, project: null });
  });

  it('reports a failing endpoint clearly; keywords still work and hybrid falls back', async () => {
    const url = await serve((_req, _body, res) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model crashed' } }));
    });
    const ws = makeWorkspace(FILES, { timeZone: 'UTC', search: { embedder: 'openai', openai: { baseUrl: url, model: 'm' } } });
    const index = indexOf(ws);
    const r = await updateIndex(index);
    expect(r.warnings).toEqual([`vectors not updated: embeddings endpoint ${url} answered HTTP 500: model crashed`]);
    expect(r.pendingEmbeddings).toBe(3);
    const h = await search(index, 'invoices', { mode: 'hybrid' });
    expect(h.mode).toBe('bm25');
    expect(h.hits[0]!.heading).toBe('Billing');
    expect(h.warnings).toEqual(['the index holds no vectors yet (run "hipo index"); keyword results only']);
  });

  it('names an endpoint nobody listens on, and one that does not answer in time', async () => {
    const closedUrl = await serve(() => undefined);
    const closing = servers.pop()!;
    await new Promise((r) => closing.close(r));
    const refused = new OpenAiEmbedder({ baseUrl: closedUrl, model: 'm', apiKey: '', batchSize: 8, timeoutMs: 2000 });
    await expect(refused.embed(['x'])).rejects.toThrow(`cannot reach the embeddings endpoint ${closedUrl} (ECONNREFUSED)`);

    const silentUrl = await serve(() => undefined);
    const silent = new OpenAiEmbedder({ baseUrl: silentUrl, model: 'm', apiKey: '', batchSize: 8, timeoutMs: 200 });
    await expect(silent.embed(['x'])).rejects.toThrow(`embeddings endpoint ${silentUrl} did not answer within 200 ms`);
  });

  it('gives up on a server that sends its headers and stalls within timeoutMs, and does not ask it again', async () => {
    const stalling = await startFakeLlm(() => ({ stall: true }));
    const e = new OpenAiEmbedder({ baseUrl: stalling.url, model: 'm', apiKey: '', batchSize: 8, timeoutMs: 300 });
    const t0 = performance.now();
    await expect(e.embed(['x'])).rejects.toThrow(`embeddings endpoint ${stalling.url} did not answer within 300 ms`);
    expect(performance.now() - t0).toBeLessThan(2000);
    // The query after an update that failed: the endpoint is known to be down, no second wait.
    const t1 = performance.now();
    await expect(e.embedQuery('y')).rejects.toThrow(/did not answer within 300 ms \(failed earlier; not asked again for 60 s\)/);
    expect(performance.now() - t1).toBeLessThan(100);
    expect(stalling.requests).toHaveLength(1);
  });

  it('tries once more after a 503, within timeoutMs', async () => {
    let n = 0;
    const url = await serve((_req, body, res) => {
      if (++n === 1) {
        res.writeHead(503).end('busy');
        return;
      }
      const input = (JSON.parse(body) as { input: string[] }).input;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: bagOfWords(t) })) }));
    });
    const e = new OpenAiEmbedder({ baseUrl: url, model: 'm', apiKey: '', batchSize: 8, timeoutMs: 2000 });
    expect(await e.embed(['the cat'])).toHaveLength(1);
    expect(n).toBe(2);
  });

  it('abandons the request in flight when its owner stops', async () => {
    const stalling = await startFakeLlm(() => ({ stall: true }));
    const stop = new AbortController();
    const e = new OpenAiEmbedder({ baseUrl: stalling.url, model: 'm', apiKey: '', batchSize: 8, timeoutMs: 60_000, signal: stop.signal });
    const pending = e.embed(['x']);
    while (stalling.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    const t0 = performance.now();
    stop.abort();
    await expect(pending).rejects.toThrow(`embeddings request to ${stalling.url} abandoned: stopping`);
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('hipo search answers by keywords in bounded time when the endpoint stalls after its headers', async () => {
    const stalling = await startFakeLlm(() => ({ stall: true }));
    const ws = makeWorkspace(FILES, {
      timeZone: 'UTC',
      search: { embedder: 'openai', openai: { baseUrl: stalling.url, model: 'm', timeoutMs: 500 } },
    });
    for (const mode of ['bm25', 'hybrid']) {
      const t0 = performance.now();
      const s = await runCliAsync(['search', 'tomatoes', '--mode', mode, '--json', '--dir', ws.root]);
      expect(performance.now() - t0).toBeLessThan(8000);
      expect(s.code).toBe(0);
      const out = JSON.parse(s.stdout) as { mode: string; hits: { heading: string }[]; warnings: string[] };
      expect(out.mode).toBe('bm25');
      expect(out.hits[0]!.heading).toBe('Garden');
    }
  }, 20_000);

  it('embeds everything again when the same model name starts returning vectors of another size', async () => {
    const size = { dims: 8 };
    const url = await serve((_req, body, res) => {
      const input = (JSON.parse(body) as { input: string[] }).input;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: bagOfWords(t, size.dims) })) }));
    });
    const ws = makeWorkspace(FILES, { timeZone: 'UTC', search: { embedder: 'openai', openai: { baseUrl: url, model: 'm' } } });
    const index = indexOf(ws);
    expect(await updateIndex(index)).toMatchObject({ embedded: 3, warnings: [] });

    // The server swaps the model behind the name: a query cannot be compared, keywords answer.
    size.dims = 32;
    const q = await search(index, 'invoices', { mode: 'hybrid' });
    expect(q.mode).toBe('bm25');
    expect(q.hits[0]!.heading).toBe('Billing');
    expect(q.warnings).toEqual([
      'the embedder now returns 32-dimensional vectors, the index holds 8-dimensional ones (run "hipo index --rebuild"); ' +
        'keyword results only',
    ]);

    // The next update that embeds anything finds out and starts the vectors over.
    ws.write('memory/2026-03-10.md', '# 2026-03-10\n\n## Car\n- the tyres are worn\n');
    const r = await updateIndex(index);
    expect(r.warnings).toEqual([
      `embedder openai:m@${url} now returns 32-dimensional vectors (the index held 8): every chunk is embedded again`,
    ]);
    expect(r).toMatchObject({ embedded: 4, pendingEmbeddings: 0 });
    const v = await search(index, 'sofa scratches', { mode: 'vector', limit: 1 });
    expect(v.warnings).toEqual([]);
    expect(v.hits[0]!.heading).toBe('Pets');
    index.close();

    // The commands too: a keyword search never fails because of vectors.
    size.dims = 24;
    ws.write('memory/2026-03-11.md', '# 2026-03-11\n\n## Bike\n- the chain squeaks\n');
    const s = await runCliAsync(['search', 'chain', '--mode', 'bm25', '--json', '--dir', ws.root]);
    expect(s.code).toBe(0);
    const out = JSON.parse(s.stdout) as { hits: { heading: string }[]; warnings: string[] };
    expect(out.hits[0]!.heading).toBe('Bike');
    expect(out.warnings.join('\n')).toContain('now returns 24-dimensional vectors (the index held 32): every chunk is embedded again');
  });

  it('refuses empty vectors instead of storing them', async () => {
    const url = await serve((_req, body, res) => {
      const n = (JSON.parse(body) as { input: string[] }).input.length;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: Array.from({ length: n }, (_, index) => ({ index, embedding: [] })) }));
    });
    const e = new OpenAiEmbedder({ baseUrl: url, model: 'm', apiKey: '', batchSize: 8, timeoutMs: 2000 });
    await expect(e.embed(['a', 'b'])).rejects.toThrow(/returned empty or uneven vectors/);
  });

  it('hipo index exits 1 and says why when the endpoint fails; hipo search still answers', async () => {
    const url = await serve((_req, _body, res) => {
      res.writeHead(503).end('down');
    });
    const ws = makeWorkspace(FILES, { timeZone: 'UTC', search: { embedder: 'openai', openai: { baseUrl: url, model: 'm' } } });
    const idx = await runCliAsync(['index', '--dir', ws.root]);
    expect(idx.code).toBe(1);
    expect(idx.stdout).toContain(`warning: vectors not updated: embeddings endpoint ${url} answered HTTP 503`);
    expect(idx.stdout).toMatch(/vectors 0 \(no embedder; 0 new, 3 waiting\)/);
    const s = await runCliAsync(['search', 'tomatoes', '--json', '--dir', ws.root]);
    expect(s.code).toBe(0);
    const out = JSON.parse(s.stdout) as { mode: string; hits: { heading: string }[]; warnings: string[] };
    expect(out.mode).toBe('bm25');
    expect(out.hits[0]!.heading).toBe('Garden');
    expect(out.warnings.join('\n')).toContain('keyword results only');
  });
});
