// `--cpu-prof`: the hottest functions (self time) of the .cpuprofile files the Svc child wrote.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The `top` functions by self time over every profile in `dir` (percent of busy time): [{ fn, where, selfMs, percent }]. */
export function hottestFunctions(dir, top = 15) {
  const totals = new Map();
  let allMs = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    const interval = (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length) / 1000;
    for (const node of profile.nodes) {
      const { functionName, url, lineNumber } = node.callFrame;
      const fn = functionName || '(anonymous)';
      // Idle time is the server waiting for requests: the shares are of the time it was busy.
      if (fn === '(idle)') continue;
      const where =
        url === ''
          ? ''
          : `${url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '')}:${lineNumber + 1}`;
      const key = `${fn} ${where}`;
      const ms = (node.hitCount ?? 0) * interval;
      allMs += ms;
      const entry = totals.get(key) ?? { fn, where, selfMs: 0 };
      entry.selfMs += ms;
      totals.set(key, entry);
    }
  }
  return [...totals.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, top)
    .map((entry) => ({ ...entry, percent: (100 * entry.selfMs) / allMs }));
}
