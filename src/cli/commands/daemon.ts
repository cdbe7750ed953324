import { isMainThread, parentPort } from 'node:worker_threads';
import type { Command } from 'commander';
import { validate } from 'node-cron';
import { Daemon, DaemonRunning } from '../../daemon/daemon.js';
import { createLog } from '../../daemon/log.js';
import { DIR_FLAGS, DIR_HELP, loadWorkspace, workspaceRoot } from '../command-setup.js';
import { Supervisor } from '../../daemon/supervisor.js';
import { CliError, EXIT } from '../exit.js';
import type { CommandSetup } from '../command-setup.js';
import { STOP_SIGNALS, type StopSignal } from '../stop-signals.js';

/** Calls `stop` on SIGINT or SIGTERM: sent to this process, or forwarded by the main thread. */
function onStopSignal(stop: (signal: StopSignal) => void): () => void {
  if (isMainThread) {
    for (const s of STOP_SIGNALS) process.on(s, stop);
    return () => {
      for (const s of STOP_SIGNALS) process.off(s, stop);
    };
  }
  const onMessage = (m: { signal?: StopSignal }): void => {
    if (m.signal) stop(m.signal);
  };
  parentPort!.on('message', onMessage);
  return () => void parentPort!.off('message', onMessage);
}

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
        const log = createLog(!!opts.logJson, (l) => io.err(l));
        const root = workspaceRoot(opts.dir).root;
        // A daemon started again after a config change that could not start ends the command.
        const outcome: { failed: Error | null } = { failed: null };
        let ended = (): void => {};
        const supervisor = new Supervisor({
          root,
          env: process.env,
          load: () => {
            const { ws, config, configWarnings } = loadWorkspace(opts.dir, true);
            if (!validate(config.daemon.heartbeat))
              throw new CliError(`${ws.root}/hipo.config.json: "daemon.heartbeat" is not a cron expression: "${config.daemon.heartbeat}"`);
            for (const w of configWarnings) log('warn', 'config', w);
            return { ws, config, warnings: configWarnings };
          },
          make: (s) => new Daemon(s.ws, s.config, log, { digest: s.digest, warnings: s.warnings }),
          log,
          onFailed: (err) => {
            outcome.failed = err;
            ended();
          },
        });
        try {
          await supervisor.start();
        } catch (err) {
          if (err instanceof DaemonRunning) throw new CliError(err.message, EXIT.busy);
          throw err;
        }
        await new Promise<void>((resolve) => {
          const unsubscribe = onStopSignal((sig) => {
            log('info', 'signal', `received ${sig}: finishing the write in progress`, { signal: sig });
            ended();
          });
          ended = () => {
            unsubscribe();
            supervisor.stop().then(resolve, resolve);
          };
        });
        const { failed } = outcome;
        if (failed) throw new CliError(failed.message, failed instanceof DaemonRunning ? EXIT.busy : EXIT.failed);
        return EXIT.ok;
      });
    });
}
