// Daemon log lines on stderr: readable by default, one JSON object per line with --log-json.
type LogLevel = 'info' | 'warn' | 'error';

export type DaemonLog = (level: LogLevel, event: string, message: string, fields?: Record<string, unknown>) => void;

export function createLog(json: boolean, write: (line: string) => void = (l) => void process.stderr.write(`${l}\n`)): DaemonLog {
  return (level, event, message, fields = {}) => {
    const at = new Date().toISOString();
    if (json) write(JSON.stringify({ at, level, event, message, ...fields }));
    else write(`${at} ${level === 'info' ? '' : `${level.toUpperCase()} `}${message}`);
  };
}
