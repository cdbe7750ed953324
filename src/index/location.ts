// Where a workspace's search index lives (a light module: no database code behind it).
import { join } from 'node:path';
import type { Workspace } from '../tree/layout.js';

const INDEX_FILE = 'index.db';

export function indexFile(ws: Workspace): string {
  return join(ws.stateDir, INDEX_FILE);
}
