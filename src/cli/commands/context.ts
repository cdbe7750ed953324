import type { Command } from 'commander';
import { Hipo } from '../../api/hipo.js';
import { PACK_LEVELS, type Pack } from '../../context/pack.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace } from '../command-setup.js';
import { CliError, EXIT } from '../exit.js';
import type { CommandSetup } from '../command-setup.js';

export function registerContext(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('context')
    .description(
      'Print the memory context pack: ROOT, then the latest monthly, weekly and daily nodes and the newest raw entries, under a token budget',
    )
    .option('--budget <tokens>', 'token budget (default: agents.contextTokens in hipo.config.json)')
    .option('--query <text>', 'prefer the periods, sections and entries that mention these words')
    .option('--json', 'print the pack with tokens per level and what was left out')
    .option('--now <date>', 'treat this as today (YYYY-MM-DD, or YYYY-MM-DDTHH:MM in the configured zone, or with Z or an offset)')
    .option(DIR_FLAGS, DIR_HELP)
    .action((opts: { budget?: string; query?: string; json?: boolean; now?: string; dir?: string }) => {
      setRun(async () => {
        const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
        const budget = opts.budget === undefined ? config.agents.contextTokens : Number(opts.budget);
        if (!Number.isInteger(budget) || budget < 100)
          throw new CliError(`--budget: "${opts.budget}" is not a whole number of tokens of at least 100`);
        const pack = await Hipo.at(ws, config, { now: opts.now, caller: '' }).context({
          budget,
          ...(opts.query ? { query: opts.query } : {}),
        });
        io.out(opts.json ? JSON.stringify(packJson(pack, ws.memoryName), null, 2) : pack.text);
        // On stderr: the pack is what an agent or a hook reads, as it is.
        for (const w of configWarnings) io.err(`hipo: warning: ${w}`);
        return EXIT.ok;
      });
    });
}

export function packJson(p: Pack, memoryName: string): unknown {
  return {
    today: p.today,
    anchor: p.anchor,
    budget: p.budget,
    unit: p.unit,
    total: p.total,
    spent: Object.fromEntries(PACK_LEVELS.map((l) => [l, p.spent[l]])),
    windows: { days: p.windows.days, weeks: p.windows.weeks, months: p.windows.months, rootOnlyBefore: p.windows.rootOnlyBefore },
    included: p.parts.map((x) => ({ level: x.level, path: `${memoryName}/${x.path}`, period: x.period, cost: x.cost, trimmed: x.trimmed })),
    omitted: p.omitted.map((o) => ({ ...o, path: `${memoryName}/${o.path}` })),
    text: p.text,
  };
}
