import type { Command } from 'commander';
import { validate } from 'node-cron';
import { Daemon, DaemonRunning } from '../../daemon/daemon.js';
import { createLog } from '../../daemon/log.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace, workspaceRoot } from '../command-setup.js';
import { settingsDigest } from '../../config/settings-source.js';
import { CliError, EXIT } from '../exit.js';
import type { CommandSetup } from '../command-setup.js';

export function registerDaemon(program: Command, { io, setRun }: CommandSetup): void {
  program
    .command('daemon')
    .description('Run in the foreground: catch up, then compact on file changes and on a heartbeat')
    .option('--log-json', 'log one JSON object per line on stderr')
    .option(DIR_FLAGS, DIR_HELP)
    .addHelpText(
      'after',
      '\nStops cleanly on SIGINT or SIGTERM (finishes the write in progress, releases the lock, exits 0).\nExit codes: 0 stopped, 2 bad usage/config, 3 another daemon runs for this workspace.',
    )
    .action((opts: { logJson?: boolean; dir?: string }) => {
      setRun(async () => {
        // Read before the settings are loaded: a change in between makes commands do their own work.
        const digest = settingsDigest(workspaceRoot(opts.dir).root, process.env);
        const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
        if (!validate(config.daemon.heartbeat))
          throw new CliError(`${ws.root}/hipo.config.json: "daemon.heartbeat" is not a cron expression: "${config.daemon.heartbeat}"`);
        const log = createLog(!!opts.logJson, (l) => io.err(l));
        for (const w of configWarnings) log('warn', 'config', w);
        const daemon = new Daemon(ws, config, log, { digest, warnings: configWarnings });
        try {
          await daemon.start();
        } catch (err) {
          if (err instanceof DaemonRunning) throw new CliError(err.message, EXIT.busy);
          throw err;
        }
        await new Promise<void>((resolve) => {
          const onSignal = (sig: string): void => {
            log('info', 'signal', `received ${sig}: finishing the write in progress`, { signal: sig });
            process.off('SIGINT', onSignal);
            process.off('SIGTERM', onSignal);
            daemon.stop().then(resolve, resolve);
          };
          process.on('SIGINT', onSignal);
          process.on('SIGTERM', onSignal);
        });
        return EXIT.ok;
      });
    });
}
