import { randomBytes } from 'node:crypto';
import type { SvcCreatedClient } from '@svc/contract';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { s256Challenge } from '../oauth/pkce.js';
import { authorizeQuery, pkcePair } from '../test-support/authorize-params.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { form, REDIRECT_URI } from '../test-support/oauth-http.js';
import { startSvcCluster, type ClusterNode, type SvcCluster } from '../test-support/svc-cluster.js';

/**
 * Scale-out (issue 7 item 3): three Svc nodes on one PostgreSQL database serve one issuer. Every node is
 * its own createSvc() instance in this process (own pool, own key cache, own port); requests go over
 * real HTTP and are spread round-robin across the nodes, so every race below is a race between nodes.
 * In-process nodes rather than child processes: a cross-node race is decided in PostgreSQL (conditional
 * updates, row locks), which separate pools exercise exactly as separate processes would, while one
 * shared fake clock keeps windows, intervals and the key cache's lifetime deterministic and the file
 * fast. What a process boundary would add holds already: the server keeps no module-level state, so the
 * nodes share nothing but the clock.
 */
const NODES = 3;
const RACERS = 50;
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const PASSWORD = 'correct horse battery staple';

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

const skipReason = inject('postgresSkipReason');
const suite = skipReason === '' ? describe : describe.skip;

suite(
  `scale-out: ${NODES} nodes on one PostgreSQL${skipReason === '' ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    let cluster: SvcCluster;
    let nodes: readonly ClusterNode[];
    let userId: string;
    let counter = 0;

    beforeAll(async () => {
      cluster = await startSvcCluster(NODES);
      nodes = cluster.nodes;
      userId = (
        await nodes[0]!.svc.admin.createUserAsync({
          displayName: 'Ada Example',
          email: 'ada@example.com',
          password: PASSWORD,
        })
      ).id;
    });
    afterAll(async () => {
      await cluster?.close();
    });

    /** The node that serves the i-th request, round-robin like a load balancer. */
    const nodeFor = (i: number): ClusterNode => nodes[i % nodes.length]!;

    const post = async (node: ClusterNode, path: string, params: Record<string, string>): Promise<Answer> => {
      const response = await fetch(node.url(path), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form(params),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const token = (node: ClusterNode, params: Record<string, string>) => post(node, '/token', params);
    /** The same request `RACERS` times at once, spread across the nodes. */
    const race = (send: (node: ClusterNode) => Promise<Answer>): Promise<Answer[]> =>
      Promise.all(Array.from({ length: RACERS }, (_, i) => send(nodeFor(i))));
    const successes = (answers: readonly Answer[]) => answers.filter((a) => a.status === 200);
    const errors = (answers: readonly Answer[]) =>
      answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${String(a.body.error)}`);

    const newClient = (
      overrides: Partial<Parameters<ClusterNode['svc']['admin']['createClientAsync']>[0]> = {},
    ) => {
      counter += 1;
      return nodes[0]!.svc.admin.createClientAsync({
        clientId: `scale-${counter}`,
        name: `Scale ${counter}`,
        audience: `https://api${counter}.example.com`,
        redirectUris: [REDIRECT_URI],
        isFirstParty: true,
        allowedScopes: ['openid', 'profile', 'email', 'offline_access'],
        ...overrides,
      });
    };
    /** A PKCE-bound code as /authorize issues it (on one node), as the /token parameters that redeem it. */
    const issueCode = async (client: SvcCreatedClient) => {
      const verifier = randomBytes(32).toString('base64url');
      const { code } = await nodes[1]!.svc.authEngine.tokens.codes.issue({
        clientId: client.clientId,
        userId,
        organizationId: null,
        redirectUri: REDIRECT_URI,
        codeChallenge: s256Challenge(verifier),
        scopes: ['openid', 'profile', 'email'],
        resource: null,
        nonce: null,
        authTime: cluster.clock.now(),
        amr: ['pwd'],
      });
      return { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT_URI };
    };
    const redeem = async (client: SvcCreatedClient): Promise<Record<string, unknown>> => {
      const answer = await token(nodes[2]!, { ...(await issueCode(client)), client_id: client.clientId });
      expect(answer.status).toBe(200);
      return answer.body;
    };
    const refresh = (node: ClusterNode, refreshToken: unknown) =>
      token(node, { grant_type: 'refresh_token', refresh_token: String(refreshToken) });
    /** Whether `accessToken` is accepted by `node`, over HTTP (/userinfo) and in process (audience checked). */
    const acceptedBy = async (node: ClusterNode, accessToken: unknown, audience: string) => {
      const userinfo = await fetch(node.url('/userinfo'), {
        headers: { authorization: `Bearer ${String(accessToken)}` },
      });
      await userinfo.arrayBuffer(); // read to the end, so the connection goes back to the pool
      const validated = await node.svc.auth.validateAccessTokenAsync(String(accessToken), audience);
      return { userinfo: userinfo.status, validatedSub: validated?.userId ?? null };
    };
    const kidOf = (jwt: unknown) => decodeProtectedHeader(String(jwt)).kid;
    const jwksKids = async (node: ClusterNode) => {
      const response = await fetch(node.url('/.well-known/jwks.json'));
      return ((await response.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid).sort();
    };

    it('50 concurrent redemptions of one authorization code: exactly one succeeds', async () => {
      const client = await newClient();
      const exchange = { ...(await issueCode(client)), client_id: client.clientId };

      const answers = await race((node) => token(node, exchange));

      const won = successes(answers);
      expect(won).toHaveLength(1);
      expect(errors(answers)).toEqual(Array(RACERS - 1).fill('400 invalid_grant'));
      // The losers are replays: the session the winner got is revoked (RFC 6749 §4.1.2), on every node.
      for (const node of nodes) {
        expect((await refresh(node, won[0]!.body.refresh_token)).body.error).toBe('invalid_grant');
        expect(await acceptedBy(node, won[0]!.body.access_token, client.audience)).toEqual({
          userinfo: 401,
          validatedSub: null,
        });
      }
    });

    it('50 concurrent replays of one refresh token: exactly one new family member, and it works', async () => {
      const client = await newClient();
      const first = await redeem(client);

      const answers = await race((node) => refresh(node, first.refresh_token));

      const rotated = successes(answers);
      expect(rotated).toHaveLength(1);
      // Every other replay gets the grace-window answer (invalid_grant, the family intact), never tokens.
      expect(errors(answers)).toEqual(Array(RACERS - 1).fill('400 invalid_grant'));
      expect(answers.filter((a) => 'access_token' in a.body || 'refresh_token' in a.body)).toHaveLength(1);
      const { access_token: accessToken, refresh_token: next } = rotated[0]!.body;
      for (const node of nodes) {
        expect(await acceptedBy(node, accessToken, client.audience)).toEqual({
          userinfo: 200,
          validatedSub: userId,
        });
      }
      // The one new refresh token continues the family on any node.
      const again = await refresh(nodes[1]!, next);
      expect(again.status).toBe(200);
      expect((await refresh(nodes[2]!, again.body.refresh_token)).status).toBe(200);
    });

    it('concurrent device-code polls: one pending and the rest slow down, then exactly one issuance', async () => {
      const client = await newClient({ allowDeviceAuthorization: true });
      const started = await post(nodes[0]!, '/device_authorization', {
        client_id: client.clientId,
        scope: 'openid',
      });
      expect(started.status).toBe(200);
      const poll = {
        grant_type: DEVICE_GRANT,
        client_id: client.clientId,
        device_code: String(started.body.device_code),
      };

      const pending = await race((node) => token(node, poll));
      expect(errors(pending).sort()).toEqual([
        '400 authorization_pending',
        ...Array(RACERS - 1).fill('400 slow_down'),
      ]);

      const approved = await nodes[2]!.svc.auth.approveDeviceAuthorizationAsync({
        userCode: String(started.body.user_code),
        userId,
        organizationId: null,
        amr: ['pwd'],
      });
      expect(approved).toEqual({ status: 'approved' });
      const answers = await race((node) => token(node, poll));

      const issued = successes(answers);
      expect(issued).toHaveLength(1);
      expect(errors(answers)).toEqual(Array(RACERS - 1).fill('400 invalid_grant'));
      for (const node of nodes) {
        expect(await acceptedBy(node, issued[0]!.body.access_token, client.audience)).toEqual({
          userinfo: 200,
          validatedSub: userId,
        });
      }
      expect((await refresh(nodes[1]!, issued[0]!.body.refresh_token)).status).toBe(200);
    });

    it('a key rotated on one node validates on every node at once, and every node publishes it', async () => {
      const client = await newClient();
      // One session per node, each refreshed on its own node from here on.
      const sessions = await Promise.all(nodes.map(() => redeem(client)));
      const oldKid = kidOf(sessions[0]!.access_token);
      for (const node of nodes) expect(await jwksKids(node)).toEqual([oldKid]);

      const newKid = await nodes[1]!.svc.signingKeys.rotate();

      // Tokens from every node (node 1 signs with the new key at once, the others within their cache
      // lifetime), and a token signed before the rotation, validate on every node: no failed validation.
      const mintOnEachNode = async () => {
        const minted = [];
        for (const [i, node] of nodes.entries()) {
          const answer = await refresh(node, sessions[i]!.refresh_token);
          expect(answer.status).toBe(200);
          sessions[i] = answer.body;
          minted.push(answer.body.access_token);
        }
        return minted;
      };
      const afterRotation = await mintOnEachNode();
      expect(kidOf(afterRotation[1])).toBe(newKid);
      for (const accessToken of [...afterRotation, sessions[0]!.access_token]) {
        for (const node of nodes) {
          expect(await acceptedBy(node, accessToken, client.audience)).toEqual({
            userinfo: 200,
            validatedSub: userId,
          });
        }
      }
      // Every node publishes both keys: the new one and the old one for its grace window.
      for (const node of nodes) expect(await jwksKids(node)).toEqual([newKid, oldKid].sort());

      // Once the key caches have turned over (30 s), every node signs with the new key.
      cluster.clock.advance(30_000);
      const later = await mintOnEachNode();
      expect(later.map(kidOf)).toEqual(Array(NODES).fill(newKid));
      for (const accessToken of later) {
        for (const node of nodes) {
          expect(await acceptedBy(node, accessToken, client.audience)).toEqual({
            userinfo: 200,
            validatedSub: userId,
          });
        }
      }
    });

    it('a hosted sign-in needs no sticky sessions: every browser request lands on the next node', async () => {
      const client = await newClient();
      let served = 0;
      const anyNode = new InjectBrowser({
        authBase: nodes[0]!.svc.config.authBase,
        inject: (options) => nodeFor(served++).svc.app.inject(options),
      });
      const { verifier, challenge } = pkcePair();

      const done = await anyNode.signIn(
        await anyNode.authorize(authorizeQuery(client.clientId, { scope: 'openid' }, challenge)),
        'ada@example.com',
        PASSWORD,
      );

      expect(served).toBeGreaterThan(NODES); // /authorize, identify, password and their pages, round-robin
      const redirect = InjectBrowser.location(done);
      expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
      expect(redirect.searchParams.get('state')).toBe('state-123');
      const redeemed = await token(nodeFor(served), {
        grant_type: 'authorization_code',
        code: redirect.searchParams.get('code') ?? '',
        code_verifier: verifier,
        redirect_uri: REDIRECT_URI,
        client_id: client.clientId,
      });
      expect(redeemed.status).toBe(200);
      expect(await acceptedBy(nodeFor(served + 1), redeemed.body.access_token, client.audience)).toEqual({
        userinfo: 200,
        validatedSub: userId,
      });
    });

    it('rate limits count across nodes: 50 device starts spread over the nodes, exactly 30 allowed', async () => {
      // deviceStart allows 30 starts per client and IP address per 15 minutes (ratelimit/rules.ts).
      const client = await newClient({ allowDeviceAuthorization: true });
      const start = (node: ClusterNode) =>
        post(node, '/device_authorization', { client_id: client.clientId });

      const answers = await race(start);

      expect(successes(answers)).toHaveLength(30);
      expect(errors(answers)).toEqual(Array(RACERS - 30).fill('400 slow_down'));
      // Every node refuses now, whichever served the allowed ones; after the window every node allows again.
      for (const node of nodes) expect((await start(node)).body.error).toBe('slow_down');
      cluster.clock.advance(15 * MINUTE_MS);
      for (const node of nodes) expect((await start(node)).status).toBe(200);
    });
  },
);
