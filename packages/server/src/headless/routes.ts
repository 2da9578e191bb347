import fastifyCookie from '@fastify/cookie';
import {
  headlessConsentBodySchema,
  headlessIdentifyBodySchema,
  headlessMfaCodeBodySchema,
  headlessOrganizationSelectBodySchema,
  headlessPasswordLoginBodySchema,
  headlessRequestBodySchema,
  headlessStartBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { ANTIFORGERY_COOKIE } from '../hosted/antiforgery.js';
import {
  SESSION_COOKIE,
  hostedCookieOptions,
  readAntiforgeryCookie,
  readSessionCookie,
  sessionCookieOptions,
} from '../hosted/cookies.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import { parseBody } from '../http/body.js';
import { logIfUnexpected, mapError } from '../http/errors.js';
import { SvcError } from '../kernel/errors.js';
import { authRequestExpiredError } from '../oauth/authorize/errors.js';
import { HeadlessCors } from './cors.js';
import { type HeadlessAnswer, type HeadlessBrowser, HeadlessSignIn } from './headless-sign-in.js';
import { enabledCredentialTypes } from './view-models.js';

export interface HeadlessRoutesDeps {
  /** The hosted flow's capabilities: the same requests, browser binding and issuer sessions. */
  readonly signIn: Pick<
    HostedSignInDeps,
    'flow' | 'antiforgery' | 'site' | 'clock' | 'emailOtp' | 'phoneOtp'
  >;
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
 * The headless sign-in API (SPEC.md "Headless API"), mounted by the lead at the headless base path as a
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
  const headless = new HeadlessSignIn({
    flow: deps.signIn.flow,
    context: {
      enabledCredentialTypes: enabledCredentialTypes({
        emailSignIn: deps.signIn.emailOtp !== undefined,
        phoneSignIn: deps.signIn.phoneOtp !== undefined,
      }),
    },
  });
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
    return { browserId, sessionToken: readSessionCookie(request), ipAddress: request.ip };
  };
  const send = (reply: FastifyReply, answer: HeadlessAnswer) => {
    if (answer.session !== undefined) {
      const options = sessionCookieOptions(site, answer.session.expiresAt, clock.now());
      reply.setCookie(SESSION_COOKIE, answer.session.token, { ...options, sameSite });
    }
    return reply.code(answer.status).send(answer.body);
  };

  return async (app) => {
    if (!app.hasReplyDecorator('setCookie')) await app.register(fastifyCookie);
    app.setErrorHandler((error, request, reply) => {
      const mapped = mapError(error);
      logIfUnexpected(request, error, mapped);
      const body: Record<string, unknown> = { error: mapped.code, message: mapped.message };
      if (mapped.details !== undefined && mapped.details.length > 0) body.details = mapped.details;
      return reply.code(mapped.status).send(body);
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
      const browser = { browserId: issued.cookieId, ipAddress: request.ip };
      return send(reply, await headless.start(body, browser));
    });

    app.get<{ Params: { requestId: string } }>('/requests/:requestId', async (request, reply) =>
      send(reply, await headless.current(request.params.requestId, browserOf(request))),
    );

    app.post('/identify', async (request, reply) => {
      const body = parseBody(headlessIdentifyBodySchema, request.body);
      return send(reply, await headless.identify(body.requestId, browserOf(request), body.email));
    });

    app.post('/password/login', async (request, reply) => {
      const body = parseBody(headlessPasswordLoginBodySchema, request.body);
      return send(reply, await headless.password(body.requestId, browserOf(request), body.password));
    });

    app.post('/organization/select', async (request, reply) => {
      const body = parseBody(headlessOrganizationSelectBodySchema, request.body);
      const answer = await headless.selectOrganization(
        body.requestId,
        browserOf(request),
        body.organizationId,
        body.pendingToken,
      );
      return send(reply, answer);
    });

    app.post('/mfa/verify', async (request, reply) => {
      const body = parseBody(headlessMfaCodeBodySchema, request.body);
      return send(reply, await headless.verifyMfa(body.requestId, browserOf(request), body.code));
    });

    // Enrollment starts when the request reaches it; this answers its view (QR code and secret).
    app.post('/mfa/totp/enroll/start', async (request, reply) => {
      const body = parseBody(headlessRequestBodySchema, request.body);
      return send(reply, await headless.current(body.requestId, browserOf(request)));
    });

    app.post('/mfa/totp/enroll/verify', async (request, reply) => {
      const body = parseBody(headlessMfaCodeBodySchema, request.body);
      return send(reply, await headless.verifyEnrollment(body.requestId, browserOf(request), body.code));
    });

    for (const decision of ['approve', 'deny'] as const) {
      app.post(`/consent/${decision}`, async (request, reply) => {
        const body = parseBody(headlessConsentBodySchema, request.body);
        const answer = await headless.consent(
          body.requestId,
          browserOf(request),
          body.consentToken,
          decision,
        );
        return send(reply, answer);
      });
    }
  };
}
