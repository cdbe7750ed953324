// Daemon log lines on stderr: readable by default, one JSON object per line with --log-json.
// A line that cannot be written (the reader went away, a full disk under a redirect) is dropped:
// the log is for whoever watches, and the daemon's work and state (.hipo/) go on without it.
type LogLevel = 'info' | 'warn' | 'error';

export type DaemonLog = (level: LogLevel, event: string, message: string, fields?: Record<string, unknown>) => void;

export function createLog(json: boolean, write: (line: string) => void = (l) => void process.stderr.write(`${l}\n`)): DaemonLog {
  return (level, event, message, fields = {}) => {
    const at = new Date().toISOString();
    try {
      if (json) write(JSON.stringify({ at, level, event, message, ...fields }));
      else write(`${at} ${level === 'info' ? '' : `${level.toUpperCase()} `}${message}`);
    } catch {
      /* nowhere to log: see above */
    }
  };
}
