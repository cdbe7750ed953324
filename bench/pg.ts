// npm run bench:pg [-- --url postgres://… | HIPO_PG_URL] [--quick] [--team N] [--skip-10y]
// The PostgreSQL store beside the local SQLite index (figures, not a test):
//   - MemAware dev split (91 days of conversations): index build (local, then the push), query
//     p50 for bm25 and hybrid in both stores, and R@10 / MRR by the benchmark's scorer;
//   - the generated 10-year tree: build, push and query p50 in both stores;
//   - a team: N (default 20) generated one-year workspaces, indexed locally first, then pushed
//     at once by N `hipo index` processes into one database; every workspace's rows are checked
//     against its local index, then searches read all of them.
// The database is a fresh `hipo_bench` beside the one in the URL when the user may create it;
// otherwise the URL's own, and only the bench's workspaces are deleted afterwards.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { defaultConfig, type HipoConfig } from '../src/config/config.js';
import { embedderFor } from '../src/index/embed/select.js';
import { safeUrl } from '../src/index/pg/store.js';
import { openIndex, type SearchIndex } from '../src/index/search-index.js';
import { updateIndex } from '../src/index/update.js';
import { search, type SearchMode } from '../src/search/search.js';
import { workspaceAt } from '../src/tree/layout.js';
import { corpusQueries, generateCorpus } from './lib/corpus.js';
import { benchDataDir, loadQuestions, memawareMemory, RETRIEVERS, runQuestions } from './lib/memaware.js';

const repo = resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const quick = argv.includes('--quick');
const teamSize = Number(arg('--team') ?? 20);
const given = arg('--url') ?? process.env.HIPO_PG_URL ?? process.env.HIPO_TEST_PG_URL;
if (!given) {
  console.error('bench:pg needs a server: --url postgres://… or HIPO_PG_URL (scripts/ci-postgres.sh can start one)');
  process.exit(2);
}
if (!existsSync(join(repo, 'dist', 'cli.js'))) throw new Error('run "npm run build" first');

/** A fresh database for the run when the URL's user may create one, else the URL's own. */
async function benchDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query('DROP DATABASE IF EXISTS hipo_bench WITH (FORCE)');
    await admin.query('CREATE DATABASE hipo_bench');
  } catch (err) {
    await admin.end();
    console.log(`(no database of its own: ${(err as Error).message}; using the URL's, bench workspaces deleted after)`);
    return {
      url,
      drop: async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query("DELETE FROM hipo_files WHERE workspace LIKE 'bench-%'");
        await c.end();
      },
    };
  }
  await admin.end();
  const u = new URL(url);
  u.pathname = '/hipo_bench';
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query('DROP DATABASE IF EXISTS hipo_bench WITH (FORCE)');
      await c.end();
    },
  };
}

const db = await benchDatabase(given);
console.log(`bench:pg · ${safeUrl(db.url)} · ${quick ? 'quick' : 'full'}`);
const work = mkdtempSync(join(tmpdir(), 'hipo-bench-pg-'));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// HIPO_PG_URL would win over the bench database's URL in every workspace's config.
const env = { ...process.env, HIPO_NOW: '', HIPO_PG_URL: '' };

function configFor(store: 'sqlite' | 'postgres', name: string, reads: string[] = []): HipoConfig {
  const c = defaultConfig();
  c.timeZone = 'UTC';
  c.search.store = store;
  c.search.postgres = { url: db.url, workspace: name, workspaces: reads };
  return c;
}

function writeConfig(dir: string, store: 'sqlite' | 'postgres', name: string, reads: string[] = []): void {
  const search = { store, postgres: { url: db.url, workspace: name, workspaces: reads } };
  writeFileSync(join(dir, 'hipo.config.json'), JSON.stringify({ timeZone: 'UTC', search }, null, 2));
}

/** Local build, then the push, timed apart; both stores' handles on the one workspace. */
async function build(dir: string, name: string): Promise<{ local: SearchIndex; shared: SearchIndex; buildS: number; pushS: number }> {
  const ws = workspaceAt(dir);
  const lc = configFor('sqlite', name);
  const local = openIndex(ws, lc, { embedder: embedderFor(ws, lc.search), env });
  const t = performance.now();
  await updateIndex(local);
  const buildS = (performance.now() - t) / 1000;
  const sc = configFor('postgres', name);
  const shared = openIndex(ws, sc, { embedder: embedderFor(ws, sc.search), env });
  const r = await updateIndex(shared);
  if (!r.store || r.store.error) throw new Error(r.store?.error ?? 'nothing was pushed');
  return { local, shared, buildS, pushS: (r.store?.ms ?? 0) / 1000 };
}

async function p50(index: SearchIndex, queries: readonly string[], mode: SearchMode, workspaces?: string[]): Promise<number> {
  for (const q of queries.slice(0, 3)) await search(index, q, { mode, workspaces }); // warm caches and connections
  const times: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await search(index, q, { mode, workspaces });
    times.push(performance.now() - t);
  }
  return median(times);
}

const lines: string[] = [];
const say = (s: string): void => {
  lines.push(s);
  console.log(s);
};

try {
  // ---- MemAware --------------------------------------------------------------------------------
  {
    const dir = join(work, 'memaware');
    mkdirSync(dir);
    cpSync(memawareMemory(), join(dir, 'memory'), { recursive: true });
    const b = await build(dir, 'bench-memaware');
    say(`MemAware: local build ${b.buildS.toFixed(1)} s, push ${b.pushS.toFixed(1)} s`);
    const questions = loadQuestions();
    const scorer = join(benchDataDir(), 'score.mjs');
    for (const mode of ['bm25', 'hybrid'] as const) {
      for (const [store, index] of [
        ['sqlite', b.local],
        ['postgres', b.shared],
      ] as const) {
        const retrieve = RETRIEVERS.search!(index, { mode, limit: 50 });
        const { run, times } = await runQuestions(retrieve, questions);
        const file = join(work, `run-${store}-${mode}.json`);
        writeFileSync(file, JSON.stringify(run));
        let quality = '';
        if (existsSync(scorer)) {
          const s = JSON.parse(execFileSync(process.execPath, [scorer, '--run', file, '--json'], { encoding: 'utf8' })) as {
            run: Record<string, Record<string, number>>;
          };
          quality = `R@10 ${(s.run.all!['R@10']! * 100).toFixed(1)}, MRR ${s.run.all!.MRR!.toFixed(3)}`;
        }
        say(`  ${mode.padEnd(6)} ${store.padEnd(8)} p50 ${median(times).toFixed(1).padStart(6)} ms  ${quality}`);
      }
    }
    b.local.close();
    b.shared.close();
  }

  // ---- 10 years --------------------------------------------------------------------------------
  if (!argv.includes('--skip-10y')) {
    const dir = join(work, 'ten');
    generateCorpus(join(dir, 'memory'), { start: '2016-01-04', days: quick ? 1096 : 3653, seed: 7 });
    const b = await build(dir, 'bench-ten');
    const label = quick ? '3-year (quick)' : '10-year';
    say(`${label} tree: local build ${b.buildS.toFixed(1)} s, push ${b.pushS.toFixed(1)} s`);
    const queries = corpusQueries();
    for (const mode of ['bm25', 'hybrid'] as const) {
      const [l, s] = [await p50(b.local, queries, mode), await p50(b.shared, queries, mode)];
      say(`  ${mode.padEnd(6)} p50 sqlite ${l.toFixed(1)} ms, postgres ${s.toFixed(1)} ms`);
    }
    b.local.close();
    b.shared.close();
  }

  // ---- A team ----------------------------------------------------------------------------------
  {
    const names = Array.from({ length: teamSize }, (_, i) => `bench-team-${String(i).padStart(2, '0')}`);
    const dirs = names.map((n) => join(work, n));
    const t0 = performance.now();
    names.forEach((name, i) => {
      generateCorpus(join(dirs[i]!, 'memory'), { start: '2025-01-06', days: quick ? 90 : 365, seed: 100 + i });
      writeConfig(dirs[i]!, 'sqlite', name);
    });
    // Local indexes first, two at a time (this machine has two cores): the team's machines each build their own.
    for (let i = 0; i < dirs.length; i += 2) await Promise.all(dirs.slice(i, i + 2).map((d) => runHipo(['index', '--dir', d], env)));
    say(
      `team: ${teamSize} workspaces of ${quick ? 90 : 365} days, local indexes built in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    names.forEach((name, i) => writeConfig(dirs[i]!, 'postgres', name));
    const t1 = performance.now();
    const codes = await Promise.all(dirs.map((d) => runHipo(['index', '--dir', d], env)));
    const pushS = (performance.now() - t1) / 1000;
    const failed = codes.filter((c) => c !== 0).length;
    // Every workspace's rows against its own local index.
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    let lost = 0;
    let chunks = 0;
    for (let i = 0; i < names.length; i++) {
      const local = openIndex(workspaceAt(dirs[i]!), configFor('sqlite', names[i]!), { embedder: null });
      const want = local.db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number };
      local.close();
      const got = (await c.query('SELECT count(*)::int AS n FROM hipo_chunks WHERE workspace = $1', [names[i]])).rows[0].n as number;
      lost += Math.max(0, want.n - got);
      chunks += got;
    }
    await c.end();
    const n = chunks.toLocaleString('en-US');
    say(`  ${teamSize} concurrent pushes: ${pushS.toFixed(1)} s wall, ${failed} failed, ${n} chunks, ${lost} lost`);
    const ws = workspaceAt(dirs[0]!);
    const reader = openIndex(ws, configFor('postgres', names[0]!, names.slice(1)), {
      embedder: embedderFor(ws, defaultConfig().search),
      env,
    });
    const queries = corpusQueries();
    for (const mode of ['bm25', 'hybrid'] as const) {
      const own = await p50(reader, queries, mode, [names[0]!]);
      const all = await p50(reader, queries, mode);
      say(`  ${mode.padEnd(6)} p50 one workspace ${own.toFixed(1)} ms, all ${teamSize} ${all.toFixed(1)} ms`);
    }
    reader.close();
  }
} finally {
  await db.drop().catch((err) => console.error(`could not clean up: ${(err as Error).message}`));
  rmSync(work, { recursive: true, force: true });
}

function runHipo(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [join(repo, 'dist', 'cli.js'), ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => {
      err += d;
    });
    p.on('close', (code) => {
      if (code !== 0) console.error(`hipo ${args.join(' ')} exited ${code}: ${err.slice(-300)}`);
      done(code ?? 1);
    });
  });
}
