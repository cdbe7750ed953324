// The fault-and-abuse suite runs in two sizes: the CI size (bounded time, part of `npm test`)
// and the long size (`npm run test:faults:long`, HIPO_FAULTS_LONG=1): more trials, more hooks,
// and the 400 MB raw log.
export const LONG = process.env.HIPO_FAULTS_LONG === '1';

/** `ci` in the CI run, `long` in the long one. */
export function scale<T>(ci: T, long: T): T {
  return LONG ? long : ci;
}

/** Prints a measured figure so that a run's output carries it (the report quotes these). */
export function figure(name: string, value: unknown): void {
  process.stdout.write(`[faults] ${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
}
