// The timed part of `npm run bench`: every scenario at every connection count, `runs` runs per server,
// alternating Svc and the peer, each pair in the other order from the one before (svc, peer, peer, svc,
// svc, peer …), so that drift on the machine hits both alike. Before its first timed run at a connection
// count each server serves the same load untimed for WARMUP_S, so that the runs time code the JIT has
// compiled, as in a server that has been up a while, and not the first requests to a route.
// A unit cost that drifts more than a target's margin within one run (argon2id) is measured again
// beside the runs of each scenario that spends it, alternating with them in the same way.
import { median, summarize, timedRun } from './loadgen.mjs';

/** Seconds of untimed load per server before a row's timed runs (at most the runs' own length). */
const WARMUP_S = 3;

/**
 * Runs `scenarios` on `svc` and `peer` (endpoints: Map target → discovered endpoints; a scenario with
 * `on` runs on `others[on]` in place of `svc`) and resolves to the table rows, each with its scenario's cost recipe (the ceilings are added at the end of the run,
 * report.mjs `withCeiling`); a scenario that fails becomes a row with its error and the others go on.
 * `onStep` gets a progress text before every run. `beside` maps a unit of the cost recipes to a
 * function that measures it: a scenario whose recipe has that unit measures it before each of Svc's
 * runs and after the last, and its row keeps them (`besideUnits`, report.mjs `withCeiling`).
 */
export async function runMatrix({
  scenarios,
  svc,
  peer,
  others = {},
  endpoints,
  options,
  onStep,
  beside = {},
}) {
  const rows = [];
  for (const scenario of scenarios) {
    const own = scenario.on === undefined ? svc : others[scenario.on];
    if (own === undefined) throw new Error(`${scenario.name}: no Svc child "${scenario.on}" was started`);
    const servers = scenario.svcOnly ? [own] : [own, peer];
    const states = new Map();
    try {
      for (const target of servers) {
        onStep(`${scenario.name}: preparing ${target.name}`, 0);
        states.set(target, (await scenario.prepare?.(target, endpoints.get(target))) ?? {});
      }
    } catch (error) {
      for (const connections of options.connections)
        rows.push({ scenario: scenario.name, connections, error: `prepare: ${error.message}` });
      onStep(`${scenario.name}: failed`, servers.length * options.connections.length * options.runs);
      continue;
    }
    const besideNames = Object.keys(beside).filter((name) => scenario.cost[name]);
    const measureBeside = async (measured) => {
      for (const name of besideNames) {
        onStep(`${scenario.name}: ${name} beside Svc's runs`, 0);
        measured[name].push(await beside[name]());
      }
    };
    for (const connections of options.connections) {
      const runs = new Map(servers.map((target) => [target, []]));
      const measured = Object.fromEntries(besideNames.map((name) => [name, []]));
      let failure;
      // One load for this server at these connections: a code exchange run ends when its pre-minted
      // codes are spent, so it mints what this server's refresh rate here would use in `seconds` (the
      // two grants cost about the same).
      const loadFor = (target, seconds) => {
        const refreshRate = rows.find(
          (r) => r.scenario === 'refresh_token' && r.connections === connections,
        )?.[target === own ? 'svc' : 'peer']?.requestsPerSecond;
        return scenario.load({
          target,
          endpoints: endpoints.get(target),
          state: states.get(target),
          expected: Math.max(200, Math.round((refreshRate ?? 500) * seconds * 1.1)),
        });
      };
      const warmupS = Math.min(WARMUP_S, options.durationS);
      for (const target of servers) {
        onStep(`${scenario.name} on ${target.name}, ${connections} connections, warming up`, 0);
        try {
          await timedRun(target, await loadFor(target, warmupS), { connections, durationS: warmupS });
        } catch (error) {
          failure ??= `${target.name}: ${error.message}`;
        }
      }
      for (let i = 0; i < options.runs; i += 1) {
        for (const target of i % 2 === 0 ? servers : [...servers].reverse()) {
          if (target === own && failure === undefined) await measureBeside(measured);
          onStep(
            `${scenario.name} on ${target.name}, ${connections} connections, run ${i + 1}/${options.runs}`,
            1,
          );
          if (failure !== undefined) continue;
          try {
            const load = await loadFor(target, options.durationS);
            runs
              .get(target)
              .push(await timedRun(target, load, { connections, durationS: options.durationS }));
          } catch (error) {
            failure = `${target.name}: ${error.message}`;
          }
        }
      }
      if (failure === undefined) await measureBeside(measured);
      rows.push(
        failure !== undefined
          ? { scenario: scenario.name, connections, error: failure }
          : {
              ...scenarioRow(scenario, connections, runs.get(own), runs.get(peer)),
              ...(besideNames.length === 0 ? {} : { besideUnits: besideUnits(measured) }),
            },
      );
    }
  }
  return rows;
}

/** In-process validateAccessTokenAsync ops/s at each connection count's number of calls in flight. */
export async function runValidation({ svc, options, onStep }) {
  const rows = [];
  for (const concurrency of options.connections) {
    onStep(`validateAccessTokenAsync in process, ${concurrency} in flight`, 1);
    const ops = await svc.call('validateOps', { durationMs: options.durationS * 1000, concurrency });
    const run = { requestsPerSecond: ops.opsPerSecond, cpuMicrosPerRequest: ops.cpuMicrosPerOp };
    const scenario = { name: 'validate_access_token', cost: { verifies: 1, inProcess: true } };
    rows.push(scenarioRow(scenario, concurrency, [run], undefined));
  }
  return rows;
}

/**
 * The fga_check rows: svc.fga.checkAsync in process on a 10,000-resource tree (fga.mjs), at each
 * connection count as the number of checks in flight. No unit cost bounds a check, so the row has no
 * ceiling; the target is 50,000 checks/s with a p99 under 1 ms.
 */
export async function runFgaChecks({ svc, options, onStep }) {
  const rows = [];
  for (const concurrency of options.connections) {
    onStep(`fga.checkAsync in process, ${concurrency} in flight`, 1);
    const ops = await svc.call('fgaCheckOps', { durationMs: options.durationS * 1000, concurrency });
    const run = {
      requestsPerSecond: ops.opsPerSecond,
      cpuMicrosPerRequest: ops.cpuMicrosPerOp,
      p50Ms: ops.p50Ms,
      p95Ms: undefined,
      p99Ms: ops.p99Ms,
    };
    const scenario = { name: 'fga_check', cost: { inProcess: true } };
    rows.push(scenarioRow(scenario, concurrency, [run], undefined));
  }
  return rows;
}

/** Per unit, the median CPU per operation of its measurements beside a row's runs, with each of them. */
function besideUnits(measured) {
  return Object.fromEntries(
    Object.entries(measured).map(([name, list]) => [
      name,
      {
        ...list[0],
        ops: list.reduce((sum, m) => sum + m.ops, 0),
        cpuMicrosPerOp: median(list.map((m) => m.cpuMicrosPerOp)),
        opsPerSecond: median(list.map((m) => m.opsPerSecond)),
        measured: { beside: list.map((m) => m.cpuMicrosPerOp) },
      },
    ]),
  );
}

/** One table row: both servers' medians and the ratios; `cost` makes its ceiling later. */
function scenarioRow(scenario, connections, svcRuns, peerRuns) {
  const svc = summarize(svcRuns);
  const peer = peerRuns === undefined ? undefined : summarize(peerRuns);
  return {
    scenario: scenario.name,
    connections,
    svc,
    peer,
    ratio: peer ? svc.requestsPerSecond / peer.requestsPerSecond : null,
    cpuRatio: peer ? peer.cpuMicrosPerRequest / svc.cpuMicrosPerRequest : null,
    cost: scenario.cost,
  };
}
