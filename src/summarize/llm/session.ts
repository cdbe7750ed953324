// One run's access to the model: every call goes through here, so the cost rules hold in one
// place. In order, a request is
//   answered from the cache when it was asked before (no call, no cost);
//   refused when the endpoint is off for this run (it failed earlier) or backing off (it
//     failed in an earlier run), or when this cycle's calls are used up (`maxCallsPerCycle`);
//   sent; an endpoint failure turns the endpoint off for the rest of the run and starts a
//     backoff; a success ends any backoff;
//   abandoned when the run's signal aborts (a daemon stopping): no backoff, nothing cached, and
//     no further call in this run.
// Every answer comes back redacted, cached or not, by the rules that redact what is sent: a
// model writes secrets it was never sent (made up, remembered from training, a value the rules
// of an older cache missed), and its answer is written to nodes and ROOT.md.
import { redactorFor } from '../../redact/workspace.js';
import type { Workspace } from '../../tree/layout.js';
import { AnswerCache, requestKey } from './cache.js';
import { LlmCallError, openAiChatClient, type ChatClient, type ChatMessage, type ChatResponse, type FailureScope } from './client.js';
import type { LlmSettings } from './settings.js';
import { LlmState } from '../../state/llm.js';

export type AskOutcome =
  | { ok: true; answer: ChatResponse; cached: boolean }
  /** `skipped`: no call was made (endpoint off or backing off, call limit reached). */
  | { ok: false; reason: string; scope: FailureScope | 'skipped'; latencyMs: number };

export class LlmSession {
  private client: Promise<ChatClient> | null = null;
  private callsThisCycle = 0;
  /** Why the endpoint is off for the rest of this run. */
  private off: string | null = null;
  /** Calls actually sent in this run. */
  calls = 0;

  constructor(
    readonly settings: LlmSettings,
    readonly state: LlmState,
    private readonly cache: AnswerCache,
    /** Aborted when the owner stops (a daemon on SIGTERM): the call in flight is abandoned. */
    private readonly signal: AbortSignal | null = null,
    private readonly makeClient: () => Promise<ChatClient> = () => openAiChatClient(settings),
    private readonly now: () => number = Date.now,
  ) {}

  static open(ws: Workspace, settings: LlmSettings, signal: AbortSignal | null = null): LlmSession {
    return new LlmSession(settings, LlmState.load(ws), new AnswerCache(ws), signal);
  }

  /** A new cycle: its own call budget. */
  startCycle(): void {
    this.callsThisCycle = 0;
  }

  /** Why no call would be sent now, or null. */
  unavailable(): string | null {
    if (this.signal?.aborted) return 'stopping';
    if (this.off) return this.off;
    const b = this.state.backoffAt(this.settings.baseUrl, this.now());
    return b ? `endpoint backing off until ${new Date(b.until).toISOString()} (${b.reason})` : null;
  }

  /** True when a request would be answered from the cache. */
  isCached(messages: readonly ChatMessage[], maxOutputTokens: number): boolean {
    return this.cache.has(requestKey(this.settings, messages, maxOutputTokens));
  }

  private redacted(answer: ChatResponse): ChatResponse {
    return { ...answer, text: redactorFor(this.settings.redactPatterns).redact(answer.text).text };
  }

  async ask(messages: readonly ChatMessage[], maxOutputTokens = this.settings.maxOutputTokens): Promise<AskOutcome> {
    const key = requestKey(this.settings, messages, maxOutputTokens);
    const hit = this.cache.get(key);
    if (hit) return { ok: true, answer: this.redacted(hit), cached: true };
    const off = this.unavailable();
    if (off) return { ok: false, reason: off, scope: 'skipped', latencyMs: 0 };
    if (this.callsThisCycle >= this.settings.maxCallsPerCycle) {
      return {
        ok: false,
        reason: `per-cycle call limit reached (llm.maxCallsPerCycle ${this.settings.maxCallsPerCycle})`,
        scope: 'skipped',
        latencyMs: 0,
      };
    }
    this.callsThisCycle++;
    this.calls++;
    try {
      this.client ??= this.makeClient();
      const answer = await (await this.client).complete(messages, maxOutputTokens, this.signal ?? undefined);
      this.state.recordEndpointSuccess();
      this.cache.put(key, answer);
      return { ok: true, answer: this.redacted(answer), cached: false };
    } catch (err) {
      const e = err instanceof LlmCallError ? err : new LlmCallError(err instanceof Error ? err.message : String(err), 'endpoint', 0);
      if (e.scope === 'endpoint') {
        const b = this.state.recordEndpointFailure(
          this.settings.baseUrl,
          e.message,
          this.now(),
          this.settings.backoffMinutes,
          e.retryAfterMs,
        );
        this.off = `endpoint failed earlier in this run (${e.message})${b ? `; backing off until ${new Date(b.until).toISOString()}` : ''}`;
      }
      return { ok: false, reason: e.message, scope: e.scope, latencyMs: e.latencyMs };
    }
  }
}
