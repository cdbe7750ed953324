// Which rules a redactor applies, as a digest: hipo records the one it brought its files up to
// (the nodes, the search index), so that a hipo whose rules differ (an upgrade, a changed
// `redactPatterns`) knows to bring them up to its own (cycle/reredact.ts, index/update.ts).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HIPO_RULES } from './rules/hipo.js';
import { PRESET_ID } from './rules/secretlint.js';

let builtin: string | null = null;

/** The modules of this folder, in a fixed order, as this hipo runs them (`.js` built, `.ts` in tests). */
function moduleFiles(dir: string, ext: string, under = ''): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, under), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const rel = under ? `${under}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...moduleFiles(dir, ext, rel));
    else if (e.name.endsWith(ext) && !e.name.endsWith(`.d${ext}`)) out.push(rel);
  }
  return out;
}

/**
 * A digest of hipo's built-in rules: the redactor's code as this hipo ships it (any change to a
 * rule, a check or a helper is one) and secretlint's preset by name and version. Its rules'
 * patterns too, so that a copy of the code that cannot be read still tells rules apart.
 */
export function builtinRulesKey(): string {
  if (builtin !== null) return builtin;
  const h = createHash('sha256');
  for (const r of HIPO_RULES) h.update(JSON.stringify([r.id, r.regex, r.keywords, r.anchor, r.secretGroup, String(r.accept)]));
  let preset = PRESET_ID;
  try {
    const self = fileURLToPath(import.meta.url);
    const dir = join(self, '..');
    for (const rel of moduleFiles(dir, extname(self))) h.update(`\0${rel}\0`).update(readFileSync(join(dir, rel)));
    const require = createRequire(import.meta.url);
    preset += `@${(require('@secretlint/secretlint-rule-preset-recommend/package.json') as { version: string }).version}`;
  } catch {
    // A packaging that hides its files: the patterns above still change with the rules.
  }
  h.update(`\0${preset}`);
  builtin = h.digest('base64url').slice(0, 16);
  return builtin;
}

/** The digest of every rule a redactor applies: the built-in ones and the workspace's patterns. */
export function rulesDigest(builtinKey: string, patternsKey: string): string {
  return createHash('sha256').update(`${builtinKey}\0${patternsKey}`).digest('base64url').slice(0, 16);
}
