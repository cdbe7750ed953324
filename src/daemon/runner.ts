// Coalescing runs: requests made while a run is in progress become one follow-up run, file
// changes are debounced into one request, and only one run is ever in flight.
export class CoalescingRunner {
  private running: Promise<void> | null = null;
  private pending: string[] = [];
  private debounce: NodeJS.Timeout | null = null;
  private debouncedReasons = new Set<string>();
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly run: (reasons: string[]) => Promise<{ again: boolean; retryMs: number | null }>,
    private readonly debounceMs: number,
    /** Called when the runs pause: nothing queued (a retry or a debounced change may follow). */
    private readonly onIdle: () => void = () => {},
  ) {}

  /** A file changed: run once things have been quiet for the debounce interval. */
  changed(what: string): void {
    if (this.stopped) return;
    this.debouncedReasons.add(what);
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      const reasons = [...this.debouncedReasons];
      this.debouncedReasons.clear();
      this.request(reasons.length > 3 ? `${reasons.length} changes` : `change: ${reasons.join(', ')}`);
    }, this.debounceMs);
  }

  /** Run as soon as the current run (if any) is done. */
  request(reason: string): void {
    if (this.stopped) return;
    this.pending.push(reason);
    if (!this.running) this.running = this.loop();
  }

  private async loop(): Promise<void> {
    while (this.pending.length && !this.stopped) {
      const reasons = this.pending.splice(0);
      let outcome: { again: boolean; retryMs: number | null };
      try {
        outcome = await this.run(reasons);
      } catch {
        outcome = { again: false, retryMs: null };
      }
      if (this.stopped) break;
      // A backlog drains one cycle per run; yield between runs so file events get through.
      if (outcome.again) {
        await new Promise((r) => setImmediate(r));
        this.pending.push('backlog');
      } else if (outcome.retryMs !== null && !this.retry) {
        this.retry = setTimeout(() => {
          this.retry = null;
          this.request('retry');
        }, outcome.retryMs);
      }
    }
    this.running = null;
    if (!this.stopped) this.onIdle();
  }

  /** Stops accepting work and waits for the run in progress, if any. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.debounce) clearTimeout(this.debounce);
    if (this.retry) clearTimeout(this.retry);
    this.pending = [];
    await this.running;
  }

  get busy(): boolean {
    return this.running !== null;
  }
}
