// Merging hook groups into a platform's settings JSON (`{"hooks": {Event: [group, …]}}`, the
// shape Claude Code and Codex share) without touching anything else, and taking them out again.
import type { Json } from './manifest.js';

type Obj = { [k: string]: Json };
const isObj = (v: Json | undefined): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** JSON with sorted keys: equality that ignores key order. */
export function canonical(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`).join(',')}}`;
  return JSON.stringify(v);
}

export function addHookGroups(doc: Obj, groups: Record<string, Json[]>): Obj {
  const hooks: Obj = isObj(doc.hooks) ? doc.hooks : {};
  if (!isObj(doc.hooks)) doc.hooks = hooks;
  for (const [event, add] of Object.entries(groups)) {
    const list: Json[] = Array.isArray(hooks[event]) ? (hooks[event] as Json[]) : [];
    if (!Array.isArray(hooks[event])) hooks[event] = list;
    for (const g of add) if (!list.some((x) => canonical(x) === canonical(g))) list.push(g);
  }
  return doc;
}

/**
 * Removes the given groups. Event lists and the `hooks` object are dropped when they end up
 * empty and were not in `original`. Returns how many groups were not found.
 */
export function removeHookGroups(doc: Obj, groups: Record<string, Json[]>, original: Obj | null): number {
  let missing = 0;
  const hooks = doc.hooks;
  if (!isObj(hooks)) return Object.values(groups).reduce((n, g) => n + g.length, 0);
  const origHooks = original && isObj(original.hooks) ? original.hooks : null;
  for (const [event, remove] of Object.entries(groups)) {
    const list = hooks[event];
    if (!Array.isArray(list)) {
      missing += remove.length;
      continue;
    }
    for (const g of remove) {
      const i = list.findIndex((x) => canonical(x) === canonical(g));
      if (i === -1) missing++;
      else list.splice(i, 1);
    }
    if (list.length === 0 && !(origHooks && event in origHooks)) delete hooks[event];
  }
  if (Object.keys(hooks).length === 0 && !(original && 'hooks' in original)) delete doc.hooks;
  return missing;
}

/** The indentation a JSON file uses (two spaces when it cannot tell). */
export function detectIndent(text: string | null): string | number {
  const m = text ? /\n([ \t]+)"/.exec(text) : null;
  return m ? (m[1]!.includes('\t') ? '\t' : m[1]!.length) : 2;
}
