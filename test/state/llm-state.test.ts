// The model's endpoint state (.hipo/llm.json): a backoff holds from the failure for its wait, and
// not for longer when the system clock is set back after it was recorded.
import { describe, expect, it } from 'vitest';
import { LlmState } from '../../src/state/llm.js';
import { makeWorkspace } from '../helpers/workspace.js';

const URL = 'http://127.0.0.1:9/v1';
const FAILED_AT = Date.parse('2026-06-02T12:00:00Z');
const MIN = 60_000;

describe('the endpoint backoff', () => {
  it('holds for its wait after the failure, read back from disk', () => {
    const ws = makeWorkspace();
    LlmState.load(ws).recordEndpointFailure(URL, 'HTTP 500', FAILED_AT, 5, null);
    const state = LlmState.load(ws);
    expect(state.backoffAt(URL, FAILED_AT + 4 * MIN)?.reason).toBe('HTTP 500');
    expect(state.backoffAt(URL, FAILED_AT + 5 * MIN)).toBeNull();
  });

  it('does not hold when the clock went back past the failure', () => {
    const ws = makeWorkspace();
    LlmState.load(ws).recordEndpointFailure(URL, 'HTTP 500', FAILED_AT, 5, null);
    // A day back (a restored VM, a clock corrected), and a minute back: the wait is not stretched.
    expect(LlmState.load(ws).backoffAt(URL, FAILED_AT - 24 * 60 * MIN)).toBeNull();
    expect(LlmState.load(ws).backoffAt(URL, FAILED_AT - MIN)).toBeNull();
  });
});
