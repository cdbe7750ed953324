// npm run bench:awareness [-- --ws DIR] [--fresh] [--json] [--no-prompts] [--shapes]
// Awareness (figures, not a test): does the tree, and what an agent loads at session start,
// still hold the facts later requests depend on? Two parts:
//   1. MemAware dev split (offline, no model): the corpus is compacted with the built CLI
//      (`--now 2023-07-15`, time zone UTC) and, per question, the fact it depends on is looked
//      for in the daily, weekly and monthly node of a gold day, in ROOT.md and in the
//      SessionStart pack. `answer`: the answer (at most 6 words, found in a gold session) as a
//      word sequence; `recall`: >= 60 % of should_recall's content words. `chance`: the same test
//      on the nodes of a level that cover no gold day. The definitions are the benchmark's own
//      (its awareness.mjs); when that script is found beside the data, it is run on the same
//      workspace and its figures are compared with these.
//      Then (unless --no-prompts) each `answer` question is sent as the prompt of a
//      UserPromptSubmit hook on the indexed tree: is the answer in what the hook hands the agent?
//   2. The example memory in `memory/`: each fact its logs type as `[user]` or `[feedback]`, and
//      whether it reaches the SessionStart pack.
//   3. With --shapes: part 1's answer test again on MemAware rewritten in other writers' shapes
//      (bench/lib/shapes.ts: smart punctuation, no capitals, exported chats' labels, ...), each
//      in a workspace of its own. The questions and what counts as an answer stay the original's.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { benchDataDir, memawareMemory } from './lib/memaware.js';
import { SHAPES } from './lib/shapes.js';

const REPO = resolve(import.meta.dirname, '..');
const CLI = join(REPO, 'dist', 'cli.js');
const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};

function hipo(args: string[], env: NodeJS.ProcessEnv, input?: string): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', input, env, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`hipo ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-400)}`);
  return r.stdout;
}

/** Offline: no model or embedding endpoint reaches the measurement. */
function offlineEnv(now: string): NodeJS.ProcessEnv {
  const env = { ...process.env, HIPO_NOW: now };
  for (const k of Object.keys(env)) if (k.startsWith('HIPO_LLM_') || k.startsWith('HIPO_EMBED_')) delete env[k];
  return env;
}

/** The additionalContext a hook hands the agent ('' when it prints nothing). */
function hookContext(ws: string, env: NodeJS.ProcessEnv, event: 'SessionStart' | 'UserPromptSubmit', fields: object): string {
  const input = JSON.stringify({ session_id: 'awareness-bench', transcript_path: null, cwd: ws, hook_event_name: event, ...fields });
  const out = hipo(['hook', event, '--dir', ws], env, input);
  return out
    ? ((JSON.parse(out) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '')
    : '';
}

/** The SessionStart context, as an agent starting a session gets it. */
const sessionStartPack = (ws: string, env: NodeJS.ProcessEnv): string => hookContext(ws, env, 'SessionStart', { source: 'startup' });
/** What `hipo hook UserPromptSubmit` hands the agent for `prompt`. */
const promptContext = (ws: string, env: NodeJS.ProcessEnv, prompt: string): string => hookContext(ws, env, 'UserPromptSubmit', { prompt });

// ---- the benchmark's definitions --------------------------------------------------------

const STOP = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both ' +
    'but by can could did do does doing down during each few for from further had has have having he her here hers herself him himself ' +
    'his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves ' +
    'out over own same she should so some such than that the their theirs them themselves then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your yours yourself yourselves'
  ).split(' '),
);
const words = (t: string): string[] =>
  String(t)
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];
const seq = (t: string): string => ` ${words(t).join(' ')} `;
const contentOf = (t: string): string[] => [...new Set(words(t).filter((w) => !STOP.has(w)))];
const bodyOf = (t: string): string => t.replace(/^---\n[\s\S]*?\n---\n/, '');

interface Text {
  seq: string;
  words: Set<string>;
}
const asText = (t: string): Text => ({ seq: seq(t), words: new Set(words(t)) });

/** ISO week of a civil date, `2023-W21`. */
function isoWeek(d: string): string {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() - ((t.getUTCDay() + 6) % 7) + 3);
  const y = t.getUTCFullYear();
  const jan4 = Date.UTC(y, 0, 4);
  const w = 1 + Math.round(((t.getTime() - jan4) / 864e5 - 3 + ((new Date(jan4).getUTCDay() + 6) % 7)) / 7);
  return `${y}-W${String(w).padStart(2, '0')}`;
}

interface Gold {
  id: string;
  answer: string;
  should_recall: string;
  gold_days: string[];
  gold_sessions: string[];
}

interface Row {
  n: number;
  survives: Record<string, number>;
  chance: Record<string, number>;
}

/** The answer test with each question sent as the prompt: in what the prompt hook hands the agent, and in it or the pack. */
interface PromptRow {
  n: number;
  context: number;
  contextOrPack: number;
  /** Mean characters handed over per prompt. */
  chars: number;
}

interface MemAwareRun {
  ws: string;
  fresh: boolean;
  prompts: boolean;
  /** Rewrites each raw log before compaction (a writer's shape); none: the logs as they are. */
  shape?: (log: string) => string;
}

function memaware(run: MemAwareRun): {
  ws: string;
  rootTokens: number;
  packChars: number;
  tests: Record<string, Row>;
  prompt: PromptRow | null;
} {
  const ws = run.ws;
  const mem = join(ws, 'memory');
  const now = '2023-07-15';
  const env = offlineEnv(now);
  const src = memawareMemory();
  if (run.fresh || !existsSync(join(mem, 'ROOT.md'))) {
    rmSync(ws, { recursive: true, force: true });
    mkdirSync(mem, { recursive: true });
    for (const f of readdirSync(src))
      if (run.shape) writeFileSync(join(mem, f), run.shape(readFileSync(join(src, f), 'utf8')));
      else cpSync(join(src, f), join(mem, f));
    writeFileSync(join(ws, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC' }) + '\n');
    const t = performance.now();
    hipo(['compact', '--catch-up', '--now', now, '--dir', ws], env);
    console.error(`hipo compact --catch-up: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const packText = sessionStartPack(ws, env);
  const pack = asText(packText);
  const packChars = packText.length;
  const cache = new Map<string, Text | null>();
  const node = (rel: string): Text | null => {
    if (!cache.has(rel)) {
      let t: Text | null = null;
      try {
        t = asText(bodyOf(readFileSync(join(mem, rel), 'utf8')));
      } catch {
        /* a missing node holds nothing */
      }
      cache.set(rel, t);
    }
    return cache.get(rel)!;
  };
  const sessions = new Map<string, Text>();
  const session = (key: string): Text => {
    let s = sessions.get(key);
    if (!s) {
      const [day, n] = key.split('#');
      // The original log: a shape changes how it is written, not which questions it answers.
      const raw = readFileSync(join(src, `${day}.md`), 'utf8');
      s = asText(raw.split(/^(?=## Session )/m).find((c) => c.startsWith(`## Session ${n}\n`)) ?? '');
      sessions.set(key, s);
    }
    return s;
  };
  const levels: Record<string, (q: Gold) => (string | null)[]> = {
    daily: (q) => q.gold_days.map((d) => `daily/${d}.md`),
    weekly: (q) => [...new Set(q.gold_days.map((d) => `weekly/${isoWeek(d)}.md`))],
    monthly: (q) => [...new Set(q.gold_days.map((d) => `monthly/${d.slice(0, 7)}.md`))],
    ROOT: () => ['ROOT.md'],
    'session start': () => [null],
  };
  const tests: Record<string, { eligible: (q: Gold) => boolean; hit: (q: Gold, t: Text) => boolean }> = {
    answer: {
      eligible: (q) => {
        const a = seq(q.answer).trim();
        return a.length >= 3 && a.split(' ').length <= 6 && q.gold_sessions.some((k) => session(k).seq.includes(` ${a} `));
      },
      hit: (q, t) => t.seq.includes(seq(q.answer)),
    },
    recall: {
      eligible: (q) => contentOf(q.should_recall).length > 0,
      hit: (q, t) => {
        const c = contentOf(q.should_recall);
        return c.filter((w) => t.words.has(w)).length / c.length >= 0.6;
      },
    },
  };
  const gold = (JSON.parse(readFileSync(join(benchDataDir(), 'memaware', 'gold.json'), 'utf8')) as Gold[]).map((q) => ({
    ...q,
    answer: String(q.answer),
  }));
  const out: Record<string, Row> = {};
  for (const [name, t] of Object.entries(tests)) {
    const qs = gold.filter(t.eligible);
    const row: Row = { n: qs.length, survives: {}, chance: {} };
    for (const [level, rels] of Object.entries(levels)) {
      const hits = qs.filter((q) =>
        rels(q).some((r) => {
          const n = r === null ? pack : node(r);
          return n !== null && t.hit(q, n);
        }),
      );
      row.survives[level] = +((100 * hits.length) / Math.max(1, qs.length)).toFixed(1);
      if (level === 'daily' || level === 'weekly' || level === 'monthly') {
        const all = readdirSync(join(mem, level)).map((f) => `${level}/${f}`);
        let sum = 0;
        for (const q of qs) {
          const mine = new Set(rels(q));
          const others = all.filter((r) => !mine.has(r));
          sum += others.filter((r) => t.hit(q, node(r)!)).length / Math.max(1, others.length);
        }
        row.chance[level] = +((100 * sum) / Math.max(1, qs.length)).toFixed(1);
      }
    }
    out[name] = row;
  }
  const rootTokens = Number(/^tokens:\s*(\d+)/m.exec(readFileSync(join(mem, 'ROOT.md'), 'utf8'))?.[1] ?? NaN);
  // Each answer question as the prompt of a UserPromptSubmit hook, on the indexed tree.
  let prompt: PromptRow | null = null;
  if (run.prompts) {
    hipo(['index', '--dir', ws], env);
    const qs = gold.filter(tests.answer!.eligible);
    let context = 0;
    let either = 0;
    let chars = 0;
    for (const q of qs) {
      const c = promptContext(ws, env, q.question);
      chars += c.length;
      const inContext = tests.answer!.hit(q, asText(c));
      context += +inContext;
      either += +(inContext || tests.answer!.hit(q, pack));
    }
    const pct = (k: number): number => +((100 * k) / Math.max(1, qs.length)).toFixed(1);
    prompt = { n: qs.length, context: pct(context), contextOrPack: pct(either), chars: Math.round(chars / Math.max(1, qs.length)) };
  }
  return { ws, rootTokens, packChars, tests: out, prompt };
}

/** The benchmark's own script on the same workspace, when it is beside the data. */
function benchmarkScript(ws: string): Record<string, Row> | null {
  const script = join(benchDataDir(), 'awareness.mjs');
  if (!existsSync(script)) return null;
  const r = spawnSync(process.execPath, [script, '--hipo', REPO, '--ws', ws, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${basename(script)} exited ${r.status}: ${r.stderr.slice(-400)}`);
  return (JSON.parse(r.stdout) as { tests: Record<string, Row> }).tests;
}

// ---- the example memory -------------------------------------------------------------------

interface TypedFact {
  day: string;
  type: 'user' | 'feedback';
  text: string;
  inPack: boolean;
}

/** Items of the `[user]` and `[feedback]` sections of the example's raw logs (a feedback section is one rule). */
export function typedFacts(memoryDir: string): Omit<TypedFact, 'inPack'>[] {
  const out: Omit<TypedFact, 'inPack'>[] = [];
  for (const f of readdirSync(memoryDir)
    .filter((n) => /^\d{4}-\d{2}-\d{2}\.md$/.test(n))
    .sort()) {
    const day = f.slice(0, 10);
    for (const section of readFileSync(join(memoryDir, f), 'utf8').split(/^(?=## )/m)) {
      const m = /^## .*\[(user|feedback)\]/.exec(section);
      if (!m) continue;
      const items = [...section.matchAll(/^- (.*)$/gm)].map((x) => x[1]!.trim());
      if (m[1] === 'user') for (const text of items) out.push({ day, type: 'user', text });
      else if (items.length) out.push({ day, type: 'feedback', text: items[0]! });
    }
  }
  return out;
}

function example(): { facts: TypedFact[]; packChars: number } {
  const ws = mkdtempSync(join(tmpdir(), 'hipo-awareness-example-'));
  try {
    cpSync(join(REPO, 'memory'), join(ws, 'memory'), { recursive: true, filter: (p) => !/\/(?:daily|weekly|monthly)$|ROOT\.md$/.test(p) });
    cpSync(join(REPO, 'hipo.config.json'), join(ws, 'hipo.config.json'));
    const days = readdirSync(join(ws, 'memory'))
      .filter((n) => /^\d{4}-\d{2}-\d{2}\.md$/.test(n))
      .sort();
    const now = days[days.length - 1]!.slice(0, 10);
    const env = offlineEnv(now);
    hipo(['compact', '--catch-up', '--dir', ws], env);
    const pack = sessionStartPack(ws, env);
    const packSeq = seq(pack);
    // A rule is in the pack when its rule line is; a user fact when its words are, in order.
    const facts = typedFacts(join(ws, 'memory')).map((f) => ({ ...f, inPack: packSeq.includes(seq(f.text.replace(/^rule:\s*/i, ''))) }));
    return { facts, packChars: pack.length };
  } finally {
    rmSync(ws, { recursive: true, force: true });
  }
}

// ---- report -------------------------------------------------------------------------------

if (!existsSync(CLI)) {
  console.error('dist/cli.js is missing: npm run build first');
  process.exit(2);
}
const m = memaware({
  ws: resolve(arg('--ws') ?? mkdtempSync(join(tmpdir(), 'hipo-awareness-'))),
  fresh: argv.includes('--fresh'),
  prompts: !argv.includes('--no-prompts'),
});
/** Part 3: the answer test per writer's shape, beside the original's. */
function shapes(): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = { original: m.tests.answer!.survives };
  for (const [name, shape] of Object.entries(SHAPES)) {
    const ws = mkdtempSync(join(tmpdir(), 'hipo-awareness-shape-'));
    try {
      out[name] = memaware({ ws, fresh: true, prompts: false, shape }).tests.answer!.survives;
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  }
  return out;
}
const byShape = argv.includes('--shapes') ? shapes() : null;
const theirs = benchmarkScript(m.ws);
const ex = example();
if (argv.includes('--json')) {
  console.log(
    JSON.stringify(
      {
        memaware: {
          rootTokens: m.rootTokens,
          packChars: m.packChars,
          tests: m.tests,
          prompt: m.prompt,
          agreesWithBenchmark: theirs ? JSON.stringify(theirs) === JSON.stringify(m.tests) : null,
          ...(byShape ? { shapes: byShape } : {}),
        },
        example: ex,
      },
      null,
      2,
    ),
  );
} else {
  const levels = ['daily', 'weekly', 'monthly', 'ROOT', 'session start'];
  console.log(`awareness · MemAware dev · ROOT ${m.rootTokens} tokens · session-start pack ${m.packChars} chars`);
  console.log(`| test | n | ${levels.join(' | ')} |\n|---|---:|${levels.map(() => '---:').join('|')}|`);
  for (const [name, r] of Object.entries(m.tests)) {
    console.log(`| ${name} | ${r.n} | ${levels.map((l) => r.survives[l]).join(' | ')} |`);
    console.log(`| ${name}, chance | | ${levels.map((l) => r.chance[l] ?? '–').join(' | ')} |`);
  }
  if (theirs)
    console.log(
      JSON.stringify(theirs) === JSON.stringify(m.tests)
        ? "the benchmark's awareness.mjs, same workspace: same figures"
        : `the benchmark's awareness.mjs disagrees: ${JSON.stringify(theirs)}`,
    );
  else console.log("(the benchmark's awareness.mjs was not found beside the data: no cross-check)");
  if (m.prompt)
    console.log(
      `each answer question as the prompt (hook UserPromptSubmit, ${m.prompt.chars} chars on average): ` +
        `answer in its context ${m.prompt.context} %, in it or the session-start pack ${m.prompt.contextOrPack} % (n ${m.prompt.n})`,
    );
  console.log(
    `\nexample memory · session-start pack ${ex.packChars} chars · ${ex.facts.filter((f) => f.inPack).length} of ${ex.facts.length} typed user and feedback facts in it`,
  );
  for (const f of ex.facts) console.log(`${f.inPack ? '  in pack ' : '  MISSING '} ${f.day} [${f.type}] ${f.text}`);
  if (byShape) {
    console.log(`\nanswer survival (%) with MemAware written in other shapes (n ${m.tests.answer!.n})`);
    console.log(`| shape | ${levels.join(' | ')} |\n|---|${levels.map(() => '---:').join('|')}|`);
    for (const [name, row] of Object.entries(byShape)) console.log(`| ${name} | ${levels.map((l) => row[l]).join(' | ')} |`);
  }
  console.error(`workspace: ${m.ws}`);
}
