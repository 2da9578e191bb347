import type { Reply } from './timed-calls.js';

/** The named stretches of a fault run, in the order a run goes through them. */
export type Phase = 'baseline' | 'restart' | 'stop' | 'freeze' | 'rotation' | 'recovery';

/** A database fault: from its start until `graceMs` after the database is back. */
export interface FaultWindow {
  readonly fault: Phase;
  readonly start: number;
  /** When the database was back (the control returned), or undefined while it is not. */
  back?: number;
  /** `back + graceMs`: from here on every answer must be a success again. */
  end?: number;
}

/** What a load recorded: a reply, who sent it where, and the phase current when it left. */
export interface Answer extends Reply {
  readonly client: string;
  readonly node: number;
  readonly kind: 'login' | 'refresh' | 'userinfo' | 'idle-refresh';
  readonly phase: Phase;
  /** The `kid` of the access token a userinfo call presented. */
  readonly kid?: string;
  /** Set on a retry's "already used": the refresh that was answered 503 had committed (see token-load.ts). */
  readonly ambiguousCommit?: { readonly confirmed: boolean; readonly evidence: string };
}

/**
 * The clock of a fault run: the current phase (a label for reports) and the fault windows. An answer
 * belongs to a fault when its request overlaps the window, so that a request sent just before a fault
 * and answered during it counts as the fault's.
 */
export class FaultTimeline {
  readonly origin = performance.now();
  readonly windows: FaultWindow[] = [];
  phase: Phase = 'baseline';
  readonly #graceMs: number;

  constructor(graceMs: number) {
    this.#graceMs = graceMs;
  }

  begin(fault: Phase): FaultWindow {
    this.phase = fault;
    const window: FaultWindow = { fault, start: performance.now() };
    this.windows.push(window);
    return window;
  }

  databaseBack(window: FaultWindow): void {
    window.back = performance.now();
    window.end = window.back + this.#graceMs;
  }

  /** The fault window `answer` overlaps, if any. */
  faultOf(answer: Reply): FaultWindow | undefined {
    const sent = answer.startedAt;
    const answered = sent + answer.durationMs;
    return this.windows.find((w) => answered >= w.start && sent <= (w.end ?? Infinity));
  }

  /** Seconds since the run began, for reports. */
  at(time: number): string {
    return `+${((time - this.origin) / 1000).toFixed(1)}s`;
  }
}

const EXAMPLES_PER_PHASE = 4;

/** One answer as a line of a failure message. */
export function describeAnswer(answer: Answer, timeline: FaultTimeline): string {
  const body = answer.body === null ? '' : ` ${JSON.stringify(answer.body).slice(0, 140)}`;
  const detail = answer.detail === undefined ? '' : ` (${answer.detail})`;
  const retryAfter = answer.retryAfter === null ? '' : ` Retry-After: ${answer.retryAfter}`;
  const kid = answer.kid === undefined ? '' : ` (kid ${answer.kid.slice(0, 8)}…)`;
  return (
    `${timeline.at(answer.startedAt)} [${answer.phase}] ${answer.client} → node ${answer.node} ` +
    `${answer.kind}${kid}: ${answer.status}${detail}${body}${retryAfter} in ${Math.round(answer.durationMs)} ms`
  );
}

/**
 * Offending answers grouped by the fault they overlap (else by the phase they started in), in time
 * order: per group how many and of which outcome, then a few examples, different outcomes first.
 * Readable even when thousands failed.
 */
export function listOffenders(answers: readonly Answer[], timeline: FaultTimeline): string[] {
  const byPhase = new Map<Phase, Answer[]>();
  for (const answer of [...answers].sort((a, b) => a.startedAt - b.startedAt)) {
    const group = timeline.faultOf(answer)?.fault ?? answer.phase;
    byPhase.set(group, [...(byPhase.get(group) ?? []), answer]);
  }
  return [...byPhase].flatMap(([phase, list]) => {
    const seen = new Set<string>();
    const distinct = list.filter((a) => {
      const key = outcomeOf(a);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const examples = [...distinct, ...list.filter((a) => !distinct.includes(a))].slice(0, EXAMPLES_PER_PHASE);
    return [
      `${phase}: ${list.length} answer(s): ${countOutcomes(list)}`,
      ...examples.map((a) => `  ${describeAnswer(a, timeline)}`),
    ];
  });
}

/** `refresh 500 server_error`, `userinfo timeout`…: what kind of failure an answer is. */
function outcomeOf(answer: Answer): string {
  const error = typeof answer.body?.error === 'string' ? ` ${answer.body.error}` : '';
  return `${answer.kind} ${answer.status}${error}`;
}

function countOutcomes(answers: readonly Answer[]): string {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(outcomeOf(answer), (counts.get(outcomeOf(answer)) ?? 0) + 1);
  return [...counts].map(([outcome, n]) => `${outcome} ×${n}`).join(', ');
}
/** Answers per phase and outcome, e.g. `stop: 200×41 503×12 network-error×3`. */
export function summarize(answers: readonly Answer[]): string[] {
  const phases = new Map<Phase, Map<string, number>>();
  for (const answer of answers) {
    const counts = phases.get(answer.phase) ?? new Map<string, number>();
    const key = answer.ambiguousCommit === undefined ? String(answer.status) : 'ambiguous-commit';
    counts.set(key, (counts.get(key) ?? 0) + 1);
    phases.set(answer.phase, counts);
  }
  return [...phases].map(
    ([phase, counts]) => `${phase}: ${[...counts].map(([outcome, n]) => `${outcome}×${n}`).join(' ')}`,
  );
}
