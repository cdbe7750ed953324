import type { Command } from 'commander';
import { Hipo } from '../../api/hipo.js';
import { MEMORY_TYPES, type MemoryType } from '../../tree/layout.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace } from '../command-setup.js';
import { CliError, EXIT } from '../exit.js';
import type { CommandSetup } from '../command-setup.js';

export function registerLog(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('log')
    .argument('<text...>', 'what to remember ("-" reads it from stdin)')
    .description("Append a typed entry to today's raw log (append-only, redacted)")
    .option('--type <type>', `memory type: ${MEMORY_TYPES.join(', ')}`, 'project')
    .option('--topic <text>', 'topic of the entry (the heading); default: named from the text\'s words, or "Note"')
    .option('--json', 'print where the entry went as JSON')
    .option('--now <date>', 'treat this as today (YYYY-MM-DD, or YYYY-MM-DDTHH:MM in the configured zone, or with Z or an offset)')
    .option(DIR_FLAGS, DIR_HELP)
    .action((words: string[], opts: { type: string; topic?: string; json?: boolean; now?: string; dir?: string }) => {
      setRun(async () => {
        if (!(MEMORY_TYPES as readonly string[]).includes(opts.type))
          throw new CliError(`--type: "${opts.type}" is not one of ${MEMORY_TYPES.join(', ')}`);
        const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
        let text = words.join(' ');
        if (text === '-') text = await readAll(process.stdin);
        if (!text.trim()) throw new CliError('nothing to log: the text is empty');
        const r = await Hipo.at(ws, config, { now: opts.now, caller: '' }).log(text, {
          type: opts.type as MemoryType,
          ...(opts.topic !== undefined ? { topic: opts.topic } : {}),
        });
        if (opts.json)
          io.out(JSON.stringify({ file: `${ws.memoryName}/${r.rel}`, heading: r.heading, bytes: r.bytes, redacted: r.redacted }, null, 2));
        else
          io.out(
            `hipo log · appended to ${ws.memoryName}/${r.rel}: ${r.heading}${r.redacted ? ` (${r.redacted} secret${r.redacted === 1 ? '' : 's'} redacted)` : ''}`,
          );
        for (const w of configWarnings) io.err(`hipo: warning: ${w}`);
        return EXIT.ok;
      });
    });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
