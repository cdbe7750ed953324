// What `hipo init --platform` added, kept beside what it installed (`.claude/hipo-install.json`,
// `.codex/hipo-install.json`, …), not in hipo's cache folder: deleting `.hipo/` must not make an
// install unremovable. Files hipo created carry their hash (a file the user has since changed is
// left alone); JSON files hipo merged into keep their bytes from before the first install, so
// removing hipo's entries can restore them byte for byte.
import { existsSync, mkdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { atomicWriteFile } from '../fs/atomic.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Where an install goes: the project (`local` keeps machine paths out of shared files) or the user's home. */
export const SCOPES = ['local', 'project', 'user'] as const;
export type Scope = (typeof SCOPES)[number];

interface CreatedFile {
  /** Relative to the install's base folder. */
  path: string;
  hash: string;
}

/** What hipo puts into a JSON file: hook groups by event, and whole values at dotted keys. */
export interface JsonEntries {
  hooks?: Record<string, Json[]>;
  /** e.g. `{"mcpServers.hipo": {...}}`. */
  keys?: Record<string, Json>;
}

export interface MergedJson {
  path: string;
  /** The file's bytes (base64) before hipo first touched it; null when hipo created it. */
  original: string | null;
  added: JsonEntries;
}

/** A registration made through the platform's own command line (e.g. `claude mcp add`). */
export interface ExternalStep {
  kind: 'claude-mcp';
  scope: 'local' | 'user';
  name: string;
  argv: string[];
}

export interface InstallManifest {
  version: 2;
  platform: string;
  scope: Scope;
  installedAt: string;
  command: string;
  files: CreatedFile[];
  /** Folders hipo created (removed on uninstall when empty), deepest last. */
  dirs: string[];
  json: MergedJson[];
  external: ExternalStep[];
}

export function loadManifest(file: string, platform: string): InstallManifest | null {
  let m: (Partial<InstallManifest> & { version?: number; json?: { path: string; original: string | null; added: unknown }[] }) | null;
  try {
    m = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
  if (!m || m.platform !== platform) return null;
  if (m.version === 2) return m as InstallManifest;
  if (m.version !== 1) return null;
  // hipo 0.1 kept hook groups directly under `added` and had no scopes.
  return {
    version: 2,
    platform,
    scope: platform === 'claude-code' ? 'local' : 'project',
    installedAt: m.installedAt ?? '',
    command: m.command ?? '',
    files: m.files ?? [],
    dirs: m.dirs ?? [],
    external: [],
    json: (m.json ?? []).map((j) => ({ path: j.path, original: j.original, added: { hooks: j.added as Record<string, Json[]> } })),
  };
}

export function saveManifest(file: string, m: InstallManifest): void {
  mkdirSync(dirname(file), { recursive: true });
  atomicWriteFile(file, `${JSON.stringify(m, null, 2)}\n`);
}

export function removeManifest(file: string): void {
  rmSync(file, { force: true });
}

/** Where hipo 0.1 kept manifests: `.hipo/install/<platform>.json` in the workspace. */
export function legacyManifestPath(workspace: string, platform: string): string {
  return join(workspace, '.hipo', 'install', `${platform}.json`);
}

/** Drops the legacy manifest and the folders it leaves empty. */
export function removeLegacyManifest(workspace: string, platform: string): void {
  const file = legacyManifestPath(workspace, platform);
  if (!existsSync(file)) return;
  rmSync(file, { force: true });
  try {
    rmdirSync(dirname(file));
  } catch {
    /* other manifests still there */
  }
}
