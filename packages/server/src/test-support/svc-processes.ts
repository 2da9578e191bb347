import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built CLI (`npm run build`), as `npm start` and a deployment run it. */
export const SVC_CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

/** What a node must answer 200 to before it counts as started: it serves and reaches its database. */
export const NODE_READY_PATH = '/svc/health/ready';

/** Output kept per process: enough to see why it failed, bounded for a long run. */
const OUTPUT_LIMIT = 256 * 1024;

export interface ProcessExit {
  /** `performance.now()` when it exited. */
  readonly at: number;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** True when the test asked it to stop. */
  readonly expected: boolean;
  /** The last lines it wrote before it exited, without stack frames: usually why it died. */
  readonly lastWords: string;
}

export function assertCliBuilt(): void {
  if (!existsSync(SVC_CLI)) throw new Error(`${SVC_CLI} is missing: run "npm run build" first.`);
}

/**
 * `svc serve` as a separate OS process on a port of its own: its stdout and stderr are kept (the tail),
 * and every exit is recorded, expected or not. `respawn()` starts it again with the same environment.
 * `args` follow `serve` (e.g. `['--workers', '2']`).
 */
export class SvcProcess {
  readonly name: string;
  readonly port: number;
  readonly exits: ProcessExit[] = [];
  readonly #env: NodeJS.ProcessEnv;
  readonly #args: readonly string[];
  #child: ChildProcess | undefined;
  #output = '';
  #stopping = false;
  #outputWaiters: (() => void)[] = [];

  constructor(name: string, port: number, env: NodeJS.ProcessEnv, args: readonly string[] = []) {
    this.name = name;
    this.port = port;
    this.#env = { PATH: process.env.PATH, ...env, SVC_PORT: String(port), SVC_HOST: '127.0.0.1' };
    this.#args = args;
    this.#start();
  }

  /** The running process's id. */
  get pid(): number {
    const pid = this.#child?.pid;
    if (pid === undefined) throw new Error(`${this.name} is not running`);
    return pid;
  }

  /** `http://127.0.0.1:<port>`. */
  get address(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.#child !== undefined;
  }

  /** What the process wrote so far (the last 256 KiB), each line as written. */
  output(): string {
    return this.#output;
  }

  /** The last `lines` lines of the output, each cut at 300 characters, for a failure message. */
  outputTail(lines = 30): string {
    return tail(this.#output, lines);
  }

  /**
   * Resolves when the output (from now on, or what is kept of it) matches `pattern`; fails when the
   * process exits first or after `timeoutMs`, with the output's tail.
   */
  waitForOutput(pattern: RegExp, timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          settle(
            new Error(`${this.name} did not print ${pattern} in ${timeoutMs} ms:\n${this.outputTail()}`),
          ),
        timeoutMs,
      );
      const check = () => {
        if (pattern.test(this.#output)) settle();
        else if (!this.running)
          settle(new Error(`${this.name} exited before it printed ${pattern}:\n${this.outputTail()}`));
        else this.#outputWaiters.push(check);
      };
      const settle = (error?: Error) => {
        clearTimeout(timer);
        if (error === undefined) resolve();
        else reject(error);
      };
      check();
    });
  }

  /** Starts the process again after it exited (same port and environment). */
  respawn(): void {
    if (this.running) throw new Error(`${this.name} is still running`);
    this.#append(`--- respawned by the test ---\n`);
    this.#start();
  }

  /** SIGTERM and wait for the exit; SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    this.#stopping = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  #start(): void {
    this.#stopping = false;
    const child = spawn(process.execPath, [SVC_CLI, 'serve', ...this.#args], {
      env: this.#env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    child.stdout?.on('data', (chunk: Buffer) => this.#append(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.#append(chunk.toString()));
    child.on('error', (error) => this.#append(`spawn error: ${error.message}\n`));
    child.on('exit', (code, signal) => {
      // Stack frames and the empty fields of a pg error say nothing about why it died.
      const lastWords = tail(
        tail(this.#output, 80)
          .split('\n')
          .filter((line) => !/^\s+at |: undefined,$/.test(line))
          .join('\n'),
        14,
      );
      this.exits.push({ at: performance.now(), code, signal, expected: this.#stopping, lastWords });
      if (this.#child === child) this.#child = undefined;
      this.#append(`--- exited: code ${String(code)}, signal ${String(signal)} ---\n`);
    });
  }

  #append(text: string): void {
    this.#output += text;
    if (this.#output.length > OUTPUT_LIMIT) this.#output = this.#output.slice(-OUTPUT_LIMIT);
    const waiters = this.#outputWaiters;
    this.#outputWaiters = [];
    for (const check of waiters) check();
  }
}

function tail(text: string, lines: number): string {
  return text
    .trimEnd()
    .split('\n')
    .slice(-lines)
    .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line))
    .join('\n');
}

/**
 * Polls `path` every 100 ms until it answers 200; fails at once when the process exits, and after
 * `timeoutMs` otherwise, with the process's output in the message.
 */
export async function waitUntilReady(
  node: SvcProcess,
  { path = NODE_READY_PATH, timeoutMs = 30_000 }: { path?: string; timeoutMs?: number } = {},
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (!node.running) {
      throw new Error(`${node.name} exited before it answered ${path}:\n${node.outputTail()}`);
    }
    const status = await fetch(`${node.address}${path}`, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return;
    if (performance.now() > deadline) {
      throw new Error(
        `${node.name} did not answer ${path} with 200 in ${timeoutMs} ms:\n${node.outputTail()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One CLI command (e.g. `keys rotate`) with the nodes' environment, to its end. */
export function runSvcCli(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_CLI, ...args], { env: { PATH: process.env.PATH, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
