// Merging hipo's entries into a platform's JSON settings without touching anything else, and
// taking them out again: hook groups (`{"hooks": {Event: [group, …]}}`, the shape Claude Code
// and Codex share) and whole values at a key path (`mcpServers.hipo` in `.mcp.json`).
import type { Json, JsonEntries } from './manifest.js';

export type Obj = { [k: string]: Json };
export const isObj = (v: Json | undefined): v is Obj => v !== null && v !== undefined && typeof v === 'object' && !Array.isArray(v);

/** JSON with sorted keys: equality that ignores key order. */
export function canonical(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k]!)}`)
      .join(',')}}`;
  return JSON.stringify(v);
}

export function addEntries(doc: Obj, add: JsonEntries): Obj {
  if (add.hooks) {
    const hooks: Obj = isObj(doc.hooks) ? doc.hooks : {};
    if (!isObj(doc.hooks)) doc.hooks = hooks;
    for (const [event, groups] of Object.entries(add.hooks)) {
      const list: Json[] = Array.isArray(hooks[event]) ? (hooks[event] as Json[]) : [];
      if (!Array.isArray(hooks[event])) hooks[event] = list;
      for (const g of groups) if (!list.some((x) => canonical(x) === canonical(g))) list.push(g);
    }
  }
  for (const [path, value] of Object.entries(add.keys ?? {})) {
    const keys = path.split('.');
    let at = doc;
    for (const k of keys.slice(0, -1)) {
      if (!isObj(at[k])) at[k] = {};
      at = at[k] as Obj;
    }
    at[keys.at(-1)!] = value;
  }
  return doc;
}

/**
 * Removes the given entries where they are still as hipo wrote them. Containers are dropped
 * when they end up empty and were not in `original`. Returns how many entries were not found.
 */
export function removeEntries(doc: Obj, remove: JsonEntries, original: Obj | null): number {
  let missing = 0;
  if (remove.hooks) {
    const hooks = doc.hooks;
    const origHooks = original && isObj(original.hooks) ? original.hooks : null;
    if (!isObj(hooks)) missing += Object.values(remove.hooks).reduce((n, g) => n + g.length, 0);
    else {
      for (const [event, groups] of Object.entries(remove.hooks)) {
        const list = hooks[event];
        if (!Array.isArray(list)) {
          missing += groups.length;
          continue;
        }
        for (const g of groups) {
          const i = list.findIndex((x) => canonical(x) === canonical(g));
          if (i === -1) missing++;
          else list.splice(i, 1);
        }
        if (list.length === 0 && !(origHooks && event in origHooks)) delete hooks[event];
      }
      if (Object.keys(hooks).length === 0 && !(original && 'hooks' in original)) delete doc.hooks;
    }
  }
  for (const [path, value] of Object.entries(remove.keys ?? {})) {
    const keys = path.split('.');
    const chain: Obj[] = [doc];
    for (const k of keys.slice(0, -1)) {
      const next = chain.at(-1)![k];
      if (!isObj(next)) break;
      chain.push(next);
    }
    const parent = chain.length === keys.length ? chain.at(-1)! : null;
    const last = keys.at(-1)!;
    if (!parent || !(last in parent) || canonical(parent[last]!) !== canonical(value)) {
      missing++;
      continue;
    }
    delete parent[last];
    // Drop containers hipo's key left empty, unless the file had them before.
    for (let i = chain.length - 1; i > 0; i--) {
      if (Object.keys(chain[i]!).length > 0 || hadPath(original, keys.slice(0, i))) break;
      delete chain[i - 1]![keys[i - 1]!];
    }
  }
  return missing;
}

function hadPath(doc: Obj | null, keys: string[]): boolean {
  let at: Json | undefined = doc;
  for (const k of keys) {
    if (!isObj(at) || !(k in at)) return false;
    at = at[k];
  }
  return true;
}

/** The indentation a JSON file uses (two spaces when it cannot tell). */
export function detectIndent(text: string | null): string | number {
  const m = text ? /\n([ \t]+)"/.exec(text) : null;
  return m ? (m[1]!.includes('\t') ? '\t' : m[1]!.length) : 2;
}
