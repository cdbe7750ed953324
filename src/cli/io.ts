// A place to print: the process's stdout and stderr, or a test's buffers. Kept apart from
// command-setup.ts (which loads the configuration and the redactor) so that the daemon-first path
// prints through the same door without loading them.
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** C0 and C1 control characters but tab and line ends (CRLF too; a lone CR rewrites its line). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;

/**
 * `text` with its control characters written as `\u001b`: what a command prints comes from
 * memory files, and one holding `ESC]0;…BEL` or `ESC[2J` would retitle or clear the terminal.
 * The form is JSON's own, so a `--json` document stays valid and reads back the same.
 */
function printable(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export const processIo: Io = {
  out: (t) => void process.stdout.write(printable(t.endsWith('\n') ? t : `${t}\n`)),
  err: (t) => void process.stderr.write(printable(t.endsWith('\n') ? t : `${t}\n`)),
};
