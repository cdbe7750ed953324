import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DIR_FLAGS, DIR_HELP, loadWorkspace, workspaceRoot } from '../command-setup.js';
import { CONFIG_FILE, LEGACY_CONFIG_FILE, settingsDigest } from '../../config/settings-source.js';
import { clockSource } from '../../daemon/ask.js';
import { CliError, EXIT } from '../exit.js';
import { VERSION } from '../version.js';
import type { CommandSetup } from '../command-setup.js';
import type { Served } from '../../mcp/server.js';

export function registerMcp(program: Command, { setRun }: CommandSetup): void {
  program
    .command('mcp')
    .description('Serve the memory over MCP on stdio: tools context, get, log, status, search, recall; ROOT.md and the nodes as resources')
    .option('--now <date>', 'treat this as today (YYYY-MM-DD, or YYYY-MM-DDTHH:MM in the configured zone, or with Z or an offset)')
    .option(DIR_FLAGS, DIR_HELP)
    .action((opts: { now?: string; dir?: string }) => {
      setRun(async () => {
        // The server starts whatever the workspace's state: a client then sees the reason in
        // every answer, where an exit before the handshake shows only "Connection closed".
        const root = workspaceRoot(opts.dir).root;
        const load = (settings: string): Served => {
          try {
            // Read before the settings are loaded, as the daemon does: searches are asked of it first.
            const daemon = { clock: clockSource(process.env, opts.now), settings };
            const { ws, config } = loadWorkspace(opts.dir, true);
            return existsSync(ws.memoryDir)
              ? { env: { ws, config, daemon, ...(opts.now ? { now: opts.now } : {}) } }
              : { problem: `${ws.memoryDir}: no memory folder`, memoryDir: ws.memoryDir };
          } catch (err) {
            if (!(err instanceof CliError)) throw err;
            return { problem: err.message, ...awaitedMemory(opts.dir) };
          }
        };
        // A server lives as long as an agent's session: an edit to the config (a pattern added to
        // redactPatterns) holds from the next call on, as it does for one-shot commands. So does
        // a memory folder removed, or made, meanwhile: without one, every tool answers that there
        // is none (as a one-shot command does), rather than a log making a fresh folder or a
        // search emptying the index.
        let digest = settingsDigest(root, process.env);
        let served = load(digest);
        const current = (): Served => {
          const now = settingsDigest(root, process.env);
          if (now !== digest || !served.env || !existsSync(served.env.ws.memoryDir)) {
            digest = now;
            served = load(now);
          }
          return served;
        };
        const { serveStdio } = await import('../../mcp/server.js');
        // Each call reads the config again, but the list's watch must hear of it without one.
        await serveStdio(current, VERSION, [join(root, CONFIG_FILE), join(root, LEGACY_CONFIG_FILE)]);
        return EXIT.ok;
      });
    });
}

/**
 * The memory folder of a workspace found without one: the server watches for it to be made (its
 * nodes then come into resources/list). None where there is no workspace or its config does not load.
 */
function awaitedMemory(dir: string | undefined): { memoryDir?: string } {
  if (!workspaceRoot(dir).found) return {};
  try {
    return { memoryDir: loadWorkspace(dir, false).ws.memoryDir };
  } catch {
    return {};
  }
}
