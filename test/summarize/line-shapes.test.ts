// A resident process keeps what each line's words, dedupe key and entities are between cycles;
// a summary must come out byte-identical to one made by a process that never saw the lines.
import { describe, expect, it } from 'vitest';
import { ExclusionRules } from '../../src/summarize/exclusion.js';
import { ExtractiveSummarizer } from '../../src/summarize/extractive.js';
import { SummaryMemo } from '../../src/summarize/memo.js';
import type { SourceDoc } from '../../src/summarize/summarizer.js';
import type { LocalDate } from '../../src/time/calendar.js';
import { loadTemplates } from '../../src/write/template.js';
import { REPO } from '../helpers/workspace.js';

const plain = new ExtractiveSummarizer(loadTemplates(REPO), new ExclusionRules());
const resident = new ExtractiveSummarizer(loadTemplates(REPO), new ExclusionRules(), new SummaryMemo(1 << 20));

function day(extra: string[]): SourceDoc {
  const lines = [
    '## rate limiter [project]',
    '- decided: token bucket, 100 req/s per key, see src/limit/bucket.ts',
    '- Maria Lopez reviewed it; TimeoutError in staging fixed',
    '- follow up: load test with Grafana Cloud next week',
    '## preferences [user]',
    '- I prefer short answers with the figure first',
    ...extra,
  ];
  return { label: '2026-03-10', path: 'memory/2026-03-10.md', level: 'raw', text: lines.join('\n') + '\n', firstLine: 1 };
}

const summarize = (extra: string[], summarizer = plain): string =>
  summarizer.summarizeSync({
    level: 'daily',
    period: { level: 'daily', date: '2026-03-10' as LocalDate },
    title: '2026-03-10',
    sources: [day(extra)],
    topics: [],
    today: '2026-03-11' as LocalDate,
  });

describe('line shapes kept between cycles', () => {
  it('change nothing in what the summarizer writes', () => {
    summarize([], resident);
    summarize(['- decided: rollback when p99 doubles'], resident);
    const warm = summarize(['- decided: rollback when p99 doubles', '- see https://example.com/runbook for ECONNRESET'], resident);
    const cold = summarize(['- decided: rollback when p99 doubles', '- see https://example.com/runbook for ECONNRESET']);
    expect(warm).toBe(cold);
    expect(warm).toContain('rollback when p99 doubles');
    expect(warm).toContain('ECONNRESET');
  });
});
