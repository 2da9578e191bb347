// One timed autocannon run against one server, with that server's CPU time read over IPC before and
// after: CPU µs per request is the server's whole-process CPU (all threads) divided by the requests.
import autocannon from 'autocannon';

/**
 * Runs `load` (autocannon options without connections/duration) at `connections` for `durationS`
 * seconds (or until `load.amount` requests) against `server`; resolves to the run's figures. Any
 * non-2xx answer or socket error fails the run: a benchmark of errors measures nothing.
 */
export async function timedRun(server, load, { connections, durationS }) {
  const before = await server.call('cpu');
  // autocannon reports whole milliseconds and no p95: the run keeps every response time and takes its own.
  const latencies = [];
  const startedAt = performance.now();
  let lastResponseAt = startedAt;
  const instance = autocannon({ connections, duration: durationS, ...load });
  instance.on('response', (_client, _status, _bytes, ms) => {
    latencies.push(ms);
    lastResponseAt = performance.now();
  });
  const result = await instance;
  // A run of `amount` requests ends when the last one is answered, but autocannon reports it at its
  // next one-second sample, so its duration is rounded up to whole seconds (up to a second too long):
  // such a run is timed to its last response instead.
  const seconds = load.amount === undefined ? result.duration : (lastResponseAt - startedAt) / 1000;
  const after = await server.call('cpu');
  const requests = result.requests.total;
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || requests === 0)
    throw new Error(
      `${server.name}: ${requests} requests, ${result.non2xx} non-2xx, ${result.errors} errors, ` +
        `${result.timeouts} timeouts`,
    );
  const cpuMicros = after.user - before.user + (after.system - before.system);
  return {
    requestsPerSecond: requests / seconds,
    requests,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    p99Ms: percentile(latencies, 99),
    cpuMicrosPerRequest: cpuMicros / requests,
  };
}

/** The `p`th percentile (nearest rank) of `values`, in their unit. */
export function percentile(values, p) {
  const sorted = Float64Array.from(values).sort();
  return sorted.length === 0 ? NaN : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of each figure over several runs of one server. */
export function summarize(runs) {
  const of = (key) => median(runs.map((run) => run[key]));
  return {
    requestsPerSecond: of('requestsPerSecond'),
    p50Ms: of('p50Ms'),
    p95Ms: of('p95Ms'),
    p99Ms: of('p99Ms'),
    cpuMicrosPerRequest: of('cpuMicrosPerRequest'),
    runs,
  };
}
