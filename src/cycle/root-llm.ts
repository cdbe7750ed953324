// The executor's side of a model-written ROOT: reads what the recompactor needs from the tree
// (the current ROOT.md, the monthly nodes and their hashes), every text redacted as it is read.
import type { CompactionConfig } from '../config/config.js';
import type { LocalDate } from '../time/calendar.js';
import { splitFrontmatter } from '../tree/frontmatter.js';
import { nodeRelPath, periodId, type Period } from '../tree/layout.js';
import { decodeText } from '../tree/text.js';
import type { RootRecompactInput, RootRecompactor, RootRecompactResult } from '../summarize/llm/root-recompact.js';
import type { Redactor } from '../redact/redactor.js';
import type { RootBuild } from '../compose/root.js';
import type { CountTokens } from '../text/tokens.js';
import { readSources } from './inputs.js';
import type { TreeState } from './tree-state.js';

export interface ModelRootArgs {
  tree: TreeState;
  /** Monthly nodes ROOT is built from, oldest first. */
  months: readonly Period[];
  today: LocalDate;
  sourceHash: string;
  built: RootBuild;
  template: string;
  config: CompactionConfig;
  redactor: Redactor;
  countTokens: CountTokens;
  /** ROOT.md's frontmatter, which `rootMaxTokens` counts too. */
  frontmatterTokens: number;
}

export function rootRecompactInput(a: ModelRootArgs): RootRecompactInput {
  const rootPeriod: Period = { level: 'root' };
  const info = a.tree.node(rootPeriod);
  let existing: RootRecompactInput['existing'] = null;
  if (info) {
    try {
      const decoded = decodeText(a.tree.readBytes(nodeRelPath(rootPeriod)));
      if (decoded.ok) existing = { body: a.redactor.redact(splitFrontmatter(decoded.text).body).text, summarizer: info.summarizer };
    } catch {
      /* gone: recompact from the extractive narrative */
    }
  }
  const byMonth = new Map(a.months.map((m) => [periodId(m), m]));
  return {
    today: a.today,
    sourceHash: a.sourceHash,
    existing,
    months: a.months.map((m) => ({ month: periodId(m), bodyHash: a.tree.node(m)?.bodyHash ?? 'missing' })),
    readMonthly: (month) => {
      const p = byMonth.get(month);
      return p ? (readSources([p], a.tree, a.redactor)[0] ?? null) : null;
    },
    extractive: a.built.body,
    template: a.template,
    config: a.config,
    count: a.countTokens,
    frontmatterTokens: a.frontmatterTokens,
  };
}

export function modelRoot(recompactor: RootRecompactor, a: ModelRootArgs): Promise<RootRecompactResult> {
  return recompactor.recompact(rootRecompactInput(a));
}
