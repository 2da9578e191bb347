// The HTTP scenarios of `npm run bench`. Each names what it costs at best (`cost`: RS256 signs and
// verifies, store transactions, argon2id verifies on top of the HTTP floor), prepares a target once
// (tokens, pools) and builds the autocannon load of one run. `svcOnly` runs Svc alone, and `on` names
// another Svc child to run instead of the default one (run.mjs starts it when such a scenario runs). Requests are the same for both servers
// apart from where the endpoints live, which comes from each one's discovery document.
import { seededEmail } from '../seed-large.mjs';
import { CC_CLIENT, USER, WEB_CLIENT } from './fixtures.mjs';
import { codeExchangeBody, mintCodes, mintTokens, refreshBody } from './flows.mjs';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** How many independent sessions the refresh scenario rotates (each request takes one, puts back its successor). */
const REFRESH_SESSIONS = 200;

export const SCENARIOS = [
  {
    // Svc answers its static documents before Fastify routes the request: bare node:http's floor.
    name: 'discovery',
    cost: { floor: 'node' },
    load: ({ endpoints }) => ({ url: endpoints.discovery }),
  },
  {
    // Discovery again, on a second Svc with the access log on (SVC_ACCESS_LOG=1, its lines written to a
    // file): what the access log costs a request, beside the discovery row.
    name: 'discovery_access_log',
    svcOnly: true,
    on: 'svcAccessLog',
    cost: {},
    load: ({ endpoints }) => ({ url: endpoints.discovery }),
  },
  {
    name: 'jwks',
    cost: { floor: 'node' },
    load: ({ endpoints }) => ({ url: endpoints.jwks }),
  },
  {
    name: 'userinfo',
    cost: { verifies: 1 },
    // The peer's userinfo takes its opaque access tokens only (a JWT for the API is not for userinfo).
    prepare: async (target, endpoints) => {
      const [tokens] = await mintTokens(target, endpoints, 1, { resource: false });
      return { authorization: `Bearer ${tokens.access_token}` };
    },
    load: ({ endpoints, state }) => ({
      url: endpoints.userinfo,
      headers: { authorization: state.authorization },
    }),
  },
  {
    name: 'client_credentials',
    cost: { signs: 1 },
    prepare: async (target) => ({
      authorization: `Basic ${Buffer.from(`${CC_CLIENT.clientId}:${encodeURIComponent(target.info.ccSecret)}`).toString('base64')}`,
    }),
    load: ({ endpoints, state }) => ({
      url: endpoints.token,
      method: 'POST',
      headers: { ...FORM, authorization: state.authorization },
      body: `grant_type=client_credentials&scope=${CC_CLIENT.scope}`,
    }),
  },
  {
    name: 'refresh_token',
    cost: { signs: 2, transactions: 1 },
    prepare: async () => ({ pool: [] }),
    // The pool is filled before each run: the first run mints all of it, and the later ones replace the
    // tokens that the run before lost (a run stops with requests in flight, whose successors never come
    // back to the pool).
    load: async ({ target, endpoints, state }) => {
      const missing = REFRESH_SESSIONS - state.pool.length;
      if (missing > 0) {
        const minted = await mintTokens(target, endpoints, missing);
        state.pool.push(...minted.map((tokens) => tokens.refresh_token));
      }
      return {
        url: endpoints.token,
        requests: [
          {
            method: 'POST',
            headers: FORM,
            setupRequest: (request) => ({ ...request, body: refreshBody(state.pool.shift()) }),
            onResponse: (status, body) => {
              if (status === 200) state.pool.push(JSON.parse(body).refresh_token);
            },
          },
        ],
      };
    },
  },
  {
    name: 'authorization_code',
    cost: { signs: 2, transactions: 1 },
    // Codes for the expected number of requests are minted before the run, which then ends when they
    // are spent (autocannon `amount`).
    load: async ({ target, endpoints, expected }) => {
      const codes = await mintCodes(target, endpoints, expected);
      return {
        url: endpoints.token,
        amount: codes.length,
        requests: [
          {
            method: 'POST',
            headers: FORM,
            setupRequest: (r) => ({ ...r, body: codeExchangeBody(codes.shift()) }),
          },
        ],
      };
    },
  },
  {
    name: 'password_login',
    svcOnly: true,
    // A direct sign-in answers an access token and a refresh token, no ID token: one signature.
    cost: { argon2: 1, signs: 1, transactions: 1 },
    // On a server filled by --seed-large (target.seeded), each request signs in a random seeded user.
    load: ({ target }) => {
      const body = (email) =>
        JSON.stringify({ email, password: USER.password, clientId: WEB_CLIENT.clientId });
      const users = target.seeded?.users;
      return {
        url: `${target.info.base}/password/login`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        ...(users === undefined
          ? { body: body(USER.email) }
          : {
              requests: [
                {
                  method: 'POST',
                  headers: { 'content-type': 'application/json' },
                  setupRequest: (request) => ({
                    ...request,
                    body: body(seededEmail(Math.floor(Math.random() * users))),
                  }),
                },
              ],
            }),
      };
    },
  },
];
