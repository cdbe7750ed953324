// The agent hook events that archive a transcript. A module of its own so that a hook process
// can tell capture events from others without loading the capture code.

/** Hook events that archive the transcript, and whether the last turn may be archived unfinished. */
export const CAPTURE_EVENTS = { UserPromptSubmit: false, PreCompact: true, Stop: true, SessionEnd: true } as const;
export type CaptureEvent = keyof typeof CAPTURE_EVENTS;
