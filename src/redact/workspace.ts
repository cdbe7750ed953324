// The redactor of a workspace: hipo's rules plus the workspace's `redactPatterns`, built once
// per process for each set of patterns. Loading a workspace's configuration records its
// patterns, so code that holds only the Workspace (state files under .hipo/, the journal, the
// embedder) redacts with the same rules as code that holds the configuration.
import { resolve } from 'node:path';
import { Redactor } from './redactor.js';

const byPatterns = new Map<string, Redactor>();
const patternsByRoot = new Map<string, readonly string[]>();

/** The redactor for hipo's rules plus `patterns`. */
export function redactorFor(patterns: readonly string[] = []): Redactor {
  const key = JSON.stringify(patterns);
  let r = byPatterns.get(key);
  if (!r) byPatterns.set(key, (r = new Redactor(patterns)));
  return r;
}

/** Records the `redactPatterns` of the workspace at `root` (done by loading its configuration). */
export function recordWorkspacePatterns(root: string, patterns: readonly string[]): void {
  patternsByRoot.set(resolve(root), [...patterns]);
}

/**
 * The redactor for every workspace this process has loaded (a command loads one): what the
 * command line prints passes it, whichever command printed it.
 */
export function recordedRedactor(): Redactor {
  const all = new Set<string>();
  for (const list of patternsByRoot.values()) for (const p of list) all.add(p);
  return redactorFor([...all]);
}

/** The redactor of the workspace at `ws.root`: its recorded patterns, else hipo's rules alone. */
export function workspaceRedactor(ws: { root: string }): Redactor {
  return redactorFor(patternsByRoot.get(resolve(ws.root)) ?? []);
}

/** The names hipo's layout makes: a date, a week or a month, in its folder, or ROOT.md. */
const LAYOUT_NAME = /^(?:(?:daily|weekly|monthly)\/)?(?:\d{4}-\d{2}(?:-\d{2})?|\d{4}-W\d{2}|ROOT)\.md$/;

/**
 * `path` with any secret in it redacted. A name of hipo's layout after `prefix` (the memory
 * folder, when the path has it) is digits and fixed words and is returned as it is: a scan
 * meets thousands of them (8,000 names of a 10-year tree: ~30 ms through the redactor in a
 * one-shot command, ~12 ms this way).
 */
export function redactedPath(redactor: Redactor, path: string, prefix = ''): string {
  if (path.startsWith(prefix) && LAYOUT_NAME.test(path.slice(prefix.length))) return path;
  return redactor.redact(path).text;
}
