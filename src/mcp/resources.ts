// ROOT.md and the summary nodes as MCP resources (`hipo://memory/ROOT.md`,
// `hipo://memory/daily/2026-03-14.md`, …): what a client can list and attach without a tool
// call. Raw logs stay with the `get` tool (they can be many megabytes).
import { readdirSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { readBounded } from '../context/sources.js';
import { classifyPath, ROOT_FILE, type NodeLevel } from '../tree/layout.js';
import type { ToolEnv } from './tools.js';
import { ToolError } from './tools.js';

export const RESOURCE_PREFIX = 'hipo://memory/';
const LEVELS: NodeLevel[] = ['monthly', 'weekly', 'daily'];
const MAX_NODE_BYTES = 4 * 1024 * 1024;
/**
 * Resources per resources/list page. A listed node costs about 140 bytes of JSON (270 while each
 * repeated its template's description): the whole list in one answer would be 175 KB for a
 * 3-year tree and near 580 KB for a 10-year one, held and parsed at once by a client that may
 * want only the newest nodes. 100 keeps a page near 14 KB; a round trip over stdio costs little,
 * so 13 pages for a 3-year tree (43 for 10 years) is cheap.
 */
export const RESOURCE_PAGE_SIZE = 100;

export interface NodeResource {
  uri: string;
  name: string;
  title: string;
  mimeType: 'text/markdown';
}

const TITLES: Record<NodeLevel, string> = { root: 'ROOT', daily: 'Daily', weekly: 'Weekly', monthly: 'Monthly' };

function resource(rel: string, level: NodeLevel, period: string): NodeResource {
  return {
    uri: RESOURCE_PREFIX + rel,
    name: rel,
    title: level === 'root' ? 'ROOT.md: profile, rules, active context, topics index' : `${TITLES[level]} summary ${period}`,
    mimeType: 'text/markdown',
  };
}

/** The nodes of the tree, ROOT first, then monthly, weekly and daily nodes, newest first. */
export function listNodes(env: ToolEnv): NodeResource[] {
  const out: NodeResource[] = [];
  const has = (rel: string): boolean => classifyPath(rel).kind === 'node';
  try {
    if (readdirSync(env.ws.memoryDir).includes(ROOT_FILE)) out.push(resource(ROOT_FILE, 'root', ''));
  } catch {
    return out;
  }
  for (const level of LEVELS) {
    let names: string[] = [];
    try {
      names = readdirSync(join(env.ws.memoryDir, level));
    } catch {
      continue;
    }
    for (const n of names.sort().reverse()) if (has(`${level}/${n}`)) out.push(resource(`${level}/${n}`, level, n.slice(0, -3)));
  }
  return out;
}

/** Where a node's level comes in the listing: ROOT, then monthly, weekly and daily nodes. */
const RANKS: Record<NodeLevel, number> = { root: 0, monthly: 1, weekly: 2, daily: 3 };

/** The node `name` names (`daily/2026-03-14.md`), or null for anything else. */
function levelOf(name: string): NodeLevel | null {
  const c = classifyPath(name);
  return c.kind === 'node' ? c.period.level : null;
}

/** Whether `a` comes after `b` in the listing's order: by level, then newest first (names sort by period). */
function comesAfter(a: NodeResource, b: { name: string; level: NodeLevel }): boolean {
  const byLevel = RANKS[levelOf(a.name)!] - RANKS[b.level];
  return byLevel !== 0 ? byLevel > 0 : a.name < b.name;
}

export type ResourcePage = { resources: NodeResource[]; nextCursor?: string; problem?: undefined } | { problem: string };

/**
 * One page of `nodes` (all of them, in listNodes' order): the first, or the one after `cursor`.
 * A cursor names the last node of the page before (`daily/2026-03-14.md`) rather than counting:
 * the next page starts at the first node that sorts after it, whether or not it still exists.
 * So a node there for the whole listing comes exactly once, and none twice; a node added or
 * removed meanwhile comes at most once (in this listing if it sorts after the cursor, else in
 * the next). A count would repeat or skip a node for each one added or removed before it.
 */
export function resourcePage(nodes: readonly NodeResource[], cursor?: string, size = RESOURCE_PAGE_SIZE): ResourcePage {
  let start = 0;
  if (cursor !== undefined) {
    const level = levelOf(cursor);
    if (!level)
      return {
        problem:
          `resources/list: cursor ${JSON.stringify(cursor.slice(0, 80))} is not one this server gives ` +
          '(a nextCursor names the last node of its page, e.g. daily/2026-03-14.md); list again without a cursor',
      };
    const after = { name: cursor, level };
    start = nodes.findIndex((n) => comesAfter(n, after));
    if (start < 0) start = nodes.length;
  }
  const resources = nodes.slice(start, start + size);
  return start + size < nodes.length ? { resources, nextCursor: resources.at(-1)!.name } : { resources };
}

/** One node's text; `rel` must name a node inside the memory folder. */
export function readNode(env: ToolEnv, rel: string): string {
  const c = classifyPath(rel);
  if (c.kind !== 'node')
    throw new ToolError(`${RESOURCE_PREFIX}${rel}: not a node of the memory tree (ROOT.md, daily/, weekly/ or monthly/)`);
  let abs: string;
  let memory: string;
  try {
    memory = realpathSync(env.ws.memoryDir);
    abs = realpathSync(join(memory, rel));
  } catch {
    throw new ToolError(`${env.ws.memoryName}/${rel}: no such node`);
  }
  if (!abs.startsWith(memory + sep)) throw new ToolError(`${rel}: outside the memory folder`);
  const file = readBounded(abs, MAX_NODE_BYTES);
  if (!file || file.truncated) throw new ToolError(`${env.ws.memoryName}/${rel}: cannot be read as text (or larger than 4 MB)`);
  return file.text;
}
