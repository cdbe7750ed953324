// What `hipo init --platform` added, so `hipo uninstall` removes exactly that:
// `.hipo/install/<platform>.json`. Files hipo created carry their hash (a file the user has
// since changed is left alone); settings files hipo merged into keep their bytes from before
// the first install, so that removing hipo's entries can restore them byte for byte.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Workspace } from '../tree/layout.js';
import { ensureStateDir } from '../tree/state-dir.js';
import { atomicWriteFile } from '../write/atomic.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface CreatedFile {
  /** Workspace-relative. */
  path: string;
  hash: string;
}

export interface MergedJson {
  path: string;
  /** The file's bytes (base64) before hipo first touched it; null when hipo created it. */
  original: string | null;
  /** Hook groups added, by event. */
  added: Record<string, Json[]>;
}

export interface InstallManifest {
  version: 1;
  platform: string;
  installedAt: string;
  command: string;
  files: CreatedFile[];
  /** Folders hipo created (removed on uninstall when empty), deepest last. */
  dirs: string[];
  json: MergedJson[];
}

export function manifestPath(ws: Workspace, platform: string): string {
  return join(ws.stateDir, 'install', `${platform}.json`);
}

export function loadManifest(ws: Workspace, platform: string): InstallManifest | null {
  try {
    const m = JSON.parse(readFileSync(manifestPath(ws, platform), 'utf8')) as InstallManifest;
    return m.version === 1 && m.platform === platform ? m : null;
  } catch {
    return null;
  }
}

export function saveManifest(ws: Workspace, m: InstallManifest): void {
  ensureStateDir(ws);
  mkdirSync(join(ws.stateDir, 'install'), { recursive: true });
  atomicWriteFile(manifestPath(ws, m.platform), `${JSON.stringify(m, null, 2)}\n`);
}

export function removeManifest(ws: Workspace, platform: string): void {
  rmSync(manifestPath(ws, platform), { force: true });
}
