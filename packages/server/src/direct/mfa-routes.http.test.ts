import {
  svcMfaChallengeVerifyResultSchema,
  svcTotpEnrollmentStartResultSchema,
  svcTotpEnrollmentVerifyResultSchema,
  type SvcCreatedClient,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  authenticatorCode,
  scanProvisioningUri,
  TOTP_STEP_MS,
  wrongCode,
} from '../test-support/authenticator-app.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createDirectHarness, type DirectHarness } from '../test-support/direct-test-app.js';
import { mfaSettings, selfEnroll } from '../test-support/mfa.js';

const VERIFY = '/mfa/challenge/verify';
const ENROLL_START = '/mfa/challenge/totp/enroll/start';
const ENROLL_VERIFY = '/mfa/challenge/totp/enroll/verify';
const UNKNOWN_TOKEN = 'x'.repeat(43);

describeAboveStorage('MFA direct routes', (kind) => {
  let h: DirectHarness;
  let client: SvcCreatedClient;

  beforeEach(async () => {
    h = await createDirectHarness(kind);
    client = await h.given.client();
  });
  afterEach(async () => {
    await h.close();
  });

  /** A 200 JSON answer that no cache may keep. */
  function ok(response: LightMyRequestResponse): unknown {
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json();
  }

  it('forced enrollment over HTTP: login → enroll/start → enroll/verify (tokens); then login → verify (tokens)', async () => {
    await h.t.svc.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
    const user = await h.given.user();
    const login = await h.login(user.email, client.clientId);
    expect(login).toMatchObject({ requiresMfa: true, requiresMfaEnrollment: true, mfaMethods: ['totp'] });
    const mfaToken = login.mfaToken ?? '';

    const started = svcTotpEnrollmentStartResultSchema.parse(
      ok(await h.post(ENROLL_START, { MfaToken: mfaToken, Label: 'Work phone' })),
    );
    expect(scanProvisioningUri(started.provisioningUri)).toMatchObject({
      label: 'Work phone',
      secret: started.secret,
    });
    const enrolled = svcTotpEnrollmentVerifyResultSchema.parse(
      ok(
        await h.post(ENROLL_VERIFY, {
          enrollmentToken: started.enrollmentToken,
          code: authenticatorCode(started.secret, h.t.clock.now()),
          mfaToken,
        }),
      ),
    );
    expect(enrolled.recoveryCodes).toHaveLength(10);
    expect(enrolled.tokens).toMatchObject({ clientId: client.clientId });

    h.t.clock.advance(TOTP_STEP_MS);
    const again = await h.login(user.email, client.clientId);
    expect(again).toMatchObject({ requiresMfa: true, requiresMfaEnrollment: false });
    const verified = svcMfaChallengeVerifyResultSchema.parse(
      ok(
        await h.post(VERIFY, {
          mfaToken: again.mfaToken,
          code: ` ${authenticatorCode(started.secret, h.t.clock.now())} `,
        }),
      ),
    );
    expect(verified).toMatchObject({ method: 'totp', remainingRecoveryCodes: null });
    expect(verified.tokens.refreshToken).toEqual(expect.any(String));
  });

  it('answers malformed bodies with 400 naming the field (no-store), unreadable types with 415', async () => {
    const cases: [string, unknown, string[]][] = [
      [VERIFY, {}, ['mfaToken', 'code']],
      [VERIFY, { mfaToken: UNKNOWN_TOKEN, code: 123456 }, ['code']],
      [VERIFY, { mfaToken: 'with space', code: '123456' }, ['mfaToken']],
      [VERIFY, { mfaToken: UNKNOWN_TOKEN, code: '   ' }, ['code']],
      [VERIFY, { mfaToken: UNKNOWN_TOKEN, code: '1'.repeat(65) }, ['code']],
      [ENROLL_START, {}, ['mfaToken']],
      [ENROLL_START, { mfaToken: UNKNOWN_TOKEN, label: 'x'.repeat(101) }, ['label']],
      [ENROLL_START, { mfaToken: UNKNOWN_TOKEN, label: 'a\u0000b' }, ['label']],
      [ENROLL_VERIFY, { enrollmentToken: UNKNOWN_TOKEN, code: '123456' }, ['mfaToken']],
      [ENROLL_VERIFY, { enrollmentToken: UNKNOWN_TOKEN, code: '123456', mfaToken: null }, ['mfaToken']],
      [ENROLL_VERIFY, { mfaToken: UNKNOWN_TOKEN, code: '123456' }, ['enrollmentToken']],
      [VERIFY, [], ['(body)']],
      [VERIFY, 'null', ['(body)']],
    ];
    for (const [path, body, fields] of cases) {
      const response = await h.post(path, typeof body === 'string' ? body : (body as object));
      const label = `${path} ${JSON.stringify(body)}`;
      expect(response.statusCode, label).toBe(400);
      expect(response.headers['cache-control'], label).toBe('no-store');
      const parsed = response.json<{ error: string; details: { path: string }[] }>();
      expect(parsed.error, label).toBe('invalid_request');
      expect(parsed.details.map((d) => d.path).sort(), label).toEqual([...fields].sort());
    }
    const plain = await h.post(VERIFY, 'code=1', { 'content-type': 'text/plain' });
    expect(plain.statusCode).toBe(400);
    const xml = await h.post(VERIFY, '<code/>', { 'content-type': 'application/xml' });
    expect(xml.statusCode).toBe(415);
    expect(await h.events('mfa.challenge.failed')).toEqual([]);
  });

  it('an unknown, a used and an expired MFA token get byte-identical answers; a wrong code its own', async () => {
    const user = await h.given.user();
    const app = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    h.t.clock.advance(TOTP_STEP_MS);
    const used = (await h.login(user.email, client.clientId)).mfaToken ?? '';
    const wrong = await h.post(VERIFY, { mfaToken: used, code: wrongCode(app.secret, h.t.clock.now()) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      error: 'invalid_code',
      message: 'The code is not valid; check your authenticator app.',
    });
    ok(await h.post(VERIFY, { mfaToken: used, code: app.code() }));
    const expired = (await h.login(user.email, client.clientId)).mfaToken ?? '';
    h.t.clock.advance(10 * 60_000);

    const bodies: string[] = [];
    for (const mfaToken of [UNKNOWN_TOKEN, used, expired]) {
      for (const path of [VERIFY, ENROLL_START]) {
        const response = await h.post(path, { mfaToken, code: app.code() });
        expect(response.statusCode).toBe(400);
        bodies.push(response.body);
      }
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0] ?? '')).toEqual({
      error: 'invalid_token',
      message: 'The MFA sign-in has expired or was completed; sign in again.',
    });
  });

  it('verify on an enrollment-required challenge, and enrollment start on a normal one, are 400 invalid_operation', async () => {
    await h.t.svc.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
    const newcomer = await h.given.user();
    const enrollment = (await h.login(newcomer.email, client.clientId)).mfaToken;
    const verify = await h.post(VERIFY, { mfaToken: enrollment, code: '123456' });
    expect(verify.statusCode).toBe(400);
    expect(verify.json()).toMatchObject({ error: 'invalid_operation' });

    const user = await h.given.user();
    await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    const normal = (await h.login(user.email, client.clientId)).mfaToken;
    const start = await h.post(ENROLL_START, { mfaToken: normal });
    expect(start.statusCode).toBe(400);
    expect(start.json()).toMatchObject({ error: 'invalid_operation' });
  });

  it('a client made third-party after the challenge gets 400 invalid_client, audited with the route', async () => {
    const user = await h.given.user();
    const app = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    h.t.clock.advance(TOTP_STEP_MS);
    const mfaToken = (await h.login(user.email, client.clientId)).mfaToken;
    await h.t.svc.database.db
      .updateTable('clients')
      .set({ isFirstParty: 0 })
      .where('clientId', '=', client.clientId)
      .execute();
    const response = await h.post(VERIFY, { mfaToken, code: app.code() });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_client' });
    expect(await h.events('oauth.direct_login.rejected', client.clientId)).toEqual([
      expect.objectContaining({
        data: { client_id: client.clientId, route: '/svc/auth/mfa/challenge/verify' },
      }),
    ]);
  });
});
