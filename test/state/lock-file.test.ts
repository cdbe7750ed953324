import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireFileLock, judgeLock, LockTimeout, mutexOf, readLockFile, takeOver, tryLock } from '../../src/state/lock-file.js';
import { selfIdentity } from '../../src/fs/process-identity.js';

const dir = () => mkdtempSync(join(tmpdir(), 'hipo-lockfile-'));
const opts = { command: 'test', waitMs: 200, leaseMs: 60_000, pollMs: () => 20 };
const DEAD = 2 ** 22 + 99;
const elsewhere = { ...selfIdentity(), host: 'some-other-host' };

describe('the lock file', () => {
  it('is created whole with its holder, and a second taker sees the holder', async () => {
    const file = join(dir(), 'lock');
    const lock = await acquireFileLock(file, opts);
    const view = readLockFile(file)!;
    expect(view.record).toMatchObject({ pid: process.pid, host: hostname(), command: 'test', leaseMs: 60_000 });
    expect(view.record!.start).toEqual(process.platform === 'linux' ? expect.stringMatching(/^\d+$/) : null);
    expect(judgeLock(view)).toEqual({ stale: false });
    expect(tryLock(file, 'other', 1000)).toMatchObject({ lock: null, holder: { pid: process.pid }, retry: false });
    await expect(acquireFileLock(file, opts)).rejects.toThrow(LockTimeout);
    lock.release();
    expect(readLockFile(file)).toBeNull();
    expect(readdirSync(join(file, '..'))).toEqual([]);
  });

  it('judges a holder on another host by its lease, which the holder renews', async () => {
    const file = join(dir(), 'lock');
    const lock = await acquireFileLock(file, { ...opts, leaseMs: 200 });
    utimesSync(file, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    expect(judgeLock(readLockFile(file)!, Date.now(), elsewhere).stale).toBe(true);
    await new Promise((r) => setTimeout(r, 150)); // a renewal (every 50 ms) touches the file
    expect(judgeLock(readLockFile(file)!, Date.now(), elsewhere)).toEqual({ stale: false });
    expect(lock.held()).toBe(true);
    lock.release();
  });

  it('judges records: a dead pid, a reused pid, another boot, an empty file', () => {
    const file = join(dir(), 'lock');
    const me = selfIdentity();
    const judge = (record: unknown, mtime = new Date()) => {
      writeFileSync(file, typeof record === 'string' ? record : JSON.stringify(record));
      utimesSync(file, mtime, mtime);
      return judgeLock(readLockFile(file)!);
    };
    expect(judge({ pid: DEAD, host: me.host })).toMatchObject({ stale: true, why: expect.stringContaining('gone') });
    expect(judge({ ...me, start: '1' })).toMatchObject({
      stale: process.platform === 'linux',
      ...(process.platform === 'linux' ? { why: expect.stringContaining('another process') } : {}),
    });
    expect(judge({ ...me, boot: 'another-boot' })).toMatchObject({ stale: true, why: expect.stringContaining('restarted') });
    expect(judge({ ...me })).toEqual({ stale: false });
    expect(judge('', new Date(Date.now() - 5000))).toMatchObject({ stale: true, why: expect.stringContaining('empty') });
    expect(judge('{"pid":', new Date(Date.now() - 5000))).toMatchObject({ stale: true });
    // Just written by an older hipo that opens, then writes: give it a moment.
    expect(judge('')).toEqual({ stale: false });
  });

  it('takes over only the file it judged stale, never one that replaced it', async () => {
    const file = join(dir(), 'lock');
    writeFileSync(file, JSON.stringify({ pid: DEAD, host: hostname() }));
    const staleView = readLockFile(file)!;
    expect(judgeLock(staleView).stale).toBe(true);
    // Another process took it over meanwhile and holds it now.
    expect(takeOver(file, staleView)).toBe(true);
    const live = await acquireFileLock(file, opts);
    expect(takeOver(file, staleView)).toBe(true);
    expect(live.held()).toBe(true);
    live.release();
  });

  it('waits while another takeover of the same record is under way, and breaks a dead one', async () => {
    const file = join(dir(), 'lock');
    writeFileSync(file, JSON.stringify({ pid: DEAD, host: hostname() }));
    const mutex = mutexOf(file, readLockFile(file)!.identity);
    // A live taker holds the mutex: this attempt leaves the lock to it.
    writeFileSync(mutex, JSON.stringify({ ...selfIdentity(), command: 'takeover', nonce: 'n', leaseMs: 10_000 }));
    expect(tryLock(file, 'a', 1000)).toMatchObject({ lock: null, retry: false });
    expect(readLockFile(file)!.record!.pid).toBe(DEAD);
    // The taker died inside its takeover: its mutex is broken and the lock taken.
    writeFileSync(mutex, JSON.stringify({ pid: DEAD, host: hostname(), command: 'takeover' }));
    const lock = await acquireFileLock(file, opts);
    expect(readLockFile(file)!.record!.pid).toBe(process.pid);
    lock.release();
  });

  it('clears what crashed takers left beside the lock', async () => {
    const d = dir();
    const file = join(d, 'lock');
    writeFileSync(join(d, 'lock.break-0123456789abcdef'), JSON.stringify({ pid: DEAD, host: hostname() }));
    writeFileSync(join(d, `.lock.new-${DEAD}-abcd1234`), 'x');
    writeFileSync(join(d, 'unrelated.txt'), 'x');
    const lock = await acquireFileLock(file, opts);
    expect(readdirSync(d).sort()).toEqual(['lock', 'unrelated.txt']);
    lock.release();
  });
});
