// Control characters out of text hipo writes to memory. One NUL in a file makes the whole
// file binary to every reader (tree/text.ts): a day's raw log, or a node, would vanish from
// compaction, search and the session context for good, since hipo never edits a raw log.
// Escape sequences (ESC) would also reach the terminal of whoever reads the file.

/** C0 controls except tab and line feed (a carriage return is made a line break first), DEL, and C1. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` with CR LF and a lone CR as LF, and every other control character but tab removed.
 * Removed rather than replaced: a control character is never part of what was meant, and run
 * before redaction, the removal cannot join the two halves of a secret after it was checked.
 */
export function withoutControls(text: string): string {
  const lf = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  return lf.replace(CONTROLS, '');
}
