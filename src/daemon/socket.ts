// The daemon's side of ask.ts: a Unix domain socket in `.hipo/`, readable and writable by its
// owner only, one JSON request line per connection, one JSON answer line back. It is bound in a
// fresh owner-only folder, made 0600 and then moved into place, so no other user can connect at
// any moment, without the process-wide umask (which a worker thread, where the daemon runs,
// cannot set, and which would race the daemon's other writes). A socket or binding folder left
// by a daemon that crashed is removed at start: the caller holds the daemon lock, so no live
// daemon owns them.
import { chmodSync, mkdtempSync, readdirSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { MAX_REQUEST_CHARS, type DaemonAnswer, type DaemonRequest } from './ask.js';

/**
 * The binding folder's name before mkdtemp's six characters: `.s-XXXXXX/s` is as long as
 * `daemon.sock`, so a path short enough for the socket (ask.ts) is short enough to bind.
 */
const BINDING = '.s-';

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
    const parent = dirname(path);
    for (const stale of [
      path,
      ...readdirSync(parent)
        .filter((f) => f.startsWith(BINDING))
        .map((f) => join(parent, f)),
    ])
      rmSync(stale, { recursive: true, force: true });
    // mkdtemp makes the folder 0700: only this user can reach the socket while it is set up.
    const folder = mkdtempSync(join(parent, BINDING));
    const bound = join(folder, 's');
    const server = createServer({ allowHalfOpen: false });
    const rs = new RequestServer(server, path);
    server.on('connection', (socket) => rs.serve(socket, handle));
    return new Promise((resolve, reject) => {
      const fail = (err: Error): void => {
        server.close();
        rmSync(folder, { recursive: true, force: true });
        reject(err);
      };
      server.once('error', fail);
      server.listen(bound, () => {
        try {
          chmodSync(bound, 0o600);
          renameSync(bound, path);
          rmSync(folder, { recursive: true, force: true });
        } catch (err) {
          fail(err as Error);
          return;
        }
        server.off('error', fail);
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
      if (buf.length > MAX_REQUEST_CHARS) {
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
