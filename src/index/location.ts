// Where a workspace's search index lives (a light module: no database code behind it).
import type { Workspace } from '../tree/layout.js';
import { statePath } from '../state/dir.js';

export function indexFile(ws: Workspace): string {
  return statePath(ws, 'index');
}
