// A fake model server on 127.0.0.1 for the agent CLIs: answers the Anthropic Messages, OpenAI
// Responses and Chat Completions endpoints (streamed or not, as asked), lists models, records
// every request, and replies as the test scripts it (text, thinking, tool calls). Anything it
// does not serve is answered 404 and kept in `unhandled`, so a test can say what a tool asked for.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { ModelRequest } from './requests.js';
import {
  anthropicMessage,
  anthropicStream,
  chatCompletion,
  chatStream,
  responsesObject,
  responsesStream,
  sseText,
  type Reply,
  type SseEvent,
  type Wire,
} from './wire.js';

export type Script = (req: ModelRequest) => Reply | null | undefined;

export interface FakeModel {
  /** `http://127.0.0.1:<port>` (clients add `/v1` themselves, or are given `${url}/v1`). */
  url: string;
  requests: ModelRequest[];
  /** Requests it had no answer for: method and path. */
  unhandled: string[];
  /** Sets how it answers from now on; unscripted requests get a short text reply. */
  script(fn: Script): void;
  close(): Promise<void>;
}

export const MODEL_IDS = ['claude-sonnet-4-5', 'claude-haiku-4-5', 'gpt-5', 'fake-model'];

function wireOf(method: string, path: string): Wire | 'count' | 'models' | null {
  const p = path.split('?')[0]!.replace(/\/+$/, '');
  if (method === 'POST' && p.endsWith('/messages/count_tokens')) return 'count';
  if (method === 'POST' && p.endsWith('/messages')) return 'anthropic';
  if (method === 'POST' && p.endsWith('/responses')) return 'responses';
  if (method === 'POST' && p.endsWith('/chat/completions')) return 'chat';
  if (method === 'GET' && /\/models$/.test(p)) return 'models';
  return null;
}

function decode(raw: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').toLowerCase()) {
    case 'gzip':
      return gunzipSync(raw);
    case 'br':
      return brotliDecompressSync(raw);
    case 'deflate':
      return inflateSync(raw);
    default:
      return raw;
  }
}

function send(res: ServerResponse, wire: Wire, stream: boolean, reply: Reply, body: Record<string, unknown>): void {
  const model = typeof body.model === 'string' ? body.model : 'fake-model';
  if (reply.error) {
    res.writeHead(reply.error.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.error.body));
    return;
  }
  if (!stream) {
    const json =
      wire === 'anthropic'
        ? anthropicMessage(reply, model)
        : wire === 'responses'
          ? responsesObject(reply, model)
          : chatCompletion(reply, model);
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_fake' }).end(JSON.stringify(json));
    return;
  }
  const usage =
    typeof body.stream_options === 'object' &&
    body.stream_options !== null &&
    (body.stream_options as { include_usage?: boolean }).include_usage === true;
  const events: SseEvent[] =
    wire === 'anthropic'
      ? anthropicStream(reply, model)
      : wire === 'responses'
        ? responsesStream(reply, model)
        : chatStream(reply, model, usage);
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'request-id': 'req_fake',
  });
  for (const chunk of sseText(events)) res.write(chunk);
  res.end();
}

export async function startFakeModel(): Promise<FakeModel> {
  let script: Script = () => null;
  const requests: ModelRequest[] = [];
  const unhandled: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const kind = wireOf(method, path);
      if (kind === null) {
        unhandled.push(`${method} ${path}`);
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { type: 'not_found_error', message: `fake model server: no ${method} ${path}` } }));
        return;
      }
      if (kind === 'models') {
        const data = MODEL_IDS.map((id) => ({
          id,
          object: 'model',
          type: 'model',
          display_name: id,
          created: 1_750_000_000,
          created_at: '2026-01-01T00:00:00Z',
          owned_by: 'fake',
        }));
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data, has_more: false, first_id: data[0]!.id, last_id: data.at(-1)!.id }));
        return;
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(decode(Buffer.concat(chunks), req.headers['content-encoding'] as string | undefined).toString('utf8')) as Record<
          string,
          unknown
        >;
      } catch (err) {
        unhandled.push(`${method} ${path}: body is not JSON (${(err as Error).message})`);
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'body is not JSON' } }));
        return;
      }
      if (kind === 'count') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ input_tokens: Math.ceil(JSON.stringify(body).length / 4) }));
        return;
      }
      const rec: ModelRequest = {
        n: requests.length + 1,
        wire: kind,
        path,
        headers: req.headers,
        body,
        stream: body.stream === true,
        at: Date.now(),
      };
      requests.push(rec);
      let reply: Reply;
      try {
        reply = script(rec) ?? { text: 'OK.' };
      } catch (err) {
        reply = { text: `fake model script failed: ${(err as Error).message}` };
      }
      send(res, kind, rec.stream, reply, body);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // A client that asks to upgrade to a WebSocket (Codex tries for Responses) is refused, so it
  // falls back to plain HTTP.
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    unhandled.push(`UPGRADE ${req.url ?? '/'}`);
    socket.end('HTTP/1.1 426 Upgrade Required\r\ncontent-length: 0\r\n\r\n');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    unhandled,
    script(fn) {
      script = fn;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
