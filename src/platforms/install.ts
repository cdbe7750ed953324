// Applying a platform plan (files to create, hook groups to merge) idempotently, and undoing it
// exactly. Files that were there before are never overwritten or deleted; settings files get
// only hipo's entries added, and on uninstall are restored byte for byte when nothing else in
// them changed meanwhile.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Workspace } from '../tree/layout.js';
import { atomicWriteFile } from '../write/atomic.js';
import { InstallError } from './command.js';
import { addHookGroups, canonical, detectIndent, removeHookGroups } from './hook-settings.js';
import { loadManifest, removeManifest, saveManifest, type InstallManifest, type Json, type MergedJson } from './manifest.js';

export interface PlannedFile {
  path: string;
  content: string;
}

export interface PlannedJson {
  path: string;
  groups: Record<string, Json[]>;
}

export interface PlatformPlan {
  platform: string;
  command: string;
  files: PlannedFile[];
  json: PlannedJson[];
  notes: string[];
}

export interface InstallReport {
  platform: string;
  created: string[];
  updated: string[];
  unchanged: string[];
  /** Files that exist and are not hipo's: left as they are. */
  skipped: string[];
  merged: string[];
  notes: string[];
}

const sha = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

function readMaybe(abs: string): Buffer | null {
  try {
    return readFileSync(abs);
  } catch {
    return null;
  }
}

function parseSettings(abs: string, bytes: Buffer | null): { [k: string]: Json } {
  if (!bytes || bytes.toString('utf8').trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new InstallError(`${abs}: is not valid JSON (${(err as Error).message}); fix or move it, then run init again (nothing was changed)`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new InstallError(`${abs}: must hold a JSON object (nothing was changed)`);
  return v as { [k: string]: Json };
}

/** Creates the folders above `abs` that are missing, recording them (outermost first). */
function mkdirs(root: string, abs: string, dirs: string[]): void {
  const missing: string[] = [];
  for (let d = dirname(abs); d.startsWith(root + sep) && !existsSync(d); d = dirname(d)) missing.unshift(d);
  for (const d of missing) {
    mkdirSync(d);
    const rel = relative(root, d);
    if (!dirs.includes(rel)) dirs.push(rel);
  }
}

function inside(root: string, rel: string): string {
  const abs = resolve(root, rel);
  if (!abs.startsWith(root + sep)) throw new InstallError(`${rel}: outside the workspace`);
  return abs;
}

export function installPlatform(ws: Workspace, plan: PlatformPlan): InstallReport {
  const root = ws.root;
  const prev = loadManifest(ws, plan.platform);
  // Check every settings file first, so a broken one stops the install before anything is written.
  const settings = plan.json.map((j) => {
    const abs = inside(root, j.path);
    const bytes = readMaybe(abs);
    return { j, abs, bytes, doc: parseSettings(abs, bytes) };
  });
  const m: InstallManifest = { version: 1, platform: plan.platform, installedAt: new Date().toISOString(), command: plan.command, files: [], dirs: [...(prev?.dirs ?? [])], json: [] };
  const report: InstallReport = { platform: plan.platform, created: [], updated: [], unchanged: [], skipped: [], merged: [], notes: [...plan.notes] };

  for (const f of plan.files) {
    const abs = inside(root, f.path);
    const old = readMaybe(abs);
    const mine = prev?.files.find((x) => x.path === f.path);
    if (old === null) {
      mkdirs(root, abs, m.dirs);
      atomicWriteFile(abs, f.content);
      report.created.push(f.path);
    } else if (old.toString('utf8') === f.content) {
      if (!mine) {
        report.skipped.push(f.path); // identical but not created by hipo: not hipo's to remove
        continue;
      }
      report.unchanged.push(f.path);
    } else if (mine && sha(old) === mine.hash) {
      atomicWriteFile(abs, f.content); // hipo's own file, unchanged since: upgrade it
      report.updated.push(f.path);
    } else {
      report.skipped.push(f.path);
      if (mine) m.files.push(mine); // still hipo's, edited by the user: uninstall will leave it
      continue;
    }
    m.files.push({ path: f.path, hash: sha(f.content) });
  }
  // Files of an earlier install that this plan no longer has (e.g. a renamed skill).
  for (const old of prev?.files ?? []) {
    if (plan.files.some((f) => f.path === old.path)) continue;
    const abs = join(root, old.path);
    const bytes = readMaybe(abs);
    if (bytes && sha(bytes) === old.hash) rmSync(abs);
    else if (bytes) m.files.push(old);
  }

  for (const { j, abs, bytes, doc } of settings) {
    const before = prev?.json.find((x) => x.path === j.path);
    const original = before ? before.original : bytes ? bytes.toString('base64') : null;
    if (before) removeHookGroups(doc, before.added as Record<string, Json[]>, original ? parseSettings(abs, Buffer.from(original, 'base64')) : null);
    addHookGroups(doc, j.groups);
    const text = `${JSON.stringify(doc, null, detectIndent(bytes?.toString('utf8') ?? null))}\n`;
    if (bytes === null || canonical(parseSettings(abs, bytes)) !== canonical(doc)) {
      if (bytes === null) mkdirs(root, abs, m.dirs);
      atomicWriteFile(abs, text);
      report.merged.push(j.path);
    } else report.unchanged.push(j.path);
    const merged: MergedJson = { path: j.path, original, added: j.groups };
    m.json.push(merged);
  }
  saveManifest(ws, m);
  return report;
}

export interface UninstallReport {
  platform: string;
  removed: string[];
  restored: string[];
  /** Left in place: changed since hipo wrote them. */
  kept: string[];
  notes: string[];
}

export function uninstallPlatform(ws: Workspace, platform: string): UninstallReport | null {
  const m = loadManifest(ws, platform);
  if (!m) return null;
  const root = ws.root;
  const report: UninstallReport = { platform, removed: [], restored: [], kept: [], notes: [] };
  for (const f of m.files) {
    const abs = join(root, f.path);
    const bytes = readMaybe(abs);
    if (!bytes) continue;
    if (sha(bytes) === f.hash) {
      rmSync(abs);
      report.removed.push(f.path);
    } else report.kept.push(f.path);
  }
  for (const j of m.json) {
    const abs = join(root, j.path);
    const bytes = readMaybe(abs);
    if (!bytes) continue;
    let doc;
    try {
      doc = parseSettings(abs, bytes);
    } catch (err) {
      report.kept.push(j.path);
      report.notes.push((err as Error).message);
      continue;
    }
    const original = j.original ? Buffer.from(j.original, 'base64') : null;
    const origDoc = original ? parseSettings(abs, original) : null;
    const missing = removeHookGroups(doc, j.added as Record<string, Json[]>, origDoc);
    if (missing) report.notes.push(`${j.path}: ${missing} hook entr${missing === 1 ? 'y' : 'ies'} hipo added had been changed or removed; left as found`);
    if (original && canonical(doc) === canonical(origDoc!)) {
      atomicWriteFile(abs, original);
      report.restored.push(j.path);
    } else if (!original && Object.keys(doc).length === 0) {
      rmSync(abs);
      report.removed.push(j.path);
    } else {
      atomicWriteFile(abs, `${JSON.stringify(doc, null, detectIndent(bytes.toString('utf8')))}\n`);
      report.restored.push(j.path);
    }
  }
  for (const d of [...m.dirs].reverse()) {
    const abs = join(root, d);
    try {
      if (readdirSync(abs).length === 0) rmdirSync(abs);
    } catch {
      /* gone or not empty */
    }
  }
  removeManifest(ws, platform);
  return report;
}

export function installedPlatforms(ws: Workspace): string[] {
  try {
    return readdirSync(join(ws.stateDir, 'install')).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)).sort();
  } catch {
    return [];
  }
}
