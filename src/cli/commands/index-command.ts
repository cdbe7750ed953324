import { relative } from 'node:path';
import type { Command } from 'commander';
import { Hipo } from '../../api/hipo.js';
import type { IndexTotals } from '../../index/totals.js';
import type { UpdateReport } from '../../index/update.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace } from '../command-setup.js';
import { EXIT } from '../exit.js';
import type { CommandSetup } from '../command-setup.js';
import { progressSink } from '../progress.js';

export function registerIndex(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('index')
    .description('Bring the search index (.hipo/index.db) up to date with the memory tree')
    .option('--rebuild', 'empty the index and index everything again')
    .option('--json', 'print what was done as JSON')
    .option(DIR_FLAGS, DIR_HELP)
    .addHelpText(
      'after',
      '\nOnly changed files are read, only new chunks are embedded. Exit codes: 0 done, 1 some chunks could not be embedded' +
        ' or the shared store (search.store) could not be updated, 2 bad usage/config or no memory folder.',
    )
    .action((opts: { rebuild?: boolean; json?: boolean; dir?: string }) => {
      setRun(async () => {
        const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
        const progress = progressSink(process.stderr, (l) => io.err(l), { plain: !opts.json, delayMs: 0 });
        const session = await Hipo.at(ws, config, { caller: '' })
          .index({ rebuild: !!opts.rebuild, onProgress: (p) => progress.update(p) })
          .finally(() => progress.done());
        const report = session.report;
        const warnings = [...configWarnings, ...session.warnings];
        const t = session.totals;
        if (opts.json) io.out(JSON.stringify({ ...report, warnings, index: t }, null, 2));
        else io.out(formatIndex(report, t, ws.root, warnings));
        return (report.pendingEmbeddings > 0 && t.embedding) || report.store?.error ? EXIT.failed : EXIT.ok;
      });
    });
}

function formatIndex(r: UpdateReport, t: IndexTotals, root: string, warnings: string[]): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const lines = [
    `hipo index · ${relative(root, t.file) || t.file} · ${(t.bytes / 1024 / 1024).toFixed(1)} MB · ${(r.ms / 1000).toFixed(1)} s`,
  ];
  lines.push(
    `  files   ${n(t.files)} (${n(r.added)} added, ${n(r.changed)} changed, ${n(r.removed)} removed, ${n(r.unchanged)} unchanged)`,
  );
  lines.push(`  chunks  ${n(t.chunks)} (+${n(r.chunksAdded)} −${n(r.chunksRemoved)}, ${n(r.chunksKept)} kept in changed files)`);
  lines.push(
    `  vectors ${n(t.embedded)} (${t.embedder ?? 'no embedder'}; ${n(r.embedded)} new${r.pendingEmbeddings ? `, ${n(r.pendingEmbeddings)} waiting` : ''})`,
  );
  if (r.redacted) lines.push(`  secrets ${n(r.redacted)} redacted before indexing`);
  const s = r.store;
  if (s && !s.error)
    lines.push(
      `  store   ${s.url} · workspace "${s.workspace}": ${n(s.pushed ?? 0)} files pushed (${n(s.chunks ?? 0)} chunks), ` +
        `${n(s.removed ?? 0)} removed, ${n(s.unchanged ?? 0)} unchanged`,
    );
  for (const w of warnings) lines.push(`  warning: ${w}`);
  return lines.join('\n');
}
