// The levels a search can be narrowed to: the tree's, and `other` for files outside it
// (`search.include`). Apart from files.ts so that the command line can name them without loading
// what lists files (the redactor among it): a search a daemon answers loads neither.
import type { Level } from '../tree/layout.js';

/** A chunk's level: a tree level, or `other` for markdown that is not part of the tree. */
export type IndexLevel = Level | 'other';
export const INDEX_LEVELS: readonly IndexLevel[] = ['raw', 'daily', 'weekly', 'monthly', 'root', 'other'];
