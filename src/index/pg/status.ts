// What `hipo status` says about a shared store: where it is (never with its password), this
// workspace's name and rows in it, the other workspaces it holds, how vectors are compared, or
// why it cannot be reached. A probe never throws: status must work when the server does not.
import type { HipoConfig } from '../../config/config.js';
import type { Workspace } from '../../tree/layout.js';
import { pgLink, safeUrl } from './store.js';
import { storeWorkspaces, type WorkspaceCount } from './workspaces.js';

export interface StoreStatus {
  kind: 'postgres';
  url: string | null;
  workspace: string | null;
  /** The workspaces a search reads by default. */
  reads: string[];
  /** Every workspace the store holds, with its files and chunks. */
  workspaces: WorkspaceCount[];
  /** How vectors are compared there. */
  vectors: string;
  error: string | null;
}

export async function storeStatus(ws: Workspace, config: HipoConfig, env: NodeJS.ProcessEnv = process.env): Promise<StoreStatus | null> {
  const link = pgLink(ws, config.search, env);
  if (!link) return null;
  const s = link.settings;
  const out: StoreStatus = {
    kind: 'postgres',
    url: s ? safeUrl(s.url) : null,
    workspace: s?.workspace ?? null,
    reads: s?.reads ?? [],
    workspaces: [],
    vectors: 'REAL[] columns: nearest by sign bits, then the exact dot product, in SQL',
    error: link.problem,
  };
  if (!s) return out;
  try {
    const store = await link.store();
    out.workspaces = await storeWorkspaces(store);
    if (await store.vectorExtension()) out.vectors += ' (the server has the vector extension; hipo does not use it yet)';
  } catch (err) {
    out.error = (err as Error).message;
  } finally {
    link.close();
  }
  return out;
}
