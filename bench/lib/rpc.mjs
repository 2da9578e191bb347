// The IPC protocol between `npm run bench` and the servers it forks: the parent calls named methods,
// the child answers with { id, result } or { id, error }, and may send { notice } lines while it works
// (progress of a long call). Every child answers `cpu` (process.cpuUsage, which counts all the threads
// of the process, argon2's pool included) and `stop`.
import { fork } from 'node:child_process';

/**
 * In a child: answers the parent's calls with `handlers` (plus `cpu` and `stop`), then tells it the
 * child is ready with `info` (its base URL and whatever the scenarios need). A handler gets the call's
 * params and `notify(text)`, which shows a progress line in the parent.
 */
export function serveRpc(handlers, info, close = async () => {}) {
  const all = {
    cpu: () => process.cpuUsage(),
    stop: async () => {
      await close();
      setImmediate(() => process.exit(0));
      return true;
    },
    ...handlers,
  };
  process.on('message', async ({ id, method, params }) => {
    try {
      const handler = all[method];
      if (handler === undefined) throw new Error(`unknown method ${method}`);
      process.send({ id, result: await handler(params, (notice) => process.send({ notice })) });
    } catch (error) {
      process.send({ id, error: String(error?.stack ?? error) });
    }
  });
  process.send({ ready: true, info });
}

/**
 * In the parent: forks `file` (a module of this folder) and resolves, once it is ready, to
 * `{ name, info, pid, call(method, params), stop() }`; `onNotice` gets the child's progress lines and
 * `stdout` (a file descriptor) takes its standard output instead of this process's.
 */
export function startChild(
  name,
  file,
  { env = {}, execArgv = [], onNotice = () => {}, stdout = 'inherit' } = {},
) {
  const child = fork(new URL(file, import.meta.url), [], {
    env: { ...process.env, ...env },
    execArgv,
    stdio: ['ignore', stdout, 'inherit', 'ipc'],
  });
  const pending = new Map();
  let next = 0;
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      reject(new Error(`${name} exited with ${code} before it was ready`));
      for (const { reject: fail } of pending.values()) fail(new Error(`${name} exited with ${code}`));
    });
    child.on('message', (message) => {
      if (message.notice !== undefined) {
        onNotice(message.notice);
        return;
      }
      if (message.ready) {
        resolve({
          name,
          info: message.info,
          pid: child.pid,
          call(method, params) {
            const id = (next += 1);
            return new Promise((ok, fail) => {
              pending.set(id, { ok, reject: fail });
              child.send({ id, method, params });
            });
          },
          async stop() {
            const exited = new Promise((done) => child.once('exit', done));
            await this.call('stop').catch(() => child.kill());
            await exited;
          },
        });
        return;
      }
      const waiter = pending.get(message.id);
      if (waiter === undefined) return;
      pending.delete(message.id);
      if (message.error !== undefined) waiter.reject(new Error(`${name}: ${message.error}`));
      else waiter.ok(message.result);
    });
  });
}

/** A free loopback TCP port (bound, read, released). */
export async function freePort() {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
