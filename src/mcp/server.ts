// `hipo mcp`: a stdio MCP server over the workspace's memory. Tools (search, recall, context,
// get, log, status) answer with text and the same facts as `structuredContent` under declared
// output schemas; ROOT.md and the nodes are resources, with a list_changed notification when
// nodes come or go (list-watch.ts). It starts even where there is no workspace, so a client
// sees why (each tool answers with the error) instead of a closed connection. Requests are read
// with a bounded transport (an oversized or malformed line gets an error reply). Loaded only by
// this command, so the SDK never slows down hooks or other commands.
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, ListResourcesRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MEMORY_TYPES } from '../tree/layout.js';
import { INDEX_LEVELS } from '../index/levels.js';
import { SEARCH_MODES } from '../search/modes.js';
import { WORKSPACE_NAME } from '../config/settings-source.js';
import { BoundedStdioTransport } from './transport.js';
import { listNodes, readNode, RESOURCE_PREFIX, resourcePage } from './resources.js';
import { watchListing } from './list-watch.js';
import { CONTEXT_OUTPUT, GET_OUTPUT, LOG_OUTPUT, RECALL_OUTPUT, SEARCH_OUTPUT, STATUS_OUTPUT } from './schemas.js';
import { contextTool, getTool, logTool, recallTool, searchTool, statusTool, ToolError, type ToolAnswer, type ToolEnv } from './tools.js';
import { redactOutput, redactValue } from '../redact/lines.js';
import { redactorFor } from '../redact/workspace.js';

/**
 * The workspace the server is about, or why there is none (with the memory folder it would
 * serve, when the workspace is there but the folder is not: watched until it is made).
 */
export type Served = { env: ToolEnv; problem?: undefined } | { env?: undefined; problem: string; memoryDir?: string };

type Result = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

/**
 * A tool's answer, through the workspace's redactor: the one way out of the MCP server. The text
 * and every string of the structured result are redacted (the structure stays valid).
 */
async function answer(served: Served, fn: (env: ToolEnv) => ToolAnswer | Promise<ToolAnswer>): Promise<Result> {
  const redactor = redactorFor(served.env?.config.redactPatterns);
  const failure = (text: string): Result => ({ content: [{ type: 'text', text: redactOutput(redactor, text) }], isError: true });
  if (!served.env) return failure(`hipo: ${served.problem}`);
  try {
    const a = await fn(served.env);
    return { content: [{ type: 'text', text: redactOutput(redactor, a.text) }], structuredContent: redactValue(redactor, a.data) };
  } catch (err) {
    if (err instanceof ToolError) return failure(err.message);
    return failure(`hipo: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function buildServer(current: () => Served, version: string): McpServer {
  const server = new McpServer(
    { name: 'hipo', version },
    {
      instructions:
        "hipo is this workspace's long-term memory: ROOT.md (profile, rules, active context, topics index) and daily, weekly and monthly summaries of raw dated logs. Use recall for a question, search for words, context for the recent picture, get to read a file's lines, log to remember something.",
    },
  );
  server.registerTool(
    'context',
    {
      title: 'Memory context',
      description:
        "The workspace's memory at a glance: ROOT (topic index with ages, active context), then the latest monthly, weekly and daily summaries and the newest raw entries, under a token budget. Call at the start of a task or after the conversation was compacted.",
      inputSchema: {
        budget: z.number().int().min(100).max(50_000).optional().describe('token budget (default from the workspace config, 2000)'),
        query: z.string().max(500).optional().describe('words to favour: periods, sections and entries mentioning them come first'),
      },
      outputSchema: CONTEXT_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    async (a) => answer(current(), (env) => contextTool(env, a)),
  );
  server.registerTool(
    'search',
    {
      title: 'Search memory',
      description:
        'Search the memory tree (raw logs and daily/weekly/monthly/ROOT nodes): bm25 (keywords), vector (meaning) or hybrid ' +
        '(both, default). Each result names its file and line range, with a snippet and, in a conversation, what the user said ' +
        'of themselves there; a summary-node hit lists the raw sections it came from. Words in "quotes" are phrases, -word excludes.',
      inputSchema: {
        query: z.string().min(1).max(1000).describe('what to look for'),
        mode: z
          .enum(SEARCH_MODES as [string, ...string[]])
          .optional()
          .describe('bm25, vector or hybrid (default)'),
        limit: z.number().int().min(1).max(100).optional().describe('number of results (default 10)'),
        levels: z
          .array(z.enum(INDEX_LEVELS as unknown as [string, ...string[]]))
          .optional()
          .describe('only these levels: raw, daily, weekly, monthly, root, other'),
        since: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional()
          .describe('only what covers this day or later (YYYY-MM-DD)'),
        until: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/)
          .optional()
          .describe('only what covers this day or earlier (YYYY-MM-DD)'),
        types: z.array(z.enum(MEMORY_TYPES)).optional().describe('only entries of these memory types'),
        also: z
          .array(z.string().min(1).max(1000))
          .max(4)
          .optional()
          .describe(
            'other ways to ask for what the task depends on, e.g. the fact you expect the memory to hold ("my dog\'s breed"); fused with the query',
          ),
        expand: z.boolean().optional().describe("let hipo's configured model add queries from ROOT.md (default: the workspace config)"),
        workspaces: z
          .array(z.string().regex(WORKSPACE_NAME))
          .max(50)
          .optional()
          .describe('with a shared PostgreSQL store: the workspaces to read (default: this one and the configured ones)'),
      },
      outputSchema: SEARCH_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    async (a) => answer(current(), (env) => searchTool(env, a as Parameters<typeof searchTool>[1])),
  );
  server.registerTool(
    'recall',
    {
      title: 'Recall from memory',
      description:
        "Find the passages of memory that answer a question (e.g. 'what did we decide about session storage?'): ROOT's Topics Index, then the summaries' topics and periods, then search. Returns ranked passages, each headed with its file and line range (open more with get), under a token budget.",
      inputSchema: {
        question: z.string().min(1).max(2000).describe('the question, in plain words'),
        budget: z.number().int().min(100).max(50_000).optional().describe('token budget for the passages (default 2000)'),
        also: z
          .array(z.string().min(1).max(1000))
          .max(4)
          .optional()
          .describe(
            'other wordings, e.g. the fact the question depends on but does not name ("my dog\'s breed"); ROOT\'s Topics Index shows what memory holds',
          ),
      },
      outputSchema: RECALL_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    async (a) => answer(current(), (env) => recallTool(env, a)),
  );
  server.registerTool(
    'get',
    {
      title: 'Read a memory file',
      description:
        'Lines of one file in the memory folder (a raw log, daily/weekly/monthly node or ROOT.md), numbered. Accepts "daily/2026-03-14.md", "memory/2026-03-14.md" or "2026-03-14.md:120:40" (path:from:lines) as other tools print them.',
      inputSchema: {
        path: z.string().min(1).describe('file path relative to the memory folder, optionally with :from[:lines]'),
        from: z.number().int().min(1).optional().describe('first line, 1-based (default 1)'),
        lines: z.number().int().min(1).max(2000).optional().describe('how many lines (default 200, at most 2000)'),
      },
      outputSchema: GET_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    async (a) => answer(current(), (env) => getTool(env, a)),
  );
  server.registerTool(
    'log',
    {
      title: 'Remember something',
      description:
        "Append a typed entry to today's raw log (append-only, secrets redacted). Types: user (a fact about the user), feedback (a rule for how to work, with why), project (a decision, finished task or open item), reference (where something is). One fact per entry, written to make sense months later.",
      inputSchema: {
        text: z.string().min(1).max(20_000).describe('what to remember'),
        type: z.enum(MEMORY_TYPES).optional().describe('memory type (default project)'),
        topic: z
          .string()
          .max(80)
          .optional()
          .describe("a few words naming the subject, e.g. 'billing migration' (reuse ROOT's topic names)"),
      },
      outputSchema: LOG_OUTPUT,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    async (a) => answer(current(), (env) => logTool(env, a)),
  );
  server.registerTool(
    'status',
    {
      title: 'Memory status',
      description:
        'Nodes per level (tentative/fixed, tokens), raw logs, pending compaction work, the last compaction cycle, the last transcript capture and recent hook errors.',
      inputSchema: {},
      outputSchema: STATUS_OUTPUT,
      annotations: { readOnlyHint: true },
    },
    async () => answer(current(), (env) => statusTool(env)),
  );

  const read = (rel: string, uri: string) => {
    const served = current();
    if (!served.env) throw new Error(`hipo: ${served.problem}`);
    // A node may hold a hand edit: it is redacted like every other way out.
    return {
      contents: [
        { uri, mimeType: 'text/markdown', text: redactorFor(served.env.config.redactPatterns).redact(readNode(served.env, rel)).text },
      ],
    };
  };
  const rootMeta = {
    title: 'ROOT.md',
    description:
      'The root of the memory tree (hipo://memory/ROOT.md): what the user has said about themselves, ' +
      'how they want the agent to work, active context, recent patterns, history and the topics index.',
    mimeType: 'text/markdown',
  };
  const nodeMeta = {
    title: 'Memory node',
    description: 'A daily, weekly or monthly summary node (hipo://memory/daily/2026-03-14.md, weekly/2026-W11.md, monthly/2026-03.md).',
    mimeType: 'text/markdown',
  };
  // No list callbacks: the SDK's resources/list would answer with every template's whole list.
  server.registerResource('root', new ResourceTemplate(`${RESOURCE_PREFIX}{file}`, { list: undefined }), rootMeta, (uri, vars) =>
    read(String(vars.file), uri.href),
  );
  server.registerResource('node', new ResourceTemplate(`${RESOURCE_PREFIX}{level}/{file}`, { list: undefined }), nodeMeta, (uri, vars) =>
    read(`${vars.level}/${vars.file}`, uri.href),
  );
  // Replaces the handler the SDK set up with the templates: the list in pages (resources.ts).
  server.server.setRequestHandler(ListResourcesRequestSchema, (request) => {
    const { env } = current();
    const page = resourcePage(env ? listNodes(env) : [], request.params?.cursor);
    if (page.problem !== undefined) throw new McpError(ErrorCode.InvalidParams, page.problem);
    // A node's entry is its own: uri, name, the title naming its period, the MIME type. The node
    // template's description, once repeated on each, was half the listing's bytes; a client finds
    // it once in resources/templates/list. ROOT.md, a single entry, keeps the text saying what it holds.
    const resources = page.resources.map((r) => (r.name === 'ROOT.md' ? { ...r, description: rootMeta.description } : r));
    return page.nextCursor === undefined ? { resources } : { resources, nextCursor: page.nextCursor };
  });
  return server;
}

/**
 * Serves `current()` until the session ends. `settingsFiles`: the workspace's config files,
 * watched so that a config fixed, broken or moving the memory folder is a change of the listing.
 */
export async function serveStdio(current: () => Served, version: string, settingsFiles: readonly string[] = []): Promise<void> {
  // Aborted when the session ends: a search still waiting on a model would keep the process alive.
  const ended = new AbortController();
  const served = (): Served => {
    const s = current();
    return s.env ? { env: { ...s.env, signal: ended.signal } } : s;
  };
  const server = buildServer(served, version);
  const transport = new BoundedStdioTransport();
  // The SDK sends a notification whenever asked; a client hears of changes once it said it is ready.
  let initialized = false;
  server.server.oninitialized = () => {
    initialized = true;
  };
  await server.connect(transport);
  const listing = watchListing({
    settingsFiles,
    memoryDir: () => {
      const s = current();
      return s.env ? s.env.ws.memoryDir : (s.memoryDir ?? null);
    },
    names: () => {
      const { env } = current();
      return env
        ? listNodes(env)
            .map((r) => r.name)
            .join('\n')
        : '';
    },
    onChange: () => {
      if (!initialized || !server.isConnected()) return;
      server.server.sendResourceListChanged().catch((err: unknown) => warn(`cannot send resources/list_changed: ${String(err)}`));
    },
    // The client's list then stays as it was, as before there were notifications.
    onError: (err) => warn(`resources/list_changed: ${err.message}`),
  });
  await new Promise<void>((resolveDone) => {
    transport.onclose = () => resolveDone();
    process.stdin.on('end', () => resolveDone());
  });
  listing.close();
  ended.abort();
}

/** A line on stderr, where an MCP client keeps a stdio server's log; none when it cannot be written. */
function warn(message: string): void {
  try {
    process.stderr.write(`hipo mcp: ${message}\n`);
  } catch {
    /* nowhere to say it */
  }
}
