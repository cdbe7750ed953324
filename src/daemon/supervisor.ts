// The daemon with the workspace's settings as they are now: when `hipo.config.json` (or a
// hipocampus config) changes, the running daemon finishes its write in progress and stops, and a
// new one starts with the new settings. A pattern added to `redactPatterns`, an exclusion rule or
// a new heartbeat then holds from the next write on, without anyone restarting the service; and
// one-shot commands, which hand their work over only to a daemon with their own settings, do so
// again. A config that does not load leaves the running daemon as it is, and the log says why,
// naming the file.
import { type FSWatcher, watch } from 'node:fs';
import type { HipoConfig } from '../config/config.js';
import { CONFIG_FILE, LEGACY_CONFIG_FILE, settingsDigest } from '../config/settings-source.js';
import type { Workspace } from '../tree/layout.js';
import type { DaemonLog } from './log.js';

/** What a daemon is started with. */
export interface DaemonSettings {
  ws: Workspace;
  config: HipoConfig;
  warnings: string[];
  /** settingsDigest, read before the settings were loaded. */
  digest: string;
}

/** The part of a daemon the supervisor uses. */
export interface Supervised {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface SupervisorOptions {
  root: string;
  env: NodeJS.ProcessEnv;
  /** Loads the settings now; throws, with a message naming the file, when they do not load. */
  load(): Omit<DaemonSettings, 'digest'>;
  make(settings: DaemonSettings): Supervised;
  log: DaemonLog;
  /** A daemon started again failed to start (another daemon took the workspace meanwhile). */
  onFailed(err: Error): void;
  /** Quiet time after a config file event before it is read (an editor writes in steps). */
  settleMs?: number;
}

const SETTLE_MS = 300;

export class Supervisor {
  private daemon: Supervised | null = null;
  private digest = '';
  /** The digest of settings that did not load: said once, not at every event. */
  private refused: string | null = null;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Restarts and the final stop take turns. */
  private queue: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: SupervisorOptions) {}

  /** Starts the daemon with the settings as they are; throws what its start throws. */
  async start(): Promise<void> {
    this.daemon = this.o.make(this.settings());
    await this.daemon.start();
    try {
      this.watcher = watch(this.o.root, { persistent: true }, (_event, name) => {
        if (name === null || String(name) === CONFIG_FILE || String(name) === LEGACY_CONFIG_FILE) this.changed();
      });
      this.watcher.on('error', (err) =>
        this.o.log('warn', 'config', `${this.o.root}: no longer watched for config changes (${err.message})`),
      );
    } catch (err) {
      this.o.log(
        'warn',
        'config',
        `${this.o.root}: cannot watch for config changes (${(err as Error).message}); restart the daemon after editing it`,
      );
    }
  }

  /** Stops watching the config and stops the daemon after its write in progress. */
  stop(): Promise<void> {
    this.stopped = true;
    this.watcher?.close();
    if (this.timer) clearTimeout(this.timer);
    this.queue = this.queue.then(() => this.daemon?.stop());
    return this.queue;
  }

  /** `digest`: read before the settings are loaded, so a change in between makes commands do their own work. */
  private settings(digest = settingsDigest(this.o.root, this.o.env)): DaemonSettings {
    const loaded = this.o.load();
    this.digest = digest;
    return { ...loaded, digest };
  }

  private changed(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.queue = this.queue.then(() => this.restartIfChanged());
    }, this.o.settleMs ?? SETTLE_MS);
  }

  private async restartIfChanged(): Promise<void> {
    if (this.stopped) return;
    const digest = settingsDigest(this.o.root, this.o.env);
    // Back to the settings it runs with: the same broken file saved again is news again.
    if (digest === this.digest) this.refused = null;
    if (digest === this.digest || digest === this.refused) return;
    let settings: DaemonSettings;
    try {
      settings = this.settings(digest);
    } catch (err) {
      this.refused = digest;
      this.o.log('warn', 'config', `${(err as Error).message}; the daemon goes on with the settings it has`, {});
      return;
    }
    this.refused = null;
    this.o.log('info', 'config', 'the settings changed: the daemon starts again with them', {});
    // Stopped first: the new one reads what the old one saved (the stamp cache, its state). A
    // failure here ends the command (onFailed) rather than the queue: the final stop still runs.
    try {
      await this.daemon?.stop();
      this.daemon = this.o.make(settings);
      await this.daemon.start();
    } catch (err) {
      this.daemon = null;
      this.o.onFailed(err as Error);
    }
  }
}
