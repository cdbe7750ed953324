// Pieces every platform's end-to-end file uses: the prompts of the scenario (each carries a
// secret, so redaction is checked on real traffic), how the fake model answers them, and the
// uninstall check (file trees and contents before `hipo init --platform` and after `hipo
// uninstall`, the agent CLI's own state told apart from hipo's).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { FakeModel } from '../fake-model/server.js';
import { requestText, toolNames, toolResults, toolResultsSince, type ModelRequest } from '../fake-model/requests.js';
import type { Reply } from '../fake-model/wire.js';
import { FACT_MARK, SECRETS, THINKING_MARK } from './memory.js';
import { diffSnapshots, snapshot, type Sandbox, type Snapshot } from './sandbox.js';

export const PROMPTS = {
  first: `Remember for later: the deploy key for staging is ${SECRETS.anthropic} and the release is on Friday.`,
  resumed: `Run the release check script please; my token is ${SECRETS.github}.`,
  third: `Thanks. Note that the AWS key ${SECRETS.aws} was rotated yesterday.`,
  compact: 'Long task before compaction: tidy the changelog for the kettle-firmware release.',
  mcp: "MCPCHECK What is my dog's name? Look it up in hipo's memory.",
  recall: 'RECALLCHECK Which chew toys last longest for a golden retriever puppy?',
};

/** The section hipo's UserPromptSubmit hook adds to a prompt (hooks/prompt-recall.ts). */
const PROMPT_RECALL_MARK = '## From memory, about this prompt (hipo)';

/** `text` (a request, or its system prompt) holds the prompt hook's section, with yesterday's fact in it. */
export function expectPromptMemory(text: string, report: string): void {
  const at = text.indexOf(PROMPT_RECALL_MARK);
  expect(at, `no prompt memory in the request\n${report}`).toBeGreaterThanOrEqual(0);
  expect(text.slice(at, at + 2000)).toContain(FACT_MARK);
}

/** The words a tool's output carries (never its command line): must not reach the raw log. */
export const TOOL_OUTPUT = 'TOOLOUT-91c2';
export const TOOL_COMMAND = "printf 'TOOLOUT-%s' 91c2";

/** The restore section hipo's SessionStart prints after a compaction. */
export const RESTORE_MARK = 'This session before compaction';

/** The request's last user message is the given prompt (or contains it). */
export function asks(req: ModelRequest, prompt: string): boolean {
  const text = requestText(req);
  return text.includes(JSON.stringify(prompt).slice(1, -1)) || text.includes(prompt);
}

/** A reply with the thinking that must never be archived, and a text naming the request. */
export function plainReply(req: ModelRequest): Reply {
  return { thinking: `${THINKING_MARK}: the user wants a short answer.`, text: `Done (reply ${req.n}).` };
}

/** No tool has answered yet in the turn of `prompt`. */
export function noResultYet(req: ModelRequest, prompt: string): boolean {
  return toolResultsSince(req, prompt).length === 0;
}

/**
 * Tool results that came from hipo (they name yesterday's fact). Claude Code appends its system
 * reminders to a tool result, and one of them may be hipo's SessionStart memory, which names
 * the fact too once the tree holds it: only the result's own text counts.
 */
export function hipoResults(req: ModelRequest): string[] {
  return toolResults(req).filter((r) => r.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').includes(FACT_MARK));
}

/** The hipo MCP tool offered to the model whose name ends in `tool` (`mcp__hipo__search`, `hipo_search`). */
export function hipoTool(req: ModelRequest, tool = 'search'): string | undefined {
  return toolNames(req).find((n) => /hipo/i.test(n) && n.toLowerCase().endsWith(tool));
}

/** A one-line account of each recorded request, for failure messages. */
export function requestLog(model: FakeModel, from = 0): string {
  const lines = model.requests.slice(from).map((r) => {
    const tools = toolNames(r);
    return `#${r.n} ${r.wire} ${r.path} tools=${tools.length}${tools.some((t) => /hipo/i.test(t)) ? ' (hipo tools)' : ''} results=${toolResults(r).length} fact=${requestText(r).includes(FACT_MARK)} restore=${requestText(r).includes(RESTORE_MARK)}`;
  });
  const extra = model.unhandled.length ? `\nunanswered: ${model.unhandled.join(', ')}` : '';
  return (lines.join('\n') || '(the model server got no request)') + extra;
}

export interface Trees {
  project: Snapshot;
  home: Snapshot;
}

/** hipo's data by design (uninstall keeps it): the memory folder, its config and its cache. */
const HIPO_DATA = (rel: string): boolean =>
  rel === 'memory' || rel.startsWith('memory/') || rel === '.hipo' || rel.startsWith('.hipo/') || rel === 'hipo.config.json';

export function trees(sb: Sandbox): Trees {
  return { project: snapshot(sb.project, HIPO_DATA), home: snapshot(sb.home) };
}

/** Where two snapshots of project and HOME differ, one line each, paths prefixed. */
export function treeDiff(a: Trees, b: Trees): string[] {
  return [
    ...diffSnapshots(a.project, b.project).map((l) => l.replace(/^(\w+\s+)/, '$1project/')),
    ...diffSnapshots(a.home, b.home).map((l) => l.replace(/^(\w+\s+)/, '$1~/')),
  ];
}

/**
 * After `hipo uninstall`, project and HOME are as they were before `hipo init --platform`,
 * except for the agent CLI's own state (`agentOwn`: paths it writes for itself, each checked by
 * `agentClean` for any trace of hipo).
 */
export function expectRestored(before: Trees, after: Trees, agentOwn: (path: string) => boolean, why: string): void {
  const diff = treeDiff(before, after);
  const hipos = diff.filter((l) => !agentOwn(l.replace(/^\w+\s+/, '')));
  expect(hipos, `after hipo uninstall these differ from before hipo init (${why})`).toEqual([]);
}

/** With HIPO_E2E_KEEP set the sandbox stays; the model's requests are kept beside it. */
export function keepRequests(sb: Sandbox | undefined, model: FakeModel | undefined): void {
  if (process.env.HIPO_E2E_KEEP && sb && model) writeFileSync(join(sb.root, 'requests.json'), JSON.stringify(model.requests, null, 1));
}
