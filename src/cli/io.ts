// A place to print: the process's stdout and stderr, or a test's buffers. Kept apart from
// command-setup.ts (which loads the configuration and the redactor) so that the daemon-first path
// prints through the same door without loading them.
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (t) => void process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
  err: (t) => void process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
};
