// The ceilings and the table of `npm run bench`.
import { WORKERS_TARGET } from './workers.mjs';

/**
 * What a request of a scenario costs at best, in CPU µs: the HTTP floor (Fastify's at the same
 * connections, or bare node:http's for what Svc answers before Fastify, `cost.floor: 'node'`; none in
 * process) plus its RS256 signs and verifies, store transactions and argon2id verifies at the unit costs
 * measured in this run.
 */
export function ceilingMicros(cost, units, floorMicros) {
  return (
    (cost.inProcess ? 0 : floorMicros) +
    (cost.signs ?? 0) * units.sign.cpuMicrosPerOp +
    (cost.verifies ?? 0) * units.verify.cpuMicrosPerOp +
    (cost.transactions ?? 0) * units.rotation.cpuMicrosPerOp +
    (cost.argon2 ?? 0) * units.argon2.cpuMicrosPerOp
  );
}

/**
 * A matrix row with its ceiling: the least CPU its scenario's recipe can take at the unit costs of this
 * run (those measured beside the row's own runs, `row.besideUnits`, where it has them) and the HTTP
 * floor of its server at its connection count (`floorMicros(server, connections)`), and that as requests per CPU-second and
 * as a share of Svc's measured CPU per request.
 */
export function withCeiling(row, units, floorMicros) {
  if (row.error !== undefined) return row;
  const micros = ceilingMicros(
    row.cost,
    { ...units, ...row.besideUnits },
    floorMicros(row.cost.floor ?? 'fastify', row.connections),
  );
  // Nothing measured bounds the row (an in-process check): no ceiling.
  if (micros === 0) return row;
  return {
    ...row,
    ceiling: {
      recipe: describeCost(row.cost),
      cpuMicrosPerRequest: micros,
      requestsPerCpuSecond: 1e6 / micros,
      percent: (100 * micros) / row.svc.cpuMicrosPerRequest,
    },
  };
}

/** Describes the cost recipe, e.g. "floor + 2 sign + 1 tx". */
export function describeCost(cost) {
  const parts = cost.inProcess ? [] : [cost.floor === 'node' ? 'node floor' : 'floor'];
  if (cost.argon2) parts.push(`${cost.argon2} argon2id`);
  if (cost.signs) parts.push(`${cost.signs} sign`);
  if (cost.verifies) parts.push(`${cost.verifies} verify`);
  if (cost.transactions) parts.push(`${cost.transactions} tx`);
  return parts.join(' + ');
}

const fixed = (value, digits = 0) => (value === undefined || value === null ? '—' : value.toFixed(digits));
/** Milliseconds to the nearest one; below 10 ms to the hundredth (an in-process call takes µs). */
const ms = (value) => fixed(value, value !== undefined && value < 10 ? 2 : 0);
const latency = (s) => (s === undefined ? '—' : `${ms(s.p50Ms)}/${ms(s.p99Ms)}`);

/**
 * Aligned columns: the first two and `textColumn` left-aligned, numbers right-aligned; a line with fewer
 * cells than the header (a note under a row) is printed as it is.
 */
function renderTable(header, lines, textColumn) {
  const widths = header.map((title, i) =>
    Math.max(
      title.length,
      ...lines.filter((line) => line.length === header.length).map((line) => line[i].length),
    ),
  );
  const render = (cells) =>
    cells.length === header.length
      ? cells
          .map((cell, i) => (i < 2 || i === textColumn ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
          .join('  ')
      : cells.join('  ');
  return [render(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(render)].join('\n');
}

/** `rows` as a table: the scenario, the connections and `cells(row)`, or the row's error after the first two. */
function renderRows(header, rows, cells, textColumn) {
  const lines = rows.map((row) =>
    row.error !== undefined
      ? [row.scenario, String(row.connections), `failed: ${row.error.split('\n')[0].slice(0, 120)}`]
      : [row.scenario, String(row.connections), ...cells(row)],
  );
  return renderTable(header, lines, textColumn);
}

/** Plain-text table of the rows (one per scenario and connection count). */
export function formatTable(rows) {
  const header = [
    'scenario',
    'conn',
    'svc req/s',
    'svc p50/p99 ms',
    'svc CPU µs/req',
    'peer req/s',
    'peer p50/p99 ms',
    'peer CPU µs/req',
    'req/s ×peer',
    'CPU ×peer',
    'ceiling',
    'ceiling req/CPU-s',
    '% of ceiling',
  ];
  return renderRows(
    header,
    rows,
    (row) => [
      fixed(row.svc?.requestsPerSecond),
      latency(row.svc),
      fixed(row.svc?.cpuMicrosPerRequest),
      fixed(row.peer?.requestsPerSecond),
      latency(row.peer),
      fixed(row.peer?.cpuMicrosPerRequest),
      row.ratio === null ? '—' : `${fixed(row.ratio, 2)}×`,
      row.cpuRatio === null ? '—' : `${fixed(row.cpuRatio, 2)}×`,
      row.ceiling?.recipe ?? '—',
      fixed(row.ceiling?.requestsPerCpuSecond),
      row.ceiling === undefined ? '—' : `${fixed(row.ceiling.percent)} %`,
    ],
    10,
  );
}

/**
 * The unit costs and floors as lines of text: each unit cost is the cheaper of its two measurements
 * (start and end of the run), which are shown beside it; then the units that rows measured beside their
 * own runs (`rows[].besideUnits`), each the median of those measurements.
 */
export function formatUnits(units, floors, rows = []) {
  const unit = (name, u, measured = `start ${fixed(u.measured.start, 1)}, end ${fixed(u.measured.end, 1)}`) =>
    `${name.padEnd(35)} ${fixed(u.cpuMicrosPerOp, 1).padStart(8)} CPU µs/op  ${fixed(u.opsPerSecond).padStart(7)} ops/s` +
    `  (${measured})`;
  return [
    unit('RS256 sign (jose, 1 core)', units.sign),
    unit('RS256 sign (OpenSSL, in-thread)', units.inThreadSign),
    unit('RS256 sign (Svc signing thread)', units.svcSign),
    unit('RS256 verify (jose)', units.verify),
    unit(`argon2id verify (${units.argon2.concurrency} in flight)`, units.argon2),
    unit(`rotation tx (${units.rotation.db})`, units.rotation),
    ...floors.map(
      (f) =>
        `${`HTTP floor ${f.server} c=${f.connections}`.padEnd(35)} ${fixed(f.cpuMicrosPerRequest, 1).padStart(8)} CPU µs/req ${fixed(f.requestsPerSecond).padStart(7)} req/s  p50/p99 ${latency(f)} ms`,
    ),
    ...rows.flatMap((row) =>
      Object.entries(row.besideUnits ?? {}).map(([name, u]) =>
        unit(
          `${name} beside ${row.scenario} c=${row.connections}`,
          u,
          `median of ${u.measured.beside.map((m) => fixed(m, 1)).join(', ')}`,
        ),
      ),
    ),
  ].join('\n');
}

const latencies = (s) => `${fixed(s.p50Ms, 1)}/${fixed(s.p95Ms, 1)}/${fixed(s.p99Ms, 1)}`;

/** Plain-text table of the `--seed-large` rows: the large database beside the empty one. */
export function formatGrowth(rows) {
  const header = [
    'scenario',
    'conn',
    'empty req/s',
    'large req/s',
    'large/empty',
    'empty CPU µs/req',
    'large CPU µs/req',
    'empty p50/p95/p99 ms',
    'large p50/p95/p99 ms',
    'target',
  ];
  return renderRows(
    header,
    rows,
    (row) => [
      fixed(row.empty.requestsPerSecond),
      fixed(row.large.requestsPerSecond),
      `${fixed(row.ratio, 2)}×`,
      fixed(row.empty.cpuMicrosPerRequest),
      fixed(row.large.cpuMicrosPerRequest),
      latencies(row.empty),
      latencies(row.large),
      row.kind === 'throughput'
        ? `within 10 %: req/s ${row.met.requestsPerSecond ? 'yes' : 'NO'}, CPU ${row.met.cpu ? 'yes' : 'NO'}`
        : `p95 < 50 ms: ${row.met ? 'yes' : 'NO'}`,
    ],
    9,
  );
}

/** Plain-text table of the workers rows: 1 and 2 workers, and requests per CPU-second of each. */
export function formatWorkers(rows) {
  const header = [
    'scenario',
    'conn',
    '1 worker req/s',
    '2 workers req/s',
    '1 worker CPU µs/req',
    '2 workers CPU µs/req',
    '1 worker req/CPU-s',
    '2 workers req/CPU-s',
    '2 ÷ 1 req/CPU-s',
    'target',
  ];
  return renderRows(
    header,
    rows,
    (row) => [
      fixed(row.one.requestsPerSecond),
      fixed(row.two.requestsPerSecond),
      fixed(row.one.cpuMicrosPerRequest),
      fixed(row.two.cpuMicrosPerRequest),
      fixed(row.one.requestsPerCpuSecond),
      fixed(row.two.requestsPerCpuSecond),
      `${fixed(row.ratio, 2)}×`,
      `≥ ${fixed(WORKERS_TARGET, 2)}×: ${row.met ? 'yes' : 'NO'}`,
    ],
    9,
  );
}
