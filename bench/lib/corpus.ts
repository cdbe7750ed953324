// A seeded generator of realistic memory folders for benchmarks: years of raw logs in the
// hipo raw-log format (typed `## Topic [type]` entries with bullets), with projects that start
// and end, recurring user facts and feedback rules, references, some long transcript-like days,
// code blocks and file paths. Same seed, same bytes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addDays, parseLocalDate, type LocalDate } from '../../src/time/calendar.js';

export interface CorpusOptions {
  /** First day. */
  start: string;
  days: number;
  seed: number;
  /** Share of days with a raw log. */
  activeShare?: number;
}

export interface CorpusStats {
  files: number;
  bytes: number;
  first: string;
  last: string;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NOUNS =
  'auth cache queue billing invoice search index parser scheduler deploy pipeline gateway router storage backup migration schema dashboard report metrics alerting logging tracing session token webhook payment checkout cart inventory catalog pricing onboarding signup profile settings export import sync worker cron retry timeout quota ratelimit tenant cluster node replica shard snapshot release changelog docs api client sdk cli plugin theme layout editor preview upload thumbnail transcoder player playlist feed ranking recommender embedding vector prompt agent memory compaction summary digest newsletter calendar reminder notification email sms push locale translation currency tax refund dispute fraud audit compliance consent privacy retention archive'.split(
    ' ',
  );
const VERBS = [
  'fixed',
  'implemented',
  'refactored',
  'shipped',
  'reviewed',
  'benchmarked',
  'documented',
  'migrated',
  'tested',
  'profiled',
  'deployed',
  'rolled back',
  'split',
  'merged',
  'renamed',
];
const TECH = [
  'postgres',
  'redis',
  'sqlite',
  'kafka',
  'nginx',
  'docker',
  'kubernetes',
  'terraform',
  'react',
  'vite',
  'node.js',
  'typescript',
  'rust',
  'go',
  'python',
  'grpc',
  'graphql',
  'openai',
  'ollama',
  'vitest',
  'playwright',
  'chokidar',
  'fts5',
  'sqlite-vec',
];
const PEOPLE = ['Alice', 'Bob', 'Carol', 'Dmitri', 'Eun-ji', 'Farah', 'Gustavo', 'Hiro', 'Ines', 'Jonas'];
const USER_FACTS = [
  'works in the Europe/Berlin time zone',
  'prefers pnpm over npm',
  'has a dog named Miso',
  'is learning Korean',
  'runs on a 2019 ThinkPad',
  'reads the diff before every commit',
  'takes Fridays off in August',
  'moved to Lisbon in spring',
  'drinks decaf after noon',
  'plays bass in a band',
];
const FEEDBACK = [
  ['no mocks in integration tests', 'a mocked database hid a broken migration last quarter', 'use a real SQLite file in a temp dir'],
  ['keep commits small', 'large commits were hard to review and revert', 'one behaviour change per commit'],
  ['answer with the figure first', 'long preambles get skipped', 'lead with the number, then the caveats'],
  ['never edit generated files', 'hand edits were lost on the next build', 'change the template instead'],
  ['quote medians, not means', 'one slow run skewed the averages', 'report p50 and p95 with the run count'],
];

export function generateCorpus(memoryDir: string, o: CorpusOptions): CorpusStats {
  const rnd = mulberry32(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const zipf = <T>(xs: readonly T[]): T => xs[Math.min(xs.length - 1, Math.floor(xs.length * rnd() ** 2.2))]!;
  mkdirSync(memoryDir, { recursive: true });
  const start = parseLocalDate(o.start);
  if (!start) throw new Error(`bad start date ${o.start}`);
  // Projects: each lives for 2-16 weeks.
  const projects: { name: string; from: number; to: number; tech: string; owner: string }[] = [];
  for (let d = 0; d < o.days; d += 3 + Math.floor(rnd() * 12)) {
    const name = `${pick(NOUNS)} ${pick(NOUNS)}`;
    projects.push({ name, from: d, to: d + 14 + Math.floor(rnd() * 100), tech: pick(TECH), owner: pick(PEOPLE) });
  }
  let files = 0;
  let bytes = 0;
  let last = o.start;
  for (let i = 0; i < o.days; i++) {
    if (rnd() > (o.activeShare ?? 0.85)) continue;
    const date: LocalDate = addDays(start, i);
    const live = projects.filter((p) => p.from <= i && i <= p.to);
    const out: string[] = [`# ${date}`, ''];
    const entries = 2 + Math.floor(rnd() * 6);
    for (let e = 0; e < entries; e++) {
      const r = rnd();
      if (r < 0.08) {
        out.push(`## ${pick(['profile', 'setup', 'habits', 'preferences'])} [user]`, `- user ${pick(USER_FACTS)}`, '');
      } else if (r < 0.14) {
        const f = pick(FEEDBACK);
        out.push(`## ${f[0]} [feedback]`, `- rule: ${f[0]}`, `- why: ${f[1]}`, `- how to apply: ${f[2]}`, '');
      } else if (r < 0.26) {
        const t = pick(TECH);
        out.push(
          `## ${t} docs [reference]`,
          `- https://docs.example.com/${t.replace(/\W/g, '')}/${pick(NOUNS)} — ${pick(NOUNS)} ${pick(NOUNS)} notes`,
          '',
        );
      } else {
        const p = live.length ? zipf(live) : { name: pick(NOUNS), tech: pick(TECH), owner: pick(PEOPLE) };
        out.push(`## ${p.name} [project]`);
        const bullets = 2 + Math.floor(rnd() * 6);
        for (let b = 0; b < bullets; b++) {
          const k = rnd();
          if (k < 0.2)
            out.push(`- decided to use ${p.tech} for the ${pick(NOUNS)} instead of ${pick(TECH)} because ${pick(NOUNS)} latency matters`);
          else if (k < 0.45)
            out.push(`- ${pick(VERBS)} ${pick(NOUNS)} ${pick(NOUNS)} in src/${pick(NOUNS)}/${pick(NOUNS)}.ts with ${p.owner}`);
          else if (k < 0.6)
            out.push(`- [ ] follow up: ${pick(NOUNS)} ${pick(NOUNS)} needs ${pick(['tests', 'docs', 'a benchmark', 'a review'])}`);
          else if (k < 0.7)
            out.push(
              `- lesson: ${pick(NOUNS)} ${pick(['breaks', 'slows down', 'leaks memory'])} when ${pick(NOUNS)} ${pick(['is empty', 'grows past 10k rows', 'runs twice'])}`,
            );
          else
            out.push(
              `- ${p.owner} reported ${pick(NOUNS)} ${pick(['errors', 'timeouts', 'slowness'])} on ${pick(NOUNS)}; p95 ${Math.floor(rnd() * 900) + 50} ms`,
            );
        }
        if (rnd() < 0.08) out.push('', '```ts', `export function ${pick(NOUNS)}() { return ${Math.floor(rnd() * 100)}; }`, '```');
        out.push('');
      }
    }
    // Some days are long working sessions: a transcript-like section over the 200-line threshold.
    if (rnd() < 0.08) {
      const p = live.length ? pick(live) : { name: pick(NOUNS) };
      out.push(`## session transcript: ${p.name}`);
      const turns = 60 + Math.floor(rnd() * 80);
      for (let t = 0; t < turns; t++) {
        out.push(`User: can you look at the ${pick(NOUNS)} ${pick(NOUNS)}? I think ${pick(NOUNS)} is ${pick(['slow', 'wrong', 'flaky'])}.`);
        out.push(
          `Assistant: I checked src/${pick(NOUNS)}.ts; the ${pick(NOUNS)} ${pick(VERBS)} path calls ${pick(NOUNS)} twice. I ${pick(VERBS)} it.`,
        );
      }
      out.push('');
    }
    const text = out.join('\n');
    writeFileSync(join(memoryDir, `${date}.md`), text);
    files++;
    bytes += Buffer.byteLength(text);
    last = date;
  }
  return { files, bytes, first: o.start, last };
}

/** Queries an agent would send to a generated tree: keywords and plain questions. */
export function corpusQueries(): string[] {
  const nouns = [
    'auth',
    'cache',
    'billing',
    'invoice',
    'search',
    'scheduler',
    'deploy',
    'pipeline',
    'gateway',
    'migration',
    'schema',
    'metrics',
    'webhook',
    'payment',
    'tenant',
    'replica',
    'snapshot',
    'plugin',
    'upload',
    'embedding',
    'compaction',
    'refund',
    'consent',
    'retention',
  ];
  const tech = ['postgres', 'redis', 'sqlite', 'kafka', 'nginx', 'kubernetes', 'terraform', 'grpc', 'vitest', 'fts5'];
  const people = ['Alice', 'Bob', 'Dmitri', 'Farah', 'Hiro'];
  const out: string[] = [];
  for (let i = 0; i < 60; i++) {
    const n = nouns[(i * 7) % nouns.length]!;
    const m = nouns[(i * 11 + 3) % nouns.length]!;
    const t = tech[(i * 3) % tech.length]!;
    const p = people[i % people.length]!;
    switch (i % 6) {
      case 0:
        out.push(`${n} ${m}`);
        break;
      case 1:
        out.push(`why did we decide to use ${t} for the ${n}?`);
        break;
      case 2:
        out.push(`${n} timeouts`);
        break;
      case 3:
        out.push(`what did ${p} report about ${m} errors`);
        break;
      case 4:
        out.push(`${t} ${n} ${m} latency`);
        break;
      default:
        out.push(`lesson learned when ${n} grows past 10k rows`);
    }
  }
  return out;
}
