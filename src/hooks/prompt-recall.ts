// At UserPromptSubmit: what memory holds about the prompt, handed to the agent with it. The
// SessionStart context names what the agent knows in general; a request that never names the
// fact it depends on ("a vacuum for long shedding hair") still shares words with where it was
// said ("my golden retriever sheds"), and a keyword search over the tree finds some of those.
// Its matched lines are often the assistant's advice in that conversation; what the user said of
// themselves there comes with them (search/said.ts), and before the hits, the tree's own facts
// that share words with the prompt (search/user-facts.ts). MemAware's dev split, each question as
// the prompt: the answer is in this context for 20.1 % of questions (17.7 % without the facts,
// 10.0 % with matched lines alone), half of them beyond what the SessionStart context holds.
// Bounded and quiet: bm25 only
// (no embedder to load, no model asked), the index as the daemon or the last compaction left it
// (never built or updated here), nothing for a slash command or a prompt of one or two words,
// nothing from ROOT.md (the SessionStart context has it), from the kept copies of hand-edited
// nodes, or from this session's own turns.
import { existsSync } from 'node:fs';
import type { HipoConfig } from '../config/config.js';
import { cjkQueryTerms, cjkRuns } from '../index/cjk.js';
import { indexFile } from '../index/location.js';
import { openIndexWith } from '../index/open.js';
import type { SearchIndex } from '../index/search-index.js';
import { MAX_QUERY_CHARS } from '../search/query.js';
import { search, type SearchHit } from '../search/search.js';
import { pickSaid } from '../search/said-pick.js';
import { saidLine, type Said } from '../search/said.js';
import { saidBeside } from '../search/said-index.js';
import { userFactsFor, type FactLine } from '../search/user-facts.js';
import { tokenize } from '../summarize/keywords.js';
import { clip } from '../summarize/classify.js';
import { shortSessionId } from '../state/sessions.js';
import type { Workspace } from '../tree/layout.js';

/** A prompt needs this many content words to be searched: "yes", "go on" are not questions. */
const MIN_TERMS = 3;
/** A hit's best line shares at least this many of the prompt's words. */
const MIN_LINE_TERMS = 2;

/**
 * The prompt as plain words for the index: a search reads "quotes" as a phrase and -word as a
 * word to exclude, and a prompt that quotes what it asks ("…" in a chat client, OpenCode
 * sends a pasted prompt in quotes) or writes "-v" means neither.
 */
function plainWords(prompt: string): string {
  return prompt.replace(/["“”„]/g, ' ').replace(/(^|\s)-+(?=\S)/g, '$1');
}

/**
 * Content words of a prompt as the index searches them: "PR", "CI" and "DB" count (a coding
 * prompt names things by them), stop words do not; Korean, Chinese and Japanese by character pairs.
 */
function wordCount(prompt: string): number {
  const runs = cjkRuns(prompt);
  const rest = runs.reduce((t, r) => t.replace(r, ' '), prompt);
  return new Set(tokenize(rest, true).filter((w) => w.length >= 2)).size + cjkQueryTerms(runs.join(' ')).length;
}

/**
 * Where the user said something of themselves in a hit's section, its matched lines are cut
 * shorter than a search shows them: they say why the hit came up, and the rest of its share of
 * the room is better spent on what the user said.
 */
const SNIPPET_BESIDE_SAID = 200;

/** A fact line for the agent: its place (the monthly node and line) and the fact as the node has it. */
const factLine = (f: FactLine, memoryName: string): string =>
  `- ${f.path.slice(memoryName === '.' ? 0 : memoryName.length + 1)}:${f.line} · ${clip(f.text, FACT_CHARS)}`;

/** A fact line longer than this is cut (at a word): a fact is a sentence or two. */
const FACT_CHARS = 200;

/** A hit's lines for the agent: its place and section, its matched lines, what the user said there. */
function hitBlock(h: SearchHit, said: readonly Said[], snippetChars = Infinity): string {
  const place = `${h.path.replace(/^[^/]+\//, '')}:${h.snippet.line}`;
  return [
    `- ${place}${h.heading ? ` · ${h.heading}` : ''}`,
    ...clip(h.snippet.text, snippetChars)
      .split('\n')
      .filter((l) => l.trim() && !/^#{1,6}\s/.test(l)) // the place line names the section
      .map((l) => `  ${l}`),
    ...said.map(saidUnder),
  ].join('\n');
}

/** A statement under its hit, indented as the hit's lines are. */
const saidUnder = (s: Said): string => `  ${saidLine(s)}`;

/** The section's heading and what it holds; `said`: some hit brings what the user said there; `facts`: fact lines lead. */
function head(memoryName: string, said: boolean, facts: boolean): string[] {
  const there = said ? ', and what the user said of themselves there' : '';
  const notes = `earlier notes that share words with the prompt (keyword search)${there}`;
  const holds = facts ? `facts the user told me that share words with the prompt (monthly nodes), then ${notes}` : notes;
  return [
    '## From memory, about this prompt (hipo)',
    `${holds[0]!.toUpperCase()}${holds.slice(1)}; the full text is in the file named, under ${memoryName}/.`,
  ];
}

/** A hit's text for the agent, and whether it holds what the user said. */
interface Block {
  text: string;
  said: boolean;
}

/** The text an agent gets: the fact lines, then each hit's block, best first, within `maxChars`. */
function renderPromptRecall(facts: readonly string[], blocks: readonly Block[], memoryName: string, maxChars: number): string | null {
  let size = head(memoryName, true, facts.length > 0).join('\n').length;
  const shown: Block[] = [];
  for (const f of facts) size += 1 + f.length;
  for (const block of blocks) {
    if (size + 1 + block.text.length > maxChars) continue;
    shown.push(block);
    size += 1 + block.text.length;
  }
  if (!shown.length && !facts.length) return null;
  return [
    ...head(
      memoryName,
      shown.some((b) => b.said),
      facts.length > 0,
    ),
    ...facts,
    ...shown.map((b) => b.text),
  ].join('\n');
}

export async function promptRecall(
  ws: Workspace,
  config: HipoConfig,
  prompt: string | null,
  sessionId: string | null,
): Promise<string | null> {
  const want = config.agents.promptRecallHits;
  // The search reads a query's first MAX_QUERY_CHARS only; the rest of a pasted document would
  // cost the counting and ranking below time (per word, over the whole prompt) and find nothing.
  const text = (prompt?.trim() ?? '').slice(0, MAX_QUERY_CHARS);
  // Off, a slash command, "yes, go on", or no index to read (never built here).
  if (want <= 0 || text.startsWith('/') || wordCount(text) < MIN_TERMS || !existsSync(indexFile(ws))) return null;
  // Read only: an index of another hipo version waits for the daemon or `hipo index` to rebuild
  // it, never a prompt (a rebuild here would empty it under a running daemon).
  // No embedder (bm25 only), so none of their code; the store's only for a workspace that searches it.
  let index: SearchIndex;
  try {
    const pg = config.search.store === 'postgres' ? (await import('../index/pg/store.js')).pgLink(ws, config.search) : null;
    index = openIndexWith(ws, config, { readonly: true }, () => ({ embedder: null, embedderProblem: null, pg }));
  } catch {
    return null;
  }
  try {
    const own = sessionId ? `session ${shortSessionId(sessionId)}` : null;
    const r = await search(index, plainWords(text), { mode: 'bm25', limit: want + 6, sources: 0 });
    // A hit whose best line shares one word with the prompt ("change", "use") is chance, not memory;
    // a kept copy of a hand-edited node (edits/) is an old version of what the tree says now.
    const hits = r.hits
      .filter(
        (h) =>
          h.snippet.matched >= MIN_LINE_TERMS &&
          h.path !== `${ws.memoryName}/ROOT.md` &&
          !h.path.startsWith(`${ws.memoryName}/edits/`) &&
          !(own && h.heading.includes(own)),
      )
      .slice(0, want);
    // The user's facts that share words with the prompt come first: a few short lines, and the
    // part of memory a request most often depends on without naming it.
    const facts = userFactsFor(index, plainWords(text), config.agents.promptRecallFacts).map((f) => factLine(f, ws.memoryName));
    const factChars = facts.reduce((n, f) => n + 1 + f.length, 0);
    const shownFacts = facts.map((f) => f.toLowerCase());
    const inFacts = (s: Said): boolean => shownFacts.some((f) => f.includes(s.text.toLowerCase()));
    // Each hit gets an even share of the room; what its matched lines leave goes to what the user said.
    const share =
      Math.floor(
        (config.agents.promptRecallChars - head(ws.memoryName, true, facts.length > 0).join('\n').length - factChars) /
          Math.max(1, hits.length),
      ) - 1;
    const blocks = hits.map((hit) => {
      const said = saidBeside(index.db, hit).filter((s) => !inFacts(s));
      const room = share - hitBlock(hit, [], SNIPPET_BESIDE_SAID).length;
      const picked = pickSaid(said, text, room, (s) => saidUnder(s).length + 1);
      return picked.length ? { text: hitBlock(hit, picked, SNIPPET_BESIDE_SAID), said: true } : { text: hitBlock(hit, []), said: false };
    });
    const context = renderPromptRecall(facts, blocks, ws.memoryName, config.agents.promptRecallChars);
    return context ? JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: context } }) : null;
  } finally {
    index.close();
  }
}
