// Exit codes, documented in the README ("Exit codes").
export const EXIT = {
  /** Done (warnings about individual files may have been printed). */
  ok: 0,
  /** Some work failed (a node could not be written); the rest was done. */
  failed: 1,
  /** Bad usage, bad configuration, or no memory folder. */
  usage: 2,
  /** Another hipo process holds the workspace lock. */
  busy: 3,
} as const;

/** An error whose message is for the user, with the exit code it maps to. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly code: number = EXIT.usage,
  ) {
    super(message);
  }
}
