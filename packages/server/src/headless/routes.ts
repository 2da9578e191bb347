import fastifyCookie from '@fastify/cookie';
import {
  HEADLESS_ACTIONS,
  type HeadlessAction,
  headlessRequestPathSchema,
  headlessStartBodySchema,
  headlessSubmitBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ANTIFORGERY_COOKIE, type Antiforgery } from '../http/antiforgery.js';
import { browserPlace } from '../http/browser-place.js';
import {
  SESSION_COOKIE,
  hostedCookieOptions,
  readAntiforgeryCookie,
  readSessionCookie,
  sessionCookieOptions,
  type CookieSite,
} from '../http/cookies.js';
import type { SignInDeps } from '../signin/flow/sign-in-deps.js';
import { parseBody, parseParams } from '../http/body.js';
import { logIfUnexpected, mapError, sendMappedJson } from '../http/errors.js';
import { SvcError } from '../kernel/errors.js';
import { authRequestExpiredError } from '../signin/flow/errors.js';
import { HeadlessCors } from './cors.js';
import { HEADLESS_ACTION_HANDLERS } from './headless-actions.js';
import {
  type HeadlessAnswer,
  type HeadlessBrowser,
  type HeadlessSignIn,
  headlessSignInOver,
} from './headless-sign-in.js';

/** Actions that may open a request of their own, so the browser may not have its id cookie yet. */
const OPENING_ACTIONS: ReadonlySet<HeadlessAction> = new Set(['device/resolve']);

export interface HeadlessRoutesDeps {
  /** The sign-in, with the hosted pages' browser binding and issuer sessions (the same cookies). */
  readonly signIn: SignInDeps & { readonly antiforgery: Antiforgery; readonly site: CookieSite };
  /** Origins allowed credentialed CORS (exact). */
  readonly allowedOrigins: readonly string[];
}

/** A post from an origin that is neither the public one nor a configured one. */
class HeadlessOriginError extends SvcError {
  constructor() {
    super('origin_not_allowed', 'Requests from this origin are not allowed.', { status: 403 });
  }
}

/**
 * The headless sign-in API (docs/reference/sign-in.md "Headless API"), mounted by app/http.ts at the headless base path as a
 * sibling of the hosted plugin: JSON bodies (field names case-insensitive), no antiforgery form token
 * (a foreign origin is refused instead, and JSON needs a preflight that only configured origins pass),
 * its own `{ error, message, details? }` error mapper, `Cache-Control: no-store` on every answer.
 *
 * Keyed by requestId plus the browser's cookies, shared with the hosted pages: the browser id is the
 * antiforgery cookie's (the flow's binding), the issuer session is `svc_session`. With configured
 * cross-site origins and a Secure origin the cookies are SameSite=None so that the browser sends them
 * on the app's credentialed calls; on plain-http loopback (development) they stay Lax, as a browser
 * drops SameSite=None without Secure.
 */
export function headlessRoutes(deps: HeadlessRoutesDeps): FastifyPluginAsync {
  const { site, antiforgery, clock } = deps.signIn;
  const cors = new HeadlessCors({ allowedOrigins: deps.allowedOrigins, publicOrigin: site.publicOrigin });
  const headless = headlessSignInOver(deps.signIn);
  const base = hostedCookieOptions(site);
  const sameSite = cors.crossSite && base.secure ? ('none' as const) : ('lax' as const);

  const originOf = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    return Array.isArray(origin) ? origin.join(', ') : origin;
  };
  const browserOf = (request: FastifyRequest): HeadlessBrowser => {
    const browserId = readAntiforgeryCookie(request);
    // No browser id: no request can be bound to this browser (one answer for every reason).
    if (browserId === undefined) throw authRequestExpiredError();
    return { browserId, sessionToken: readSessionCookie(request), ...browserPlace(request) };
  };
  /** The browser of a request that may open a request: its id cookie is set first when missing. */
  const openingBrowserOf = (request: FastifyRequest, reply: FastifyReply): HeadlessBrowser => {
    const issued = antiforgery.issue(readAntiforgeryCookie(request));
    if (issued.newCookie) reply.setCookie(ANTIFORGERY_COOKIE, issued.cookieId, { ...base, sameSite });
    return { browserId: issued.cookieId, sessionToken: readSessionCookie(request), ...browserPlace(request) };
  };
  const send = (reply: FastifyReply, answer: HeadlessAnswer) => {
    if (answer.session !== undefined) {
      const options = sessionCookieOptions(site, answer.session.expiresAt, clock.now());
      reply.setCookie(SESSION_COOKIE, answer.session.token, { ...options, sameSite });
    } else if (answer.sessionEnded === true) {
      reply.clearCookie(SESSION_COOKIE, { ...base, sameSite });
    }
    if (answer.retryAfterSeconds !== undefined) reply.header('retry-after', String(answer.retryAfterSeconds));
    return reply.code(answer.status).send(answer.body);
  };
  /** Validates an action's body with its contract schema and runs it. */
  const runAction = (action: HeadlessAction, raw: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const body = parseBody(HEADLESS_ACTIONS[action], raw);
    const browser = OPENING_ACTIONS.has(action) ? openingBrowserOf(request, reply) : browserOf(request);
    const handler = HEADLESS_ACTION_HANDLERS[action] as (
      signIn: HeadlessSignIn,
      body: unknown,
      browser: HeadlessBrowser,
      call: { route: string; ipAddress: string },
    ) => Promise<HeadlessAnswer>;
    return handler(headless, body, browser, { route: `headless /${action}`, ipAddress: request.ip });
  };

  return async (app) => {
    if (!app.hasReplyDecorator('setCookie')) await app.register(fastifyCookie);
    app.setErrorHandler((error, request, reply) => {
      const mapped = mapError(error);
      logIfUnexpected(request, error, mapped);
      return sendMappedJson(reply, mapped);
    });
    app.addHook('onRequest', async (request, reply) => {
      reply.header('cache-control', 'no-store').header('vary', 'Origin');
      for (const [name, value] of Object.entries(cors.headers(originOf(request)))) reply.header(name, value);
      if (request.method === 'POST' && !cors.mayPost(originOf(request))) throw new HeadlessOriginError();
    });

    app.options('/*', async (request, reply) => {
      for (const [name, value] of Object.entries(cors.preflightHeaders(originOf(request)))) {
        reply.header(name, value);
      }
      return reply.code(204).send();
    });

    app.post('/start', async (request, reply) => {
      const body = parseBody(headlessStartBodySchema, request.body);
      const issued = antiforgery.issue(readAntiforgeryCookie(request));
      if (issued.newCookie) reply.setCookie(ANTIFORGERY_COOKIE, issued.cookieId, { ...base, sameSite });
      const browser = { browserId: issued.cookieId, ...browserPlace(request) };
      return send(reply, await headless.start(body, browser));
    });

    app.get('/requests/:requestId', async (request, reply) => {
      const { requestId } = parseParams(headlessRequestPathSchema, request.params);
      return send(reply, await headless.current(requestId, browserOf(request)));
    });

    for (const action of Object.keys(HEADLESS_ACTIONS) as HeadlessAction[]) {
      app.post(`/${action}`, async (request, reply) =>
        send(reply, await runAction(action, request.body, request, reply)),
      );
    }

    // The generic submit: any action by name, its own fields beside `action`.
    app.post('/submit', async (request, reply) => {
      const { action, ...fields } = parseBody(headlessSubmitBodySchema, request.body);
      return send(reply, await runAction(action, fields, request, reply));
    });
  };
}
