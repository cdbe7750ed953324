// Undoing an install from what is installed: the manifest beside the installed files, else (an
// install whose manifest is gone) hipo's entries recognised in place. Files are removed only
// when they are exactly what hipo wrote; JSON files lose only hipo's entries.
import { readdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { atomicWriteFile } from '../fs/atomic.js';
import { removeMcpServer } from './claude-cli.js';
import { inside, jsonText, parseJsonFile, readMaybe, sha, takeOut } from './install.js';
import { canonical, removeEntries, type Obj } from './json-entries.js';
import { removeLegacyManifest, removeManifest, type InstallManifest } from './manifest.js';
import type { PlatformPlan } from './plans.js';
import { hipoEntries, isHipoGenerated, isHipoSkill } from './recognize.js';

export interface UninstallReport {
  platform: string;
  scope: string;
  base: string;
  removed: string[];
  restored: string[];
  /** Left in place: changed since hipo wrote them. */
  kept: string[];
  notes: string[];
}

function emptyReport(plan: PlatformPlan, scope: string): UninstallReport {
  return { platform: plan.platform, scope, base: plan.base, removed: [], restored: [], kept: [], notes: [] };
}

function rmdirIfEmpty(abs: string): boolean {
  try {
    if (readdirSync(abs).length > 0) return false;
    rmdirSync(abs);
    return true;
  } catch {
    return false;
  }
}

export function uninstallFromManifest(
  plan: PlatformPlan,
  m: InstallManifest,
  manifestFile: string,
  opts: { workspace?: string; env?: NodeJS.ProcessEnv },
): UninstallReport {
  const base = plan.base;
  const report = emptyReport(plan, m.scope);
  for (const f of m.files) {
    const bytes = readMaybe(join(base, f.path));
    if (!bytes) continue;
    if (sha(bytes) === f.hash) {
      rmSync(join(base, f.path));
      report.removed.push(f.path);
    } else report.kept.push(f.path);
  }
  for (const j of m.json) {
    const existed = readMaybe(join(base, j.path)) !== null;
    const note = takeOut(base, j);
    if (note) report.notes.push(note);
    if (existed) (readMaybe(join(base, j.path)) === null ? report.removed : report.restored).push(j.path);
  }
  for (const step of m.external) report.notes.push(removeMcpServer(step, opts.workspace ?? base, opts.env).message);
  report.notes.push(...(plan.uninstallNotes ?? []));
  removeManifest(manifestFile);
  if (opts.workspace === base) removeLegacyManifest(base, plan.platform);
  for (const d of [...m.dirs].reverse()) rmdirIfEmpty(join(base, d));
  return report;
}

/** Removes what a plan would install where it is recognisably hipo's. Null when nothing was found. */
export function uninstallRecognised(plan: PlatformPlan): UninstallReport | null {
  const base = plan.base;
  const report = emptyReport(plan, plan.scope);
  const emptied = new Set<string>();
  for (const f of plan.files) {
    const abs = inside(base, f.path);
    const bytes = readMaybe(abs);
    if (!bytes) continue;
    const text = bytes.toString('utf8');
    if (text === f.content) {
      rmSync(abs);
      report.removed.push(f.path);
      emptied.add(dirname(abs));
    } else if (f.path.endsWith('SKILL.md') ? isHipoSkill(text) : isHipoGenerated(text)) report.kept.push(f.path);
  }
  for (const j of plan.json) {
    const abs = inside(base, j.path);
    const bytes = readMaybe(abs);
    if (!bytes) continue;
    let doc: Obj;
    try {
      doc = parseJsonFile(abs, bytes);
    } catch (err) {
      report.notes.push((err as Error).message);
      continue;
    }
    const before = canonical(doc);
    removeEntries(doc, hipoEntries(doc, Object.keys(j.add.keys ?? {})), null);
    if (canonical(doc) === before) continue;
    if (Object.keys(doc).length === 0) {
      rmSync(abs);
      report.removed.push(j.path);
      emptied.add(dirname(abs));
    } else {
      atomicWriteFile(abs, jsonText(doc, bytes));
      report.restored.push(j.path);
    }
  }
  // Folders left empty, up to (not including) the base folder.
  for (const start of [...emptied].sort((a, b) => b.length - a.length)) {
    for (let d = start; d.startsWith(base + sep) && rmdirIfEmpty(d); d = dirname(d)) {
      /* climb while empty */
    }
  }
  if (!report.removed.length && !report.restored.length && !report.kept.length) return null;
  report.notes.push(`no install record (${plan.manifest}): took out what is recognisably hipo's`);
  return report;
}
