// What each MCP tool returns as `structuredContent`, declared as its output schema: the same
// facts as the text beside it, for clients that read fields rather than prose.
import { z } from 'zod';

const lines = z.object({ start: z.number().int(), end: z.number().int() });
const range = z.object({ start: z.string(), end: z.string() }).nullable();

export const CONTEXT_OUTPUT = {
  today: z.string().describe('the day the pack was made for (YYYY-MM-DD)'),
  budget: z.number(),
  unit: z.enum(['tokens', 'chars']),
  total: z.number().describe('what the pack costs, in the unit'),
  spent: z.record(z.string(), z.number()).describe('cost per level: profile, root, session, monthly, weekly, daily, raw'),
  parts: z.array(z.object({ level: z.string(), path: z.string(), period: z.string(), cost: z.number(), trimmed: z.boolean() })),
  omitted: z.array(z.object({ level: z.string(), path: z.string(), reason: z.string() })),
  text: z.string().describe('the pack itself'),
};

const sectionRef = {
  path: z.string().describe('workspace-relative, e.g. memory/2026-03-14.md'),
  lines,
  heading: z.string(),
  level: z.string(),
  period: range,
  score: z.number(),
};

export const SEARCH_OUTPUT = {
  query: z.string(),
  mode: z.string().describe('the mode that ran (hybrid falls back to bm25 without vectors)'),
  also: z.array(z.object({ kind: z.string(), text: z.string() })),
  hits: z.array(
    z.object({
      ...sectionRef,
      headingPath: z.array(z.string()),
      status: z.string().nullable(),
      type: z.string().nullable(),
      snippet: z.object({ line: z.number().int(), text: z.string() }),
      said: z
        .array(z.object({ line: z.number().int(), text: z.string() }))
        .optional()
        .describe("what the user said of themselves elsewhere in the hit's section (a conversation), by file line"),
      sources: z.array(z.object(sectionRef)).describe('for a summary node: the raw sections it came from'),
      workspace: z.string().optional().describe('the workspace it belongs to (a shared PostgreSQL store only)'),
    }),
  ),
  warnings: z.array(z.string()),
};

export const RECALL_OUTPUT = {
  question: z.string(),
  topics: z.array(z.object({ name: z.string(), type: z.string(), latest: z.string().nullable() })),
  days: z.array(z.string()),
  passages: z.array(
    z.object({
      path: z.string(),
      from: z.number().int(),
      to: z.number().int(),
      score: z.number(),
      via: z.array(z.string()),
      trimmed: z.boolean(),
      text: z.string(),
      said: z
        .array(z.object({ line: z.number().int(), text: z.string() }))
        .optional()
        .describe('what the user said of themselves in the rest of its section (a conversation), by file line'),
    }),
  ),
  leftOut: z.number().int().describe('ranked passages the budget left out'),
  tokens: z.number(),
  budget: z.number(),
  searched: z.boolean().describe('whether the search index took part'),
};

export const GET_OUTPUT = {
  path: z.string().describe('workspace-relative path of the file'),
  from: z.number().int(),
  to: z.number().int(),
  total: z.number().int().describe('lines in the file'),
  lines: z.array(z.object({ n: z.number().int(), text: z.string() })),
};

export const LOG_OUTPUT = {
  file: z.string(),
  heading: z.string(),
  bytes: z.number().int(),
  redacted: z.number().int().describe('secrets replaced by [REDACTED:kind]'),
};

export const STATUS_OUTPUT = {
  memoryDir: z.string(),
  today: z.string(),
  timeZone: z.string(),
  raw: z.object({ files: z.number(), bytes: z.number(), unusable: z.number(), first: z.string().nullable(), last: z.string().nullable() }),
  nodes: z.record(z.string(), z.unknown()),
  pending: z.number().int(),
  lastCycle: z.unknown(),
  lastCapture: z.unknown(),
  hookErrors: z.array(z.unknown()),
  warnings: z.array(z.unknown()),
  store: z
    .object({
      url: z.string().nullable(),
      workspace: z.string().nullable(),
      reads: z.array(z.string()),
      workspaces: z.array(z.object({ workspace: z.string(), files: z.number(), chunks: z.number() })),
      vectors: z.string(),
      error: z.string().nullable(),
    })
    .optional()
    .describe('a shared PostgreSQL store: this workspace, the ones a search reads, every one it holds (search workspaces)'),
};
