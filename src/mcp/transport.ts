// stdio for the MCP server, one JSON-RPC message per line, with a bound on a request's size.
// The SDK's own stdio transport closes the connection when a line passes its 10 MB buffer (the
// server then exits or goes mute); this one answers such a request with an error, drops its
// bytes as they arrive (memory stays bounded whatever is sent) and keeps serving. A line that
// is not JSON gets the JSON-RPC parse error instead of silence.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** hipo's largest legitimate request (a `log` text of 20,000 characters) is far below this. */
const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** Enough of a line's start to find its id. */
const HEAD_BYTES = 4096;

type Id = string | number | null;

/** The request id, read from the start of a line that will not be parsed whole. */
function idOf(head: string): Id {
  const m = /"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,16})/.exec(head);
  if (!m) return null;
  return m[1]!.startsWith('"') ? (JSON.parse(m[1]!) as string) : Number(m[1]);
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** The line being dropped: its start, and how long it has grown. */
  private dropping: { head: string; bytes: number } | null = null;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxBytes = MAX_REQUEST_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  private readonly onInputError = (err: Error): void => {
    this.onerror?.(err);
  };

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (this.dropping) this.dropping.bytes += piece.length;
      else if (this.size + piece.length > this.maxBytes) {
        const head = Buffer.concat([...this.chunks, piece.subarray(0, HEAD_BYTES)])
          .subarray(0, HEAD_BYTES)
          .toString('utf8');
        this.dropping = { head, bytes: this.size + piece.length };
        this.chunks = [];
        this.size = 0;
      } else {
        this.chunks.push(piece);
        this.size += piece.length;
      }
      if (nl === -1) return;
      start = nl + 1;
      if (this.dropping) {
        const { head, bytes } = this.dropping;
        this.dropping = null;
        this.replyError(idOf(head), -32600, `request of ${bytes} bytes is over hipo's limit of ${this.maxBytes} bytes; it was not read`);
      } else {
        const line = Buffer.concat(this.chunks).toString('utf8');
        this.chunks = [];
        this.size = 0;
        this.handleLine(line);
      }
    }
  };

  private handleLine(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch (err) {
      this.replyError(
        idOf(line.slice(0, HEAD_BYTES)),
        -32700,
        `not a JSON-RPC message (${err instanceof SyntaxError ? err.message : 'wrong shape'})`,
      );
      return;
    }
    this.onmessage?.(message);
  }

  private replyError(id: Id, code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.closed) return resolve();
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.onclose?.();
  }
}
