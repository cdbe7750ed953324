/** A file a platform plan writes: its path relative to the plan's base, and its whole text. */
export interface PlannedFile {
  path: string;
  content: string;
}
