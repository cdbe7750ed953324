// Merging children's topics into a parent's: same names merged, days counted, the latest
// last-seen date kept, sub-keywords ranked by how many children share them (and how early
// each child lists them).
import type { LocalDate } from '../time/calendar.js';
import type { MemoryType } from '../tree/layout.js';
import type { TopicInfo } from '../tree/topic.js';
import { capTopics } from './analyze.js';

interface Merged {
  type: MemoryType;
  lastSeen: LocalDate;
  days: number;
  kw: Map<string, number>;
}

/**
 * A left fold over topic lists that can be copied part-way: ROOT merges every month's topics
 * each cycle, and all but the latest months are the same lists as last time. Resuming a copy
 * adds in the same order as a merge from scratch, so the result is identical.
 */
export class TopicMerger {
  private constructor(private readonly byName: Map<string, Merged>) {}

  static empty(): TopicMerger {
    return new TopicMerger(new Map());
  }

  add(list: readonly TopicInfo[]): this {
    for (const t of list) {
      const cur = this.byName.get(t.name);
      if (!cur) {
        this.byName.set(t.name, {
          type: t.type,
          lastSeen: t.lastSeen,
          days: t.days,
          kw: new Map(t.keywords.map((k, i) => [k, 1 - i * 0.1])),
        });
        continue;
      }
      cur.days += t.days;
      if (t.lastSeen > cur.lastSeen) cur.lastSeen = t.lastSeen;
      if (t.type !== 'project' && cur.type === 'project') cur.type = t.type;
      t.keywords.forEach((k, i) => cur.kw.set(k, (cur.kw.get(k) ?? 0) + 1 - i * 0.1));
    }
    return this;
  }

  copy(): TopicMerger {
    const byName = new Map<string, Merged>();
    for (const [name, m] of this.byName) byName.set(name, { ...m, kw: new Map(m.kw) });
    return new TopicMerger(byName);
  }

  /** The merged topics, capped at `limit` (never dropping `user` or `feedback` ones). */
  result(limit: number): TopicInfo[] {
    const all = [...this.byName].map(([name, v]) => ({
      name,
      type: v.type,
      lastSeen: v.lastSeen,
      days: v.days,
      keywords: [...v.kw]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, 6)
        .map(([k]) => k),
      weight: v.days,
    }));
    return capTopics(all, limit);
  }
}

export function mergeTopics(children: readonly (readonly TopicInfo[])[], limit: number): TopicInfo[] {
  const m = TopicMerger.empty();
  for (const list of children) m.add(list);
  return m.result(limit);
}

/**
 * The `n` topics mentioned on the most days across `lists` (ties by name), with their merged
 * keywords: what mergeTopics gives for those topics, without merging every other topic's
 * keywords. ROOT's Historical Summary wants a few per quarter or year out of hundreds.
 */
export function topTopicsByDays(lists: readonly (readonly TopicInfo[])[], n: number): { name: string; keywords: string[] }[] {
  const days = new Map<string, number>();
  for (const list of lists) for (const t of list) days.set(t.name, (days.get(t.name) ?? 0) + t.days);
  const top = [...days]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, n)
    .map(([name]) => name);
  const wanted = new Set(top);
  const merger = TopicMerger.empty();
  for (const list of lists) merger.add(list.filter((t) => wanted.has(t.name)));
  const keywords = new Map(merger.result(Number.MAX_SAFE_INTEGER).map((t) => [t.name, t.keywords]));
  return top.map((name) => ({ name, keywords: keywords.get(name) ?? [] }));
}
