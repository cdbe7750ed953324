// The signals that stop a daemon: listened for on the main thread (daemon-start.ts forwards them
// to the daemon's worker thread), or by the command itself when it runs without one.
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];
