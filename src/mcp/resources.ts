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
