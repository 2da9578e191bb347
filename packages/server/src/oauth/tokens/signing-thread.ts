import { hash, sign, type KeyObject } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** How many private keys the thread keeps: the active one and those of a rotation or two. */
const KEYS_KEPT = 8;

/** RS256 with `node:crypto`'s OpenSSL, on whichever thread calls it. */
interface Rs256 {
  /** The RS256 signature (base64url) of a JWS signing input. */
  readonly signed: (input: string, key: KeyObject) => string;
  /** The compact ID token bound by `at_hash` to the (compact) access token it is signed after. */
  readonly withIdToken: (accessToken: string, idToken: BoundIdToken, key: KeyObject) => string;
}

/**
 * The signing functions. They run on the calling thread and, as this function's source text, in the
 * signing thread, which is why they take `node:crypto` as an argument and use only globals besides.
 * `at_hash` (OpenID Connect Core §3.1.3.6) is the left half of the SHA-256 of the ASCII access token,
 * base64url; it goes last into the ID token's payload, which needs the access token's signature first.
 */
function rs256(crypto: { readonly hash: typeof hash; readonly sign: typeof sign }): Rs256 {
  const signed = (input: string, key: KeyObject): string =>
    crypto.sign('sha256', Buffer.from(input), key).toString('base64url');
  const withIdToken = (accessToken: string, idToken: BoundIdToken, key: KeyObject): string => {
    // A compact JWS is ASCII, which `hash` reads as UTF-8 alike.
    const atHash = crypto.hash('sha256', accessToken, 'buffer').subarray(0, 16).toString('base64url');
    const payload = `${idToken.payload.slice(0, -1)},"at_hash":${JSON.stringify(atHash)}}`;
    const input = `${idToken.header}.${Buffer.from(payload).toString('base64url')}`;
    return `${input}.${signed(input, key)}`;
  };
  return { signed, withIdToken };
}

const onThisThread = rs256({ hash, sign });

/**
 * The signing thread's whole program (CommonJS, run with `eval` so that it ships inside this module).
 * It keeps the last few private keys it was sent, by the number the main thread gave them, and answers
 * each input with its RS256 signature (base64url), `missing` when it no longer has the key, or an error.
 * An input may come with an ID token to sign right after it, and the answer then carries the whole ID
 * token. After each message it counts one more in the shared `progress` counter, which tells the main
 * thread how far behind the thread is.
 */
const SIGNING_THREAD_PROGRAM = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { signed, withIdToken } = (${rs256.toString()})(require('node:crypto'));
const progress = new Int32Array(workerData);
const keys = new Map();
const answer = ({ id, keyId, key, input, idToken }) => {
  if (key !== undefined) {
    keys.set(keyId, key);
    if (keys.size > ${String(KEYS_KEPT)}) keys.delete(keys.keys().next().value);
  }
  const privateKey = keys.get(keyId);
  if (privateKey === undefined) return { id, missing: true };
  try {
    const signature = signed(input, privateKey);
    return idToken === undefined
      ? { id, signature }
      : { id, signature, idToken: withIdToken(input + '.' + signature, idToken, privateKey) };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
};
parentPort.on('message', (job) => {
  parentPort.postMessage(answer(job));
  Atomics.add(progress, 0, 1);
});
`;

/**
 * An ID token to sign right after an access token, bound to it by `at_hash`, which the signing thread
 * adds: the header as it goes into the JWS (base64url), the payload as JSON without `at_hash`.
 */
export interface BoundIdToken {
  readonly header: string;
  /** The JSON of a non-empty object: `at_hash` is inserted before its closing brace. */
  readonly payload: string;
}

/** An access token's signature and the compact ID token signed after it. */
export interface SignedWithIdToken {
  readonly signature: string;
  readonly idToken: string;
}

/** A signature, and the ID token signed after it when one was asked for. */
interface Signed {
  readonly signature: string;
  readonly idToken?: string;
}

interface Reply {
  readonly id: number;
  readonly signature?: string;
  readonly idToken?: string;
  readonly missing?: true;
  readonly error?: string;
}

interface Job {
  readonly id: number;
  readonly key: KeyObject;
  readonly input: string;
  readonly idToken: BoundIdToken | undefined;
  readonly resolve: (signed: Signed) => void;
  readonly reject: (error: Error) => void;
}

/**
 * How far behind the thread may fall (jobs posted that it has not finished) before the caller signs on
 * its own thread instead: at four, the thread has three jobs waiting (0.6-1.3 ms of work) while the
 * caller signs one, so it does not run dry while the caller works through a burst.
 */
const BEHIND = 4;

/**
 * RS256 signatures on one dedicated thread, and on the calling thread while that one is behind.
 * OpenSSL signs there synchronously, so a busy thread takes job after job without sleeping, and an
 * event loop with work to do never waits for a signature. WebCrypto, which jose signs with, instead
 * sends every signature to libuv's shared pool (four threads by default, also running argon2id, file
 * system and DNS work), where each job wakes a sleeping thread: on the bench machine that made a
 * refresh cost 4-12 % more CPU (docs/decisions/signing-keys-signing-thread.md).
 *
 * When the thread already has {@link BEHIND} jobs it has not finished (it counts them in shared
 * memory, so the caller sees its progress even while the caller's own replies wait), the caller signs
 * at once itself. Under load both threads then sign and neither waits for the other, and a signature on
 * the calling thread costs no round trip (docs/reference/tokens-and-sessions.md "Signing keys").
 *
 * The thread starts on the first signature and is restarted after a crash; it never keeps the process
 * alive while idle. A process that may run on one core only (its CPU affinity, as `taskset` or a cpuset
 * sets it, read at the first signature) signs every token on the calling thread: a second thread would
 * only take turns with it on that core, and each round trip costs CPU of its own
 * (docs/reference/tokens-and-sessions.md "Signing keys").
 */
export class SigningThread {
  readonly #cores: () => number;
  /** Whether every signature is made on the calling thread; decided at the first signature. */
  #inThread: boolean | undefined;
  #worker: Worker | undefined;
  #nextJob = 0;
  /**
   * Jobs in flight, in the order they were posted, which is the order the thread answers them in (a
   * job posted again after `missing` moves back). Not a Map: V8 gives a Map that keeps gaining and
   * losing a few entries a new table again and again, each pointing to the next, and garbage that
   * survives one scavenge then holds every later table, job and reply alive into the old generation.
   */
  readonly #jobs: Job[] = [];
  #nextKeyId = 0;
  readonly #keyIds = new WeakMap<KeyObject, number>();
  /** Keys the current thread has been sent (it may have dropped old ones since: it then answers `missing`). */
  #sent = new WeakSet<KeyObject>();
  #closed = false;
  /**
   * Messages posted to the current thread, and (shared with it) messages it has finished, both as
   * 32-bit integers that wrap alike, so that their difference stays right after 2^31 messages.
   */
  #posted = 0;
  #progress = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  readonly #counts = { thread: 0, caller: 0 };

  /** `cores`: how many cores this process may run on (default: `os.availableParallelism()`). */
  constructor(options: { readonly cores?: () => number } = {}) {
    this.#cores = options.cores ?? availableParallelism;
  }

  /** The RS256 signature (base64url) of `input` (a JWS signing input) under `key`. */
  async signRs256(key: KeyObject, input: string): Promise<string> {
    return (await this.#submit(key, input, undefined)).signature;
  }

  /**
   * The RS256 signature of an access token's signing `input` and, signed after it in the same job, the
   * ID token bound to that access token (one round trip to the thread for both).
   */
  async signWithIdToken(key: KeyObject, input: string, idToken: BoundIdToken): Promise<SignedWithIdToken> {
    const reply = await this.#submit(key, input, idToken);
    if (reply.idToken === undefined) throw signingFailed('no ID token');
    return { signature: reply.signature, idToken: reply.idToken };
  }

  #submit(key: KeyObject, input: string, idToken: BoundIdToken | undefined): Promise<Signed> {
    if (this.#closed) return Promise.reject(new Error('the signing thread is closed'));
    this.#inThread ??= this.#cores() <= 1;
    if (this.#inThread) return this.#signHere(key, input, idToken);
    if (this.#worker !== undefined && ((this.#posted - Atomics.load(this.#progress, 0)) | 0) >= BEHIND) {
      return this.#signHere(key, input, idToken);
    }
    this.#counts.thread++;
    return new Promise((resolve, reject) => {
      const id = this.#nextJob++;
      const job: Job = { id, key, input, idToken, resolve, reject };
      this.#jobs.push(job);
      try {
        if (this.#jobs.length === 1) this.#thread().ref();
        this.#post(job);
      } catch (error) {
        this.#settle({ id, error: messageOf(error) });
      }
    });
  }

  /** How many jobs the thread took and how many the callers signed themselves, since this started. */
  get counts(): { readonly thread: number; readonly caller: number } {
    return { ...this.#counts };
  }

  #signHere(key: KeyObject, input: string, idToken: BoundIdToken | undefined): Promise<Signed> {
    this.#counts.caller++;
    try {
      const signature = onThisThread.signed(input, key);
      return Promise.resolve(
        idToken === undefined
          ? { signature }
          : { signature, idToken: onThisThread.withIdToken(`${input}.${signature}`, idToken, key) },
      );
    } catch (error) {
      return Promise.reject(signingFailed(messageOf(error)));
    }
  }

  /** Stops the thread; signatures still in flight fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failAll(new Error('the signing thread is closed'));
    await worker?.terminate();
  }

  #post({ id, key, input, idToken }: Job): void {
    let keyId = this.#keyIds.get(key);
    if (keyId === undefined) {
      keyId = this.#nextKeyId++;
      this.#keyIds.set(key, keyId);
    }
    const worker = this.#thread();
    if (this.#sent.has(key)) {
      worker.postMessage({ id, keyId, input, idToken });
    } else {
      this.#sent.add(key);
      worker.postMessage({ id, keyId, key, input, idToken });
    }
    this.#posted = (this.#posted + 1) | 0;
  }

  #thread(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const progress = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const worker = new Worker(SIGNING_THREAD_PROGRAM, {
      eval: true,
      name: 'svc-signing',
      workerData: progress,
    });
    this.#progress = new Int32Array(progress);
    this.#posted = 0;
    worker.unref();
    worker.on('message', (reply: Reply) => {
      this.#settle(reply);
    });
    const lost = (error: Error): void => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#sent = new WeakSet();
      this.#failAll(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => {
      lost(new Error(`the signing thread exited with code ${String(code)}`));
    });
    this.#worker = worker;
    return worker;
  }

  #settle(reply: Reply): void {
    // Usually the first job: the thread answers in order.
    let index = 0;
    while (index < this.#jobs.length && this.#jobs[index]?.id !== reply.id) index++;
    const job = this.#jobs[index];
    if (job === undefined) return;
    if (index === 0) this.#jobs.shift();
    else this.#jobs.splice(index, 1);
    if (reply.missing === true) {
      this.#sent.delete(job.key);
      this.#jobs.push(job);
      try {
        this.#post(job);
      } catch (error) {
        this.#settle({ id: job.id, error: messageOf(error) });
      }
      return;
    }
    if (this.#jobs.length === 0) this.#worker?.unref();
    if (reply.signature !== undefined) {
      job.resolve(
        reply.idToken === undefined
          ? { signature: reply.signature }
          : { signature: reply.signature, idToken: reply.idToken },
      );
    } else job.reject(signingFailed(reply.error ?? 'no signature'));
  }

  #failAll(error: Error): void {
    const jobs = this.#jobs.splice(0);
    for (const job of jobs) job.reject(error);
  }
}

function signingFailed(reason: string): Error {
  return new Error(`RS256 signing failed: ${reason}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
