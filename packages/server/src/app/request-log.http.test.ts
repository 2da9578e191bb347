import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { SvcOptions } from '../config/options.js';
import { DEFAULT_PASSWORD_HASH_COST } from '../directory/password-hash-cost.js';
import type { FakeClock } from '../test-support/fake-clock.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const DISCOVERY = '/svc/auth/.well-known/openid-configuration';
const JWKS = '/svc/auth/.well-known/jwks.json';
const CLIENTS = '/svc/admin/auth/api/clients';

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly reqId?: string;
  readonly req?: { method: string; url: string; remoteAddress: string };
  readonly res?: { statusCode: number };
  readonly responseTime?: number;
}

/** A JSON body whose bytes arrive `ms` after the server starts reading it (on the fake clock). */
function slowBody(clock: FakeClock, json: string, ms: number): Readable {
  return new Readable({
    read() {
      clock.advance(ms);
      this.push(json);
      this.push(null);
    },
  });
}

describe('what a production server logs per request', () => {
  let t: TestSvc | undefined;
  let lines: LogLine[] = [];
  afterEach(async () => {
    await t?.close();
    t = undefined;
    lines = [];
  });

  /** A production-mode Svc at the default log level, its log lines captured. */
  const start = async (options: SvcOptions = {}) => {
    t = await createTestSvc('sqlite', {
      development: false,
      // Production refuses the tests' cheap hashing; no password is hashed here.
      passwordHashing: DEFAULT_PASSWORD_HASH_COST,
      logStream: { write: (line) => void lines.push(JSON.parse(line) as LogLine) },
      ...options,
    });
    // Start-up notices (no SMTP here: email is not delivered) are not lines of a request.
    lines = [];
    return t;
  };
  const createClient = (test: TestSvc, clientId: string, payload?: Readable) => {
    const json = JSON.stringify({
      clientId,
      name: clientId,
      audience: 'https://api.example',
      redirectUris: [],
    });
    return test.svc.app.inject({
      method: 'POST',
      url: CLIENTS,
      headers: {
        ...test.operator,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(json)),
      },
      payload: payload ?? json,
    });
  };

  it('writes nothing for requests that succeed in time, nor for refusals', async () => {
    const test = await start();
    expect(test.svc.config.logLevel).toBe('info');
    for (const url of [DISCOVERY, JWKS, '/svc/health/ready']) {
      expect((await test.svc.app.inject({ url })).statusCode, url).toBe(200);
    }
    expect((await createClient(test, 'orders')).statusCode).toBe(201);
    expect((await test.svc.app.inject({ url: '/svc/nowhere' })).statusCode).toBe(404);
    const refused = await test.svc.app.inject({ method: 'GET', url: CLIENTS });
    expect(refused.statusCode).toBe(404);
    test.clock.advance(999);
    expect(lines).toEqual([]);
  });

  it('logs a request slower than the threshold at warn, without secrets', async () => {
    const test = await start();
    const json = JSON.stringify({
      clientId: 'slow',
      name: 'slow',
      audience: 'https://api.example',
      redirectUris: [],
    });
    const response = await createClient(test, 'slow', slowBody(test.clock, json, 1000));
    expect(response.statusCode).toBe(201);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'slow request',
        reqId: expect.any(String),
        req: expect.objectContaining({ method: 'POST', url: CLIENTS }),
        res: { statusCode: 201 },
        responseTime: 1000,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain(test.operator.authorization);
  });

  it('takes the threshold from the configuration', async () => {
    const test = await start({ slowRequestMs: 5000 });
    const json = JSON.stringify({
      clientId: 'slow',
      name: 'slow',
      audience: 'https://api.example',
      redirectUris: [],
    });
    expect((await createClient(test, 'slow', slowBody(test.clock, json, 4999))).statusCode).toBe(201);
    expect(lines).toEqual([]);
  });

  it('writes one line per request with the access log on, secret query values redacted', async () => {
    const test = await start({ accessLog: true });
    await test.svc.app.inject({ url: `${JWKS}?token=abc.def&x=1` });
    expect((await createClient(test, 'orders')).statusCode).toBe(201);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        req: {
          id: expect.any(String),
          method: 'GET',
          url: `${JWKS}?token=%5Bredacted%5D&x=1`,
          remoteAddress: '127.0.0.1',
        },
        res: { statusCode: 200 },
        responseTime: 0,
      }),
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        req: expect.objectContaining({ method: 'POST', url: CLIENTS }),
        res: { statusCode: 201 },
      }),
    ]);
  });

  it('logs an error the service did not expect, once', async () => {
    const test = await start();
    await test.svc.database.close();
    const response = await test.svc.app.inject({ method: 'GET', url: CLIENTS, headers: test.operator });
    expect(response.statusCode).toBe(500);
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, msg: 'unhandled error', reqId: expect.any(String) }),
    ]);
  });
});
