// One line of a section as the summarizers read it: a paragraph, a list item or a turn of a
// conversation, with who said it. Its own module: entries read items, conversations group them.
import type { Speaker } from '../tree/speakers.js';

export interface Item {
  text: string;
  /** Line in the source file. */
  line: number;
  /** A markdown list item (as opposed to prose). */
  listed: boolean;
  /** Task-list state: true `[x]`, false `[ ]`, null for no checkbox. */
  checked: boolean | null;
  /** Who said it, in a conversation transcript. */
  speaker: Speaker | null;
  /** A sub-section's heading, read as a line of its section. */
  heading?: true;
}
