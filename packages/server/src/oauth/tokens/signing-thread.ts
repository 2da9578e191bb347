import type { KeyObject } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** How many private keys the thread keeps: the active one and those of a rotation or two. */
const KEYS_KEPT = 8;

/**
 * The signing thread's whole program (CommonJS, run with `eval` so that it ships inside this module).
 * It keeps the last few private keys it was sent, by the number the main thread gave them, and answers
 * each input with its RS256 signature (base64url), `missing` when it no longer has the key, or an error.
 * An input may come with an ID token to sign right after it: its `at_hash` (OpenID Connect Core
 * §3.1.3.6: the left half of the SHA-256 of the ASCII access token, base64url) is added to its payload
 * here, since it needs the first signature, and the answer carries the whole ID token.
 */
const SIGNING_THREAD_PROGRAM = `
'use strict';
const { parentPort } = require('node:worker_threads');
const { createHash, sign } = require('node:crypto');
const keys = new Map();
const signed = (input, key) => sign('sha256', Buffer.from(input), key).toString('base64url');
const withIdToken = (accessToken, idToken, key) => {
  const atHash = createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url');
  const payload = idToken.payload.slice(0, -1) + ',"at_hash":' + JSON.stringify(atHash) + '}';
  const input = idToken.header + '.' + Buffer.from(payload).toString('base64url');
  return input + '.' + signed(input, key);
};
parentPort.on('message', ({ id, keyId, key, input, idToken }) => {
  if (key !== undefined) {
    keys.set(keyId, key);
    if (keys.size > ${String(KEYS_KEPT)}) keys.delete(keys.keys().next().value);
  }
  const privateKey = keys.get(keyId);
  if (privateKey === undefined) {
    parentPort.postMessage({ id, missing: true });
    return;
  }
  try {
    const signature = signed(input, privateKey);
    parentPort.postMessage(
      idToken === undefined
        ? { id, signature }
        : { id, signature, idToken: withIdToken(input + '.' + signature, idToken, privateKey) },
    );
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
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

interface Reply {
  readonly id: number;
  readonly signature?: string;
  readonly idToken?: string;
  readonly missing?: true;
  readonly error?: string;
}

interface Job {
  readonly key: KeyObject;
  readonly input: string;
  readonly idToken: BoundIdToken | undefined;
  readonly resolve: (reply: Reply & { readonly signature: string }) => void;
  readonly reject: (error: Error) => void;
}

/**
 * RS256 signatures on one dedicated thread. OpenSSL signs there synchronously, so a busy thread takes
 * job after job without sleeping, and the event loop never waits for a signature. WebCrypto, which
 * jose signs with, instead sends every signature to libuv's shared pool (four threads by default, also
 * running argon2id, file system and DNS work), where each job wakes a sleeping thread: on the bench
 * machine that made a refresh cost 4-12 % more CPU (docs/decisions.md, "Signing keys, tokens and
 * discovery").
 *
 * The thread starts on the first signature and is restarted after a crash; it never keeps the process
 * alive while idle.
 */
export class SigningThread {
  #worker: Worker | undefined;
  #nextJob = 0;
  readonly #jobs = new Map<number, Job>();
  #nextKeyId = 0;
  readonly #keyIds = new WeakMap<KeyObject, number>();
  /** Keys the current thread has been sent (it may have dropped old ones since: it then answers `missing`). */
  #sent = new WeakSet<KeyObject>();
  #closed = false;

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
    if (reply.idToken === undefined) throw new Error('RS256 signing failed: no ID token');
    return { signature: reply.signature, idToken: reply.idToken };
  }

  #submit(
    key: KeyObject,
    input: string,
    idToken: BoundIdToken | undefined,
  ): Promise<Reply & { readonly signature: string }> {
    if (this.#closed) return Promise.reject(new Error('the signing thread is closed'));
    return new Promise((resolve, reject) => {
      const id = this.#nextJob++;
      const job: Job = { key, input, idToken, resolve, reject };
      this.#jobs.set(id, job);
      try {
        if (this.#jobs.size === 1) this.#thread().ref();
        this.#post(id, job);
      } catch (error) {
        this.#settle({ id, error: messageOf(error) });
      }
    });
  }

  /** Stops the thread; signatures still in flight fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = undefined;
    this.#failAll(new Error('the signing thread is closed'));
    await worker?.terminate();
  }

  #post(id: number, { key, input, idToken }: Job): void {
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
  }

  #thread(): Worker {
    if (this.#worker !== undefined) return this.#worker;
    const worker = new Worker(SIGNING_THREAD_PROGRAM, { eval: true, name: 'svc-signing' });
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
    const job = this.#jobs.get(reply.id);
    if (job === undefined) return;
    if (reply.missing === true) {
      this.#sent.delete(job.key);
      try {
        this.#post(reply.id, job);
      } catch (error) {
        this.#finish(reply.id, job, { id: reply.id, error: messageOf(error) });
      }
      return;
    }
    this.#finish(reply.id, job, reply);
  }

  #finish(id: number, job: Job, reply: Reply): void {
    this.#jobs.delete(id);
    if (this.#jobs.size === 0) this.#worker?.unref();
    if (reply.signature !== undefined) job.resolve({ ...reply, signature: reply.signature });
    else job.reject(new Error(`RS256 signing failed: ${reply.error ?? 'no signature'}`));
  }

  #failAll(error: Error): void {
    const jobs = [...this.#jobs.values()];
    this.#jobs.clear();
    for (const job of jobs) job.reject(error);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
