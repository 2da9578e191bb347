import { decodeProtectedHeader } from 'jose';
import type { CommitEvidence } from './database-evidence.js';
import type { Answer, FaultTimeline } from './fault-timeline.js';
import { tokensOf, type Reply, type SessionCalls } from './timed-calls.js';

export interface Session {
  readonly accessToken: string;
  readonly refreshToken: string;
}

export interface Credentials {
  readonly email: string;
  readonly password: string;
}

export interface TokenLoadTarget {
  /** The nodes' base addresses, by node index. */
  readonly addresses: readonly string[];
  readonly calls: SessionCalls;
  /**
   * One account per virtual client: the password throttle counts a check as a failure until it
   * succeeds, so concurrent logins of one account from one address would lock it (ratelimit/).
   */
  readonly users: readonly Credentials[];
  readonly timeline: FaultTimeline;
  /** What the database says about a refresh token whose retry was answered "already used". */
  readonly explainAlreadyUsed: (refreshToken: string) => Promise<CommitEvidence>;
  /**
   * How long a client waits after each answered refresh and validation: a steady load with requests
   * always in flight, without the flood that would take the machine from everything else it runs.
   */
  readonly thinkMs: number;
}

/** Longest pause a client takes after a refusal, whatever Retry-After says: the load keeps probing. */
const MAX_PAUSE_MS = 2_000;
const DEFAULT_PAUSE_MS = 250;

/** After a refusal: Retry-After (seconds) when given, within bounds; a short pause otherwise. */
function pause(reply: Reply): Promise<void> {
  const seconds = Number(reply.retryAfter);
  const ms =
    reply.retryAfter !== null && Number.isFinite(seconds)
      ? Math.min(Math.max(seconds * 1000, 100), MAX_PAUSE_MS)
      : DEFAULT_PAUSE_MS;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function isAlreadyUsed(reply: Reply): boolean {
  return (
    reply.status === 400 &&
    reply.body?.error === 'invalid_grant' &&
    reply.body.error_description === 'The refresh token was already used.'
  );
}

function isClientError(reply: Reply): boolean {
  return typeof reply.status === 'number' && reply.status >= 400 && reply.status < 500;
}

/**
 * Virtual clients of one first-party app, each holding one session and looping: refresh on the next
 * node (round-robin), then /userinfo with the new access token on another node, so that every token is
 * validated by a node that did not mint it. Every answer is recorded with the phase it started in.
 *
 * A refresh without a definite answer (5xx, timeout, broken connection) is retried with the same token:
 * its commit may have reached the database before the fault (or a frozen database may apply it on
 * thaw). A retry answered "already used" is that ambiguous commit; it is recorded with the database's
 * evidence and the client signs in again. Any other 4xx also ends the session: a new one keeps the load
 * at full strength.
 */
export class TokenLoad {
  readonly answers: Answer[] = [];
  readonly #target: TokenLoadTarget;
  readonly #clients: Promise<void>[] = [];
  #stopped = false;

  constructor(target: TokenLoadTarget) {
    this.#target = target;
  }

  start(clients: number): void {
    if (clients > this.#target.users.length) throw new Error(`${clients} clients need as many users`);
    for (let i = 0; i < clients; i += 1) this.#clients.push(this.#run(i));
  }

  /** Ends every loop after its current request (at most one request timeout). */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#clients);
  }

  /** A new session through the password login, tried node after node until one succeeds (or the load stops). */
  async signIn(client: string, user: Credentials, step: number): Promise<Session | undefined> {
    const { addresses, calls, timeline } = this.#target;
    for (let attempt = step; !this.#stopped; attempt += 1) {
      const node = attempt % addresses.length;
      const phase = timeline.phase;
      const reply = await calls.login(addresses[node]!, user.email, user.password);
      this.#record({ ...reply, client, node, kind: 'login', phase });
      const tokens = tokensOf(reply);
      if (tokens !== undefined) return tokens;
      await pause(reply);
    }
    return undefined;
  }

  /** One refresh of a session that sat idle, recorded as `idle-refresh`. */
  async refreshIdle(client: string, node: number, session: Session): Promise<Answer> {
    const { addresses, calls, timeline } = this.#target;
    const phase = timeline.phase;
    const reply = await calls.refresh(addresses[node]!, session.refreshToken);
    return this.#record({ ...reply, client, node, kind: 'idle-refresh', phase });
  }

  async #run(index: number): Promise<void> {
    const { addresses, calls, timeline, users } = this.#target;
    const client = `client ${index}`;
    const user = users[index]!;
    const nodes = addresses.length;
    let step = index;
    let session = await this.signIn(client, user, step);
    // The current refresh token was sent and got no definite answer.
    let unanswered = false;
    while (session !== undefined && !this.#stopped) {
      const node = step % nodes;
      step += 1;
      const phase = timeline.phase;
      const reply = await calls.refresh(addresses[node]!, session.refreshToken);
      const tokens = tokensOf(reply);
      if (tokens !== undefined) {
        this.#record({ ...reply, client, node, kind: 'refresh', phase });
        session = tokens;
        unanswered = false;
        await this.#validateElsewhere(client, (node + 1) % nodes, tokens.accessToken);
        await new Promise((resolve) => setTimeout(resolve, this.#target.thinkMs));
        continue;
      }
      if (unanswered && isAlreadyUsed(reply)) {
        const ambiguousCommit = await this.#explain(session.refreshToken);
        this.#record({ ...reply, client, node, kind: 'refresh', phase, ambiguousCommit });
        session = await this.signIn(client, user, step);
        unanswered = false;
        continue;
      }
      this.#record({ ...reply, client, node, kind: 'refresh', phase });
      if (isClientError(reply)) {
        session = await this.signIn(client, user, step);
        unanswered = false;
        continue;
      }
      unanswered = true;
      await pause(reply);
    }
  }

  async #validateElsewhere(client: string, node: number, accessToken: string): Promise<void> {
    const { addresses, calls, timeline } = this.#target;
    const kid = decodeProtectedHeader(accessToken).kid;
    const phase = timeline.phase;
    const reply = await calls.userinfo(addresses[node]!, accessToken);
    this.#record({ ...reply, client, node, kind: 'userinfo', phase, ...(kid === undefined ? {} : { kid }) });
    if (reply.status !== 200) await pause(reply);
  }

  async #explain(refreshToken: string): Promise<CommitEvidence> {
    try {
      return await this.#target.explainAlreadyUsed(refreshToken);
    } catch (error) {
      return { confirmed: false, evidence: `the evidence query failed: ${String(error)}` };
    }
  }

  #record(answer: Answer): Answer {
    this.answers.push(answer);
    return answer;
  }
}
