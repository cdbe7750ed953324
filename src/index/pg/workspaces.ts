// Which workspaces a store holds: a search names the ones it reads, and a name the store does not
// hold is said, not silently searched as nothing.
import type { ClientBase } from 'pg';
import type { PgStore } from './store.js';

export interface WorkspaceCount {
  workspace: string;
  files: number;
  chunks: number;
}

/** Every workspace in the store with its file and chunk counts. */
export function storeWorkspaces(store: PgStore): Promise<WorkspaceCount[]> {
  return store.use(async (c) =>
    (
      await c.query(
        `SELECT workspace, count(*)::int AS files, coalesce(sum(chunks), 0)::int AS chunks
         FROM hipo_files GROUP BY workspace ORDER BY workspace`,
      )
    ).rows.map((r) => ({ workspace: r.workspace as string, files: r.files as number, chunks: r.chunks as number })),
  );
}

/** `names` split into those the store holds and those it does not (on a connection in use). */
export async function heldWorkspaces(c: ClientBase, names: readonly string[]): Promise<{ present: string[]; missing: string[] }> {
  const held = new Set(
    (await c.query('SELECT DISTINCT workspace FROM hipo_files WHERE workspace = ANY($1::text[])', [names])).rows.map(
      (r) => r.workspace as string,
    ),
  );
  return { present: names.filter((n) => held.has(n)), missing: names.filter((n) => !held.has(n)) };
}
