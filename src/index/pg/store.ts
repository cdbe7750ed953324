// The PostgreSQL tier (`search.store: "postgres"`): one database shared by many workspaces, each
// keyed by its name. The markdown tree stays the source of truth and the local index still
// chunks, hashes and embeds it; the store receives those rows (push.ts) and answers searches
// over the workspaces a search may read (search/pg.ts). `pg` is loaded only when a workspace
// is configured for it, so the other commands do not pay for it.
import { basename } from 'node:path';
import type { Pool, PoolClient } from 'pg';
import { PG_URL, type SearchConfig } from '../../config/config.js';
import { WORKSPACE_NAME } from '../../config/settings-source.js';
import type { Workspace } from '../../tree/layout.js';
import { migrate } from './schema.js';

/** A store problem a person can act on: it names the setting and never holds the password. */
export class PgStoreError extends Error {}

export interface PgSettings {
  /** The connection URL, password included: only ever handed to the driver. */
  url: string;
  /** Where the URL came from, for messages: `HIPO_PG_URL` or `search.postgres.url`. */
  setting: string;
  /** This workspace's name in the store. */
  workspace: string;
  /** The workspaces a search reads by default: this one first, then the configured others. */
  reads: string[];
}

/** The URL without its password (`postgres://hipo:***@db:5432/team`), for messages and status. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/** The store settings of a workspace, or null when it searches its local index only. */
export function pgSettings(ws: Workspace, search: SearchConfig, env: NodeJS.ProcessEnv = process.env): PgSettings | null {
  if (search.store !== 'postgres') return null;
  const fromEnv = env.HIPO_PG_URL?.trim();
  const url = fromEnv || search.postgres.url;
  const setting = fromEnv ? 'HIPO_PG_URL' : 'search.postgres.url';
  if (!url) throw new PgStoreError('"search.store" is "postgres" but no server is set: set "search.postgres.url" or HIPO_PG_URL');
  if (!PG_URL.test(url)) throw new PgStoreError(`${setting} must start with postgres://`);
  const workspace = search.postgres.workspace || basename(ws.root);
  if (!WORKSPACE_NAME.test(workspace))
    throw new PgStoreError(
      `this workspace's folder name ${JSON.stringify(workspace)} cannot name it in the store: set "search.postgres.workspace"`,
    );
  return { url, setting, workspace, reads: [...new Set([workspace, ...search.postgres.workspaces])] };
}

export interface PgStore {
  readonly settings: PgSettings;
  /** Runs `fn` on a pooled connection, after the schema is in place. */
  use<T>(fn: (c: PoolClient) => Promise<T>): Promise<T>;
  /** True when the server has the `vector` extension installed (it is not used yet: see docs). */
  vectorExtension(): Promise<boolean>;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 5_000;

/** What went wrong talking to the server, naming the setting and hiding the password. */
function describePgError(err: unknown, s: PgSettings): PgStoreError {
  if (err instanceof PgStoreError) return err;
  const e = err as { code?: string; message?: string };
  const why = (e.message ?? String(err)).split(s.url).join(safeUrl(s.url));
  return new PgStoreError(`PostgreSQL store at ${safeUrl(s.url)} (${s.setting}): ${why}${e.code ? ` [${e.code}]` : ''}`);
}

/** A store for `settings`; no connection is made until the first use. */
export async function openPgStore(settings: PgSettings): Promise<PgStore> {
  const pg = (await import('pg')).default;
  const pool: Pool = new pg.Pool({
    connectionString: settings.url,
    max: 4,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 10_000,
    application_name: 'hipo',
  });
  // An idle connection the server drops must not crash a daemon: the next use reconnects.
  pool.on('error', () => {});
  let ready: Promise<void> | null = null;
  const use = async <T>(fn: (c: PoolClient) => Promise<T>): Promise<T> => {
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw describePgError(err, settings);
    }
    try {
      if (!ready) ready = migrate(client);
      try {
        await ready;
      } catch (err) {
        ready = null;
        throw err;
      }
      return await fn(client);
    } catch (err) {
      // The local index's own failures (a damaged file) keep their identity: the caller rebuilds.
      if (String((err as { code?: unknown }).code ?? '').startsWith('SQLITE')) throw err;
      throw describePgError(err, settings);
    } finally {
      client.release();
    }
  };
  return {
    settings,
    use,
    vectorExtension: () => use(async (c) => (await c.query("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).rowCount === 1),
    close: () => pool.end(),
  };
}

/**
 * A workspace's way to its store, as the search index holds it: the settings (or why they are
 * unusable), and the store itself, opened on first use and closed with the index.
 */
export interface PgLink {
  readonly settings: PgSettings | null;
  /** Why the configured store cannot be used (no URL, a bad name); null when it can. */
  readonly problem: string | null;
  store(): Promise<PgStore>;
  close(): void;
}

/** The link for a workspace whose `search.store` is "postgres", else null. */
export function pgLink(ws: Workspace, search: SearchConfig, env: NodeJS.ProcessEnv = process.env): PgLink | null {
  if (search.store !== 'postgres') return null;
  let settings: PgSettings | null = null;
  let problem: string | null = null;
  try {
    settings = pgSettings(ws, search, env);
  } catch (err) {
    if (!(err instanceof PgStoreError)) throw err;
    problem = err.message;
  }
  let opened: Promise<PgStore> | null = null;
  return {
    settings,
    problem,
    store() {
      if (!settings) return Promise.reject(new PgStoreError(problem!));
      opened ??= openPgStore(settings);
      return opened;
    },
    close() {
      void opened?.then((s) => s.close()).catch(() => {});
      opened = null;
    },
  };
}
