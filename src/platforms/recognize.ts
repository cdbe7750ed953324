// Recognising hipo's own entries where they are installed, without any manifest: a hook handler
// that runs `hipo … hook <Event>`, a skill whose frontmatter says `generator: hipo`, an MCP
// server entry that runs `hipo mcp`. Used when a manifest is missing (hipo 0.1 kept it in the
// cache folder) and to adopt hipo's own files on a later install instead of calling them foreign.
import { isObj, type Obj } from './json-entries.js';
import type { Json } from './manifest.js';

export const HIPO_HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd'] as const;

// `hipo …`, `/usr/local/bin/hipo …`, or node running a hipo checkout's or package's dist/cli.js.
const RUNS_HIPO = /(?:^|[\s/\\'"])hipo(?:\.js)?['"]?\s|[/\\]dist[/\\]cli\.js['"]?\s/;
const HOOK_ARG = new RegExp(`\\shook\\s+(?:${HIPO_HOOK_EVENTS.join('|')})(?:\\s|$)`);

function isHipoHandler(h: Json | undefined): boolean {
  return isObj(h) && h.type === 'command' && typeof h.command === 'string' && RUNS_HIPO.test(h.command) && HOOK_ARG.test(h.command);
}

/** hipo's hook groups in a settings document: groups all of whose handlers are hipo's. */
function hipoHookGroups(doc: Obj): Record<string, Json[]> {
  const out: Record<string, Json[]> = {};
  if (!isObj(doc.hooks)) return out;
  for (const [event, list] of Object.entries(doc.hooks)) {
    if (!Array.isArray(list)) continue;
    const mine = list.filter((g) => isObj(g) && Array.isArray(g.hooks) && g.hooks.length > 0 && g.hooks.every(isHipoHandler));
    if (mine.length) out[event] = mine;
  }
  return out;
}

/** An MCP server entry that starts `hipo mcp` (by any command that runs hipo). */
function isHipoMcpServer(v: Json | undefined): boolean {
  if (!isObj(v)) return false;
  // `command` is a string (Claude Code, Codex) or the whole argv (OpenCode).
  const argv = [...(Array.isArray(v.command) ? v.command : [v.command]), ...(Array.isArray(v.args) ? v.args : [])].filter(
    (x): x is string => typeof x === 'string',
  );
  return argv.includes('mcp') && argv.some((a) => /(?:^|[/\\])hipo$|[/\\]dist[/\\]cli\.js$|[/\\]bin[/\\]hipo(?:\.js)?$/.test(a));
}

/** hipo's entries recognised in a JSON document: hook groups, and MCP servers at the given key paths. */
export function hipoEntries(doc: Obj, keyPaths: readonly string[]): { hooks: Record<string, Json[]>; keys: Record<string, Json> } {
  const keys: Record<string, Json> = {};
  for (const path of keyPaths) {
    let v: Json | undefined = doc;
    for (const k of path.split('.')) v = isObj(v) ? v[k] : undefined;
    if (isHipoMcpServer(v)) keys[path] = v!;
  }
  return { hooks: hipoHookGroups(doc), keys };
}

/** A SKILL.md hipo wrote: its frontmatter carries `generator: hipo` under `metadata`. */
export function isHipoSkill(text: string): boolean {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  return !!fm && /^metadata:\s*\r?\n(?:[ \t]+.*\r?\n)*?[ \t]+generator:\s*["']?hipo["']?\s*$/m.test(fm[1]!);
}

/** A file hipo generated (plugin, hook handler): its opening says it was written by `hipo init`. */
export function isHipoGenerated(text: string): boolean {
  return text.slice(0, 600).includes('Written by "hipo init');
}
