// `hipo compact --dry-run` with a model configured: which of the plan's nodes would call it, and
// with how many input tokens. The requests are built exactly as the cycle would build them
// (same sources, exclusions, fitting, prompt), from the files as they are now; a parent whose
// children this cycle rewrites is counted from the children on disk. Reads only.
import { periodId, type Period } from '../tree/layout.js';
import type { CyclePlan } from '../plan/plan.js';
import type { LlmRuntime } from '../summarize/select.js';
import { copiedVerbatim, nodeTitle } from '../compose/body.js';
import { loadTokenCounter, type TokenizerName } from '../text/tokens.js';
import { extractiveRoot, rootLayout, rootSettings, type ExecEnv } from './execute.js';
import { dailyInputs, parentInputs } from './inputs.js';
import { rootRecompactInput } from './root-llm.js';
import { rootSourceHash } from '../plan/planner.js';
import type { TreeState } from './tree-state.js';

interface ModelCallEstimate {
  /** Path relative to the memory folder. */
  node: string;
  level: Period['level'];
  /** Requests (a node too large for one is sent in parts). */
  calls: number;
  /** Tokens the requests would send (hipo's count). */
  tokensIn: number;
  /** The answer is in the cache: no call would be made. */
  cached: boolean;
  /** How the sources were condensed to fit, or why the estimate is approximate. */
  note: string | null;
}

export interface ModelCallPlan {
  model: string;
  baseUrl: string;
  calls: ModelCallEstimate[];
  /** Why calls would not be made now (backing off), if so. */
  unavailable: string | null;
}

type Ctx = Pick<ExecEnv, 'config' | 'clock' | 'redactor' | 'rules' | 'templates'>;

export async function estimateModelCalls(plan: CyclePlan, tree: TreeState, llm: LlmRuntime, ctx: Ctx): Promise<ModelCallPlan> {
  const s = llm.session.settings;
  const calls: ModelCallEstimate[] = [];
  const today = ctx.clock.today;
  const rewritten = new Set(plan.actions.filter((a) => a.kind !== 'fix' && a.kind !== 'remove').map((a) => periodId(a.period)));
  for (const action of plan.actions) {
    const { period } = action;
    if (action.kind === 'fix' || action.kind === 'remove' || !s.levels.has(period.level)) continue;
    try {
      if (period.level === 'root') {
        if (!llm.root) continue;
        const count = await loadTokenCounter(ctx.config.compaction.tokenizer as TokenizerName);
        const months = action.children.filter((m) => tree.node(m));
        const sourceHash = rootSourceHash(today, months, tree.nodes, rootSettings(ctx));
        // What the real run would build and send: the body under the cap its frontmatter leaves.
        const { frontmatterTokens } = rootLayout(months, tree, ctx, sourceHash, count, s.model);
        const built = extractiveRoot(months, tree, ctx, count, frontmatterTokens);
        const input = rootRecompactInput({
          tree,
          months,
          today,
          sourceHash,
          built,
          template: ctx.templates.get('root'),
          config: ctx.config.compaction,
          frontmatterTokens,
          redactor: ctx.redactor,
          countTokens: count,
        });
        if (llm.root.reusable(input)) continue; // re-dated around the narrative it has: no call
        const req = llm.root.request(input);
        if ('skip' in req) continue;
        const pending = months.some((m) => rewritten.has(periodId(m)));
        const note = req.changed.length
          ? `monthly nodes sent: ${req.changed.join(', ')}${pending ? ' (those rewritten this cycle counted as they are now)' : ''}`
          : 'its monthly nodes are written this cycle: not counted';
        calls.push({
          node: action.relPath,
          level: 'root',
          calls: 1,
          tokensIn: req.tokensIn,
          cached: llm.session.isCached(req.messages, s.maxOutputTokens),
          note,
        });
        continue;
      }
      const inputs =
        period.level === 'daily'
          ? dailyInputs(period.date, tree, ctx.redactor, ctx.rules)
          : parentInputs(action.children, tree, ctx.redactor);
      if (
        copiedVerbatim({
          lines: inputs.lines,
          threshold: ctx.config.compaction.thresholds[period.level],
          bytes: inputs.bytes,
          thresholdBytes: ctx.config.compaction.thresholdBytes[period.level],
        })
      )
        continue;
      const title = period.level === 'daily' ? nodeTitle(period) : periodId(period);
      const planned = await llm.nodes.requests({
        level: period.level,
        period,
        title,
        sources: inputs.sources,
        topics: inputs.topics,
        today,
        sourceHash: inputs.sourceHash,
      });
      const childrenPending = action.children.some((c) => rewritten.has(periodId(c)));
      const note = [planned.condensed, childrenPending ? 'children rewritten this cycle counted as they are now' : null]
        .filter(Boolean)
        .join('; ');
      const cached = planned.requests.every((r) => llm.session.isCached(r.messages, s.maxOutputTokens));
      calls.push({
        node: action.relPath,
        level: period.level,
        calls: planned.requests.length,
        tokensIn: planned.tokensIn,
        cached,
        note: note || null,
      });
    } catch (err) {
      calls.push({
        node: action.relPath,
        level: period.level,
        calls: 0,
        tokensIn: 0,
        cached: false,
        note: `cannot be estimated: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  }
  return { model: s.model, baseUrl: s.baseUrl, calls, unavailable: llm.session.unavailable() };
}
