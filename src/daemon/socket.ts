// The daemon's side of ask.ts: a Unix domain socket in `.hipo/`, readable and writable by its
// owner only (created under a umask of 0177, then chmod 0600), one JSON request line per
// connection, one JSON answer line back. A socket left by a daemon that crashed is removed at
// start: the caller holds the daemon lock, so no live daemon owns it.
import { chmodSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { DaemonAnswer, DaemonRequest } from './ask.js';

/** A request line longer than this is refused (requests are a few hundred bytes). */
const MAX_REQUEST_BYTES = 64 * 1024;

/** An answer, or a refusal that sends the asking command back to doing the work itself. */
export type Reply = DaemonAnswer<unknown> | { declined: string };

export type RequestHandler = (request: DaemonRequest) => Promise<Reply>;

export class RequestServer {
  private readonly open = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly path: string,
  ) {}

  static listen(path: string, handle: RequestHandler): Promise<RequestServer> {
    try {
      unlinkSync(path);
    } catch {
      /* none left behind */
    }
    const server = createServer({ allowHalfOpen: false });
    const rs = new RequestServer(server, path);
    server.on('connection', (socket) => rs.serve(socket, handle));
    return new Promise((resolve, reject) => {
      const umask = process.umask(0o177);
      server.once('error', (err) => {
        process.umask(umask);
        reject(err);
      });
      server.listen(path, () => {
        process.umask(umask);
        try {
          chmodSync(path, 0o600);
        } catch {
          /* the umask already made it 0600 */
        }
        resolve(rs);
      });
    });
  }

  private serve(socket: Socket, handle: RequestHandler): void {
    this.open.add(socket);
    socket.on('close', () => this.open.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setEncoding('utf8');
    let buf = '';
    let taken = false;
    socket.on('data', (d: string) => {
      if (taken) return;
      buf += d;
      if (buf.length > MAX_REQUEST_BYTES) {
        socket.destroy();
        return;
      }
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      taken = true;
      let request: DaemonRequest;
      try {
        request = JSON.parse(buf.slice(0, nl)) as DaemonRequest;
      } catch {
        socket.end(`${JSON.stringify({ ok: false, error: 'the request is not JSON' })}\n`);
        return;
      }
      handle(request).then(
        (reply) => socket.end(`${JSON.stringify(reply)}\n`),
        (err: unknown) => socket.end(`${JSON.stringify({ ok: false, error: err instanceof Error ? err.message : String(err) })}\n`),
      );
    });
  }

  /** Stops listening, drops open connections and removes the socket file. */
  async close(): Promise<void> {
    for (const s of this.open) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    try {
      unlinkSync(this.path);
    } catch {
      /* already gone */
    }
  }
}
