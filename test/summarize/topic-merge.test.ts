import { describe, expect, it } from 'vitest';
import { mergeTopics, TopicMerger } from '../../src/summarize/topic-merge.js';
import type { TopicInfo } from '../../src/tree/topic.js';
import type { LocalDate } from '../../src/time/calendar.js';

const t = (name: string, lastSeen: string, keywords: string[], type: TopicInfo['type'] = 'project', days = 1): TopicInfo => ({ name, type, lastSeen: lastSeen as LocalDate, days, keywords });

const months: TopicInfo[][] = [
  [t('parser', '2026-01-20', ['yaml', 'remark']), t('deploy', '2026-01-05', ['ci'])],
  [t('parser', '2026-02-11', ['remark', 'speed'], 'project', 3), t('tone', '2026-02-02', ['short'], 'feedback')],
  [t('deploy', '2026-03-30', ['ci', 'docker', 'cache']), t('parser', '2026-03-01', ['yaml'])],
  [t('tone', '2026-04-02', ['english'], 'feedback', 2)],
];

describe('merging topics', () => {
  it('counts days, keeps the latest last-seen and a non-project type, ranks shared keywords', () => {
    const merged = mergeTopics(months, 10);
    const parser = merged.find((x) => x.name === 'parser')!;
    expect(parser).toMatchObject({ days: 5, lastSeen: '2026-03-01' });
    // yaml: first in two months (1 + 1); remark: second, then first (0.9 + 1).
    expect(parser.keywords.slice(0, 3)).toEqual(['yaml', 'remark', 'speed']);
    expect(merged.find((x) => x.name === 'tone')).toMatchObject({ type: 'feedback', days: 3, lastSeen: '2026-04-02' });
  });

  it('a merge resumed from a copy equals a merge from scratch, and the copy leaves the original alone', () => {
    const settled = TopicMerger.empty().add(months[0]!).add(months[1]!);
    const resumed = settled.copy().add(months[2]!).add(months[3]!).result(10);
    expect(resumed).toEqual(mergeTopics(months, 10));
    expect(settled.result(10)).toEqual(mergeTopics(months.slice(0, 2), 10));
  });
});
