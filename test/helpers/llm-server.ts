// A real OpenAI-compatible chat-completions server on 127.0.0.1 for tests: node:http, a random
// port, every request recorded. Each test says how it answers (a completion, an HTTP error, a
// retry-after, silence, a dropped connection); by default it answers like a well-behaved model,
// with a valid summary built from the request so that tests can find the request's words in
// the node that was written.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach } from 'vitest';

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    messages: { role: string; content: string }[];
    max_tokens?: number;
    temperature?: number;
    [k: string]: unknown;
  };
  raw: string;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as is (with `contentType`). */
  text?: string;
  contentType?: string;
  delayMs?: number;
  /** Never answer (the client must time out). */
  hang?: boolean;
  /** Drop the connection without an answer. */
  destroy?: boolean;
  /** Send the headers and the start of a body, then nothing more. */
  stall?: boolean;
}

export type Handler = (req: RecordedRequest, n: number) => Reply | Promise<Reply>;

export interface FakeLlm {
  /** Base URL to configure: `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Replaces the handler; `n` counts requests from 1. */
  respond(handler: Handler): void;
  /** Stops accepting and drops open connections (a server killed mid-cycle). */
  kill(): Promise<void>;
}

export function completion(
  content: string,
  opts: { finishReason?: string; promptTokens?: number; completionTokens?: number; model?: string } = {},
): Reply {
  return {
    json: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: opts.model ?? 'test-model',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: opts.finishReason ?? 'stop' }],
      usage: {
        prompt_tokens: opts.promptTokens ?? 1000,
        completion_tokens: opts.completionTokens ?? 200,
        total_tokens: (opts.promptTokens ?? 1000) + (opts.completionTokens ?? 200),
      },
    },
  };
}

/** True for a ROOT recompaction request (by its prompt). */
export function isRootRequest(req: RecordedRequest): boolean {
  return req.body.messages[0]?.content.includes('You maintain ROOT.md') ?? false;
}

/** The node a request is for, from its user message: `2026-03-15`, `2026-W11`, `2026-03`. */
export function requestedNode(req: RecordedRequest): string | null {
  const m = /Sources of the \w+ node (\S+)/.exec(req.body.messages[1]?.content ?? '');
  return m ? m[1]! : null;
}

/** A valid summary that echoes the request: the first words of every source line that has some. */
export function echoSummary(req: RecordedRequest): string {
  if (isRootRequest(req)) {
    return [
      '## Active Context',
      '- model active context line',
      '',
      '## Recent Patterns',
      '- model pattern line',
      '',
      '## Historical Summary',
      '- model history line',
    ].join('\n');
  }
  const user = req.body.messages[1]?.content ?? '';
  const facts = user
    .split('\n')
    .filter((l) => /^(?:[-*] |User: )/.test(l))
    .slice(0, 30)
    .map((l) => `- ${l.replace(/^(?:[-*] |User: )/, '').slice(0, 160)}`);
  return [
    '## Topics',
    '- echo [project]: model, summary',
    '',
    '## Highlights',
    `- model summary of ${requestedNode(req) ?? 'a node'}`,
    ...facts,
  ].join('\n');
}

const servers: FakeLlm[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.kill();
});

export async function startFakeLlm(handler: Handler = (req) => completion(echoSummary(req))): Promise<FakeLlm> {
  let current = handler;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', () => {
      let body: RecordedRequest['body'];
      try {
        body = JSON.parse(raw) as RecordedRequest['body'];
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
        return;
      }
      const rec: RecordedRequest = { path: req.url ?? '', headers: req.headers, body, raw };
      requests.push(rec);
      void Promise.resolve(current(rec, requests.length)).then(async (r) => {
        if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
        if (r.hang) return;
        if (r.destroy) {
          req.socket.destroy();
          return;
        }
        if (r.stall) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"choices": [');
          return;
        }
        const headers = { ...(r.headers ?? {}) };
        if (r.json !== undefined) {
          res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(r.json));
        } else {
          res.writeHead(r.status ?? 200, { 'content-type': r.contentType ?? 'text/plain', ...headers }).end(r.text ?? '');
        }
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  let killed = false;
  const fake: FakeLlm = {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    respond(h) {
      current = h;
    },
    async kill() {
      if (killed) return;
      killed = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
  servers.push(fake);
  return fake;
}
