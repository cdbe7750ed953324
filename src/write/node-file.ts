// A node file: hipo's frontmatter over a body. Frontmatter is always written by hipo (never by a
// summarizer), in a fixed key order, so nodes are valid YAML, readable and byte-stable; keys a
// person added to a node follow hipo's in its next version (withPersonsKeys).
import { lastDayOfWeek, weekDates, type LocalDate } from '../time/calendar.js';
import { bodyHashOf } from '../tree/body-hash.js';
import { frontmatterYaml, renderFrontmatter, splitFrontmatter, type FrontmatterData } from '../tree/frontmatter.js';
import type { NodeStatus, Period } from '../tree/layout.js';
import { formatTopicTag, type TopicInfo } from '../tree/topic.js';

export interface NodeFileInput {
  period: Period;
  status: NodeStatus;
  /** Workspace-relative paths of the sources, e.g. `memory/daily/2026-03-15.md`. */
  sourceFiles: string[];
  topics: TopicInfo[];
  summarizer: string;
  sourceHash: string;
  body: string;
  /** Monthly: ISO weeks with days in the node. */
  weeks?: string[];
  /** Root only. */
  lastUpdated?: LocalDate;
  /** Every month with a node, oldest first: written as their range and count. */
  monthsCovered?: string[];
  tokens?: number;
}

export interface NodeFile {
  text: string;
  bodyHash: string;
}

export function renderNodeFile(n: NodeFileInput): NodeFile {
  // The body is everything after the frontmatter block, starting with its blank line: exactly
  // what splitFrontmatter returns when the file is read back, so the hashes agree.
  const body = `\n${n.body.endsWith('\n') ? n.body : `${n.body}\n`}`;
  const bodyHash = bodyHashOf(body);
  const fm: FrontmatterData = { type: n.period.level, status: n.status };
  switch (n.period.level) {
    case 'daily':
      fm.period = n.period.date;
      break;
    case 'weekly': {
      const days = weekDates(n.period.week);
      fm.period = n.period.week;
      fm.dates = `${days[0]} to ${lastDayOfWeek(n.period.week)}`;
      break;
    }
    case 'monthly':
      fm.period = n.period.month;
      fm.weeks = n.weeks ?? [];
      break;
    case 'root':
      fm['last-updated'] = n.lastUpdated ?? null;
      fm['months-covered'] = monthRange(n.monthsCovered ?? []);
      if (n.tokens !== undefined) fm.tokens = n.tokens;
      break;
  }
  fm['source-files'] = n.sourceFiles;
  if (n.period.level !== 'root') {
    fm.topics = n.topics.map(formatTopicTag);
    if (n.period.level !== 'daily') {
      // Last mention and number of days mentioned per topic, so ROOT can age and rank topics
      // without reading every daily node.
      const seen: Record<string, string> = {};
      const days: Record<string, number> = {};
      for (const t of n.topics) {
        seen[t.name] = t.lastSeen;
        days[t.name] = t.days;
      }
      fm['last-seen'] = seen;
      fm['mention-days'] = days;
    }
  }
  fm.summarizer = n.summarizer;
  fm['source-hash'] = n.sourceHash;
  fm['body-hash'] = bodyHash;
  return { text: renderFrontmatter(fm) + body, bodyHash };
}

/**
 * ROOT's months as `2013-01 to 2027-05 (173 months)`, not one by one: ROOT.md is loaded whole at
 * every session start, so its frontmatter stays a line however long the history.
 */
function monthRange(months: readonly string[]): string {
  if (months.length === 0) return 'none';
  const sorted = [...months].sort();
  const count = `${sorted.length} month${sorted.length === 1 ? '' : 's'}`;
  return sorted.length === 1 ? `${sorted[0]} (${count})` : `${sorted[0]} to ${sorted[sorted.length - 1]} (${count})`;
}

/** The keys hipo writes in a node's frontmatter; any other key was put there by a person. */
const NODE_KEYS: ReadonlySet<string> = new Set([
  'type',
  'status',
  'period',
  'dates',
  'weeks',
  'last-updated',
  'months-covered',
  'tokens',
  'source-files',
  'topics',
  'last-seen',
  'mention-days',
  'summarizer',
  'source-hash',
  'body-hash',
]);

/** Whether a frontmatter block has a top-level line that is not one of hipo's keys. */
function hasOtherKeys(yaml: string): boolean {
  return yaml.split('\n').some((l) => l.trim() !== '' && !/^\s/.test(l) && !NODE_KEYS.has(/^([a-z-]+):/.exec(l)?.[1] ?? ''));
}

/**
 * A node's new version (`file`, as renderNodeFile wrote it) with the frontmatter keys a person
 * added to the version it replaces (`old`) carried over, after hipo's own: Obsidian's `tags` or
 * `aliases`, a note of one's own. hipo's keys are its to write again; these are nobody else's,
 * and a body edit's copy under edits/ would not keep them, as the body did not change. Only from
 * a node hipo wrote (a `body-hash`): a file it did not write is kept whole under edits/.
 */
export function withPersonsKeys(old: string | null, file: string): string {
  // Most nodes hold hipo's keys only: told from the block's top-level lines, without parsing
  // YAML twice on every write (a catch-up rewrites its open week and month once a cycle).
  const yaml = old === null ? null : frontmatterYaml(old);
  if (yaml === null || !hasOtherKeys(yaml)) return file;
  const data = splitFrontmatter(old!).data;
  if (!data || !('body-hash' in data)) return file;
  // A key the new version has is hipo's too, listed above or not: never written twice.
  const own = splitFrontmatter(file).data ?? {};
  const kept: FrontmatterData = {};
  for (const [k, v] of Object.entries(data)) if (!NODE_KEYS.has(k) && !(k in own)) kept[k] = v;
  if (Object.keys(kept).length === 0) return file;
  // Between renderFrontmatter's `---` lines; the new file's block closes at its first `---` line.
  const lines = renderFrontmatter(kept).slice(4, -4);
  const close = file.indexOf('\n---\n', 3) + 1;
  return file.slice(0, close) + lines + file.slice(close);
}

/**
 * Re-renders a node with a new status, keeping its body byte for byte (hand edits in a
 * tentative node survive the fix) and every other frontmatter key as it was.
 */
export function withStatus(fileText: string, status: NodeStatus): string | null {
  const doc = splitFrontmatter(fileText);
  if (!doc.data) return null;
  const data: FrontmatterData = {};
  for (const [k, v] of Object.entries(doc.data)) data[k] = k === 'status' ? status : v;
  if (!('status' in data)) data.status = status;
  return renderFrontmatter(data) + doc.body;
}
