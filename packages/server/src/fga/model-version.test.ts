import { describe, expect, it } from 'vitest';
import { ModelVersion } from './model-version.js';

/** A read whose answers the test gives by hand, in order. */
function manualReads() {
  const pending: ((version: number) => void)[] = [];
  let started = 0;
  const read = () =>
    new Promise<number>((resolve) => {
      started += 1;
      pending.push(resolve);
    });
  return {
    read,
    get started() {
      return started;
    },
    answer(version: number) {
      const resolve = pending.shift();
      if (resolve === undefined) throw new Error('no read is under way');
      resolve(version);
    },
  };
}

describe('ModelVersion', () => {
  it('never hands a check a read that started before it, and shares the next read', async () => {
    const reads = manualReads();
    const versions = new ModelVersion(reads.read);
    const first = versions.current();
    // Both arrive while the first read is under way: they wait for a read of their own, one for both.
    const second = versions.current();
    const third = versions.current();
    expect(reads.started).toBe(1);
    reads.answer(1);
    expect(await first).toBe(1);
    await Promise.resolve();
    expect(reads.started).toBe(2);
    reads.answer(2);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    // Nothing under way: a check starts its own read at once.
    const fourth = versions.current();
    expect(reads.started).toBe(3);
    reads.answer(3);
    expect(await fourth).toBe(3);
  });

  it('starts the next read after a failed one, and hands the failure only to its own callers', async () => {
    let calls = 0;
    const versions = new ModelVersion(async () => {
      calls += 1;
      if (calls === 1) throw new Error('database unavailable');
      return 7;
    });
    const failing = versions.current();
    const next = versions.current();
    await expect(failing).rejects.toThrow('database unavailable');
    expect(await next).toBe(7);
  });
});
