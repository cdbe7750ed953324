// Applying a platform plan idempotently: files to create, JSON entries to merge, registrations
// to make through the platform's own command line. Files that were there before are never
// overwritten (unless they are hipo's own, recognisable in place); JSON files get only hipo's
// entries. What was done is recorded in a manifest beside the installed files (manifest.ts).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { atomicWriteFile } from '../fs/atomic.js';
import { addMcpServer, removeMcpServer } from './claude-cli.js';
import { jsonSyntaxProblem } from '../config/json-position.js';
import { InstallError } from './command.js';
import { addEntries, canonical, detectIndent, removeEntries, type Obj } from './json-entries.js';
import {
  legacyManifestPath,
  loadManifest,
  removeLegacyManifest,
  saveManifest,
  type InstallManifest,
  type Json,
  type MergedJson,
} from './manifest.js';
import type { PlatformPlan } from './plans.js';
import { hipoEntries, isHipoGenerated, isHipoSkill } from './recognize.js';

export interface InstallReport {
  platform: string;
  scope: string;
  base: string;
  created: string[];
  updated: string[];
  unchanged: string[];
  /** Files that exist and are not hipo's (or are hipo's but changed): left as they are. */
  skipped: string[];
  merged: string[];
  registered: string[];
  /** Where the record of this install is (relative to `base`). */
  record: string;
  notes: string[];
}

export const sha = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

export function readMaybe(abs: string): Buffer | null {
  try {
    return readFileSync(abs);
  } catch {
    return null;
  }
}

export function parseJsonFile(abs: string, bytes: Buffer | null): Obj {
  if (!bytes || bytes.toString('utf8').trim() === '') return {};
  let v: unknown;
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  try {
    v = JSON.parse(text);
  } catch (err) {
    // Placed by line and column: V8's message may quote the file, and settings can hold tokens.
    throw new InstallError(`${abs}: ${jsonSyntaxProblem(text, err)}; fix or move it, then run the command again (nothing was changed)`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new InstallError(`${abs}: must hold a JSON object (nothing was changed)`);
  return v as Obj;
}

export function jsonText(doc: Obj, like: Buffer | null): string {
  return `${JSON.stringify(doc, null, detectIndent(like?.toString('utf8') ?? null))}\n`;
}

export function inside(base: string, rel: string): string {
  const abs = resolve(base, rel);
  if (!abs.startsWith(base + sep)) throw new InstallError(`${rel}: outside ${base}`);
  return abs;
}

/** Creates the folders above `abs` that are missing, recording them (outermost first). */
function mkdirs(base: string, abs: string, dirs: string[]): void {
  const missing: string[] = [];
  for (let d = dirname(abs); d.startsWith(base + sep) && !existsSync(d); d = dirname(d)) missing.unshift(d);
  for (const d of missing) {
    mkdirSync(d);
    const rel = relative(base, d).split(sep).join('/');
    if (!dirs.includes(rel)) dirs.push(rel);
  }
}

const recognised = (path: string, text: string): boolean => (path.endsWith('SKILL.md') ? isHipoSkill(text) : isHipoGenerated(text));

/** The previous install's manifest: beside the files, else (in the workspace) where hipo 0.1 kept it. */
export function previousManifest(plan: PlatformPlan, workspace: string | null): InstallManifest | null {
  const legacy = workspace !== null && workspace === plan.base;
  return (
    loadManifest(join(plan.base, plan.manifest), plan.platform) ??
    (legacy ? loadManifest(legacyManifestPath(workspace, plan.platform), plan.platform) : null)
  );
}

export function installPlatform(plan: PlatformPlan, opts: { workspace?: string; env?: NodeJS.ProcessEnv } = {}): InstallReport {
  const base = plan.base;
  const prev = previousManifest(plan, opts.workspace ?? null);
  // Every JSON file is parsed first, so a broken one stops the install before anything is written.
  const planned = plan.json.map((j) => {
    const abs = inside(base, j.path);
    const bytes = readMaybe(abs);
    return { j, abs, bytes, doc: parseJsonFile(abs, bytes) };
  });
  const m: InstallManifest = {
    version: 2,
    platform: plan.platform,
    scope: plan.scope,
    installedAt: new Date().toISOString(),
    command: plan.command,
    files: [],
    dirs: [...(prev?.dirs ?? [])],
    json: [],
    external: [],
  };
  const report: InstallReport = {
    platform: plan.platform,
    scope: plan.scope,
    base,
    created: [],
    updated: [],
    unchanged: [],
    skipped: [],
    merged: [],
    registered: [],
    record: plan.manifest,
    notes: [],
  };

  for (const f of plan.files) {
    const abs = inside(base, f.path);
    const old = readMaybe(abs);
    const mine = prev?.files.find((x) => x.path === f.path);
    if (old === null) {
      mkdirs(base, abs, m.dirs);
      atomicWriteFile(abs, f.content);
      report.created.push(f.path);
    } else if (old.toString('utf8') === f.content) {
      if (!mine && !recognised(f.path, f.content)) {
        report.skipped.push(f.path); // identical but not hipo's to remove
        continue;
      }
      report.unchanged.push(f.path); // hipo's own, recorded or recognised
    } else if (mine && sha(old) === mine.hash) {
      atomicWriteFile(abs, f.content); // hipo's own file, unchanged since: upgrade it
      report.updated.push(f.path);
    } else {
      report.skipped.push(f.path);
      if (mine)
        m.files.push(mine); // still hipo's, edited by the user: uninstall will leave it
      else if (recognised(f.path, old.toString('utf8')))
        report.notes.push(
          `${f.path}: hipo's, but changed (or from another hipo version): kept; delete it and run init again for the current one`,
        );
      continue;
    }
    m.files.push({ path: f.path, hash: sha(f.content) });
  }
  // Files of an earlier install that this plan no longer has (a renamed skill, another scope).
  for (const old of prev?.files ?? []) {
    if (plan.files.some((f) => f.path === old.path)) continue;
    const bytes = readMaybe(join(base, old.path));
    if (bytes && sha(bytes) === old.hash) rmSync(join(base, old.path));
    else if (bytes) m.files.push(old);
  }

  for (const { j, abs, bytes, doc } of planned) {
    const before = prev?.json.find((x) => x.path === j.path);
    let original = before ? before.original : bytes ? bytes.toString('base64') : null;
    if (!before && bytes) {
      // hipo's entries from an install whose record is gone: taken out (they would run twice),
      // and not part of what uninstall restores.
      const found = hipoEntries(doc, Object.keys(j.add.keys ?? {}));
      if (Object.keys(found.hooks).length || Object.keys(found.keys).length) {
        removeEntries(doc, found, null);
        original = Object.keys(doc).length ? Buffer.from(jsonText(doc, bytes)).toString('base64') : null;
      }
    }
    const originalDoc = original ? parseJsonFile(abs, Buffer.from(original, 'base64')) : null;
    if (before) removeEntries(doc, before.added, originalDoc);
    addEntries(doc, j.add);
    if (bytes === null || canonical(parseJsonFile(abs, bytes)) !== canonical(doc)) {
      if (bytes === null) mkdirs(base, abs, m.dirs);
      atomicWriteFile(abs, jsonText(doc, bytes));
      report.merged.push(j.path);
    } else report.unchanged.push(j.path);
    m.json.push({ path: j.path, original, added: j.add });
  }
  // JSON entries of an earlier install that this plan no longer has (e.g. the scope changed).
  for (const old of prev?.json ?? []) {
    if (plan.json.some((j) => j.path === old.path)) continue;
    const r = takeOut(base, old);
    if (r) report.notes.push(r);
  }

  for (const step of plan.external) {
    const had = prev?.external.find((x) => canonical(x as unknown as Json) === canonical(step as unknown as Json));
    if (had) {
      m.external.push(had);
      continue;
    }
    const r = addMcpServer(step, opts.workspace ?? base, opts.env);
    if (r.done) {
      m.external.push(step);
      report.registered.push(r.message);
    } else report.notes.push(r.message);
  }
  for (const old of prev?.external ?? []) {
    if (m.external.includes(old)) continue;
    report.notes.push(removeMcpServer(old, opts.workspace ?? base, opts.env).message);
  }
  // An install that changed nothing leaves its record as it was (idempotent to the byte).
  if (
    prev &&
    prev.version === 2 &&
    canonical({ ...m, installedAt: '' } as unknown as Json) === canonical({ ...prev, installedAt: '' } as unknown as Json)
  )
    m.installedAt = prev.installedAt;
  saveManifest(join(base, plan.manifest), m);
  if (opts.workspace === base) removeLegacyManifest(base, plan.platform);
  return report;
}

/**
 * Takes hipo's entries out of one JSON file: back to its exact original bytes when nothing else
 * changed, deleted when hipo created it and nothing else is left. Returns a note, if any.
 */
export function takeOut(base: string, j: MergedJson): string | null {
  const abs = join(base, j.path);
  const bytes = readMaybe(abs);
  if (!bytes) return null;
  let doc: Obj;
  try {
    doc = parseJsonFile(abs, bytes);
  } catch (err) {
    return (err as Error).message;
  }
  const original = j.original ? Buffer.from(j.original, 'base64') : null;
  const origDoc = original ? parseJsonFile(abs, original) : null;
  const missing = removeEntries(doc, j.added, origDoc);
  if (original && canonical(doc) === canonical(origDoc!)) atomicWriteFile(abs, original);
  // A file hipo created goes once it holds nothing but a `$schema` (OpenCode adds one to every
  // config file it loads): a schema link is no setting of the user's.
  else if (!original && Object.keys(doc).every((k) => k === '$schema')) rmSync(abs);
  else atomicWriteFile(abs, jsonText(doc, bytes));
  return missing ? `${j.path}: ${missing} entr${missing === 1 ? 'y' : 'ies'} hipo added had been changed or removed; left as found` : null;
}
