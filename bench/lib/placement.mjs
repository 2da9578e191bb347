// Where `npm run bench` runs what, as an operator runs a server: the servers on one core and the load
// generator (this process: autocannon and the unit costs) on another, so that neither takes the other's
// CPU. Pinned with taskset (util-linux) where the machine lets this process use two cores or more;
// otherwise nothing is pinned and the report says why.
import { execFileSync } from 'node:child_process';

/** The CPUs this process may run on (`taskset -c -p`), or null when taskset cannot say. */
function allowedCpus() {
  try {
    const out = execFileSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' });
    return expandCpuList(out.slice(out.lastIndexOf(':') + 1).trim());
  } catch {
    return null;
  }
}

/** "0-2,5" → [0, 1, 2, 5]. */
export function expandCpuList(list) {
  return list.split(',').flatMap((part) => {
    const [from, to = from] = part.split('-').map(Number);
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

function pin(pid, cpus) {
  execFileSync('taskset', ['-a', '-c', '-p', cpus.join(','), String(pid)], { stdio: 'ignore' });
}

/**
 * The placement of this run: `{ note, pinned, server(pid), everywhere(pid) }`. Unless `enabled` is
 * false, this process moves to its second allowed CPU at once; `server(pid)` moves a server child (every
 * thread it has, and so every thread it starts later) to the first, and `everywhere(pid)` gives a child
 * back every allowed CPU (seeding a large database). Without pinning both are no-ops.
 */
export function placeProcesses({ enabled }) {
  const none = (note) => ({ note, pinned: false, server: () => {}, everywhere: () => {} });
  if (!enabled) return none('not pinned (--no-pin): servers and load generator share every core');
  const cpus = allowedCpus();
  if (cpus === null)
    return none(
      'not pinned: taskset (util-linux) is not installed; servers and load generator share every core',
    );
  if (cpus.length < 2)
    return none(`not pinned: one core (CPU ${cpus.join(',')}) for servers and load generator`);
  const [serverCpu, loadCpu] = cpus;
  pin(process.pid, [loadCpu]);
  return {
    note: `servers pinned to CPU ${serverCpu}, load generator to CPU ${loadCpu} (taskset)`,
    pinned: true,
    server: (pid) => pin(pid, [serverCpu]),
    everywhere: (pid) => pin(pid, cpus),
  };
}
