// hipo's own folder beside the tree (`.hipo/`): caches, journal, lock, backups. It ignores
// itself for git, so `git add -A` in a workspace never picks up caches.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from './layout.js';

export function ensureStateDir(ws: Workspace): string {
  if (!existsSync(ws.stateDir)) {
    mkdirSync(ws.stateDir, { recursive: true });
  }
  const ignore = join(ws.stateDir, '.gitignore');
  if (!existsSync(ignore)) {
    try {
      writeFileSync(ignore, '# hipo state: caches, journal, lock. Safe to delete.\n*\n');
    } catch {
      /* read-only: not worth failing for */
    }
  }
  return ws.stateDir;
}
