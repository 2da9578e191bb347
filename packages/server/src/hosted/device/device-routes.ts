import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { retryAfterSeconds } from '../../kernel/errors.js';
import {
  DEVICE_VERIFY_MESSAGES,
  type DeviceDecisionOutcome,
  type DeviceVerifyError,
} from '../../signin/methods/device/device-steps.js';
import { formatUserCode, normalizeUserCode } from '../../oauth/device/user-code.js';
import { issueAntiforgeryToken } from '../antiforgery-hook.js';
import { currentStepHref, HOSTED_FIELDS } from '../form.js';
import { sendStep } from '../login/outcome-reply.js';
import { browserContext, ensureBrowserId, singleValue } from '../login/request-values.js';
import { renderDeviceCodePage } from '../pages/device-code-page.js';
import { renderDeviceResultPage } from '../pages/device-result-page.js';
import { redirectAfterPost, sendPage } from '../../http/pages/reply.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { DEVICE } from '../../signin/methods/device/device-steps.js';

/** The longest typed value shown again in the field (the field's own maxlength). */
const MAX_PREFILL_LENGTH = 64;

/** A user code as the field shows it: `XXXX-XXXX` when it is one, else as typed (short values only). */
function prefill(value: string | undefined): string {
  if (value === undefined) return '';
  const normalized = normalizeUserCode(value);
  if (normalized !== null) return formatUserCode(normalized);
  return value.length <= MAX_PREFILL_LENGTH ? value : '';
}

/**
 * The hosted pages of the device authorization grant (docs/reference/tokens-and-sessions.md "Device authorization grant"): GET /device (the
 * verification_uri), POST /device/verify, GET /device/approve, POST /device/approve and /device/deny.
 * Between verify and the approval the browser signs in through the usual /login pages of the device
 * request. Registered inside `hostedRoutes`, so every post has passed the antiforgery check.
 */
export function deviceRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  const { authBase } = deps.site;
  const device = deps.flow.methods.require(DEVICE);

  const sendCodePage = (
    request: FastifyRequest,
    reply: FastifyReply,
    userCode: string,
    error?: DeviceVerifyError,
  ) => {
    const page = renderDeviceCodePage({
      authBase,
      antiforgeryToken: issueAntiforgeryToken(deps.antiforgery, deps.site, request, reply),
      userCode: prefill(userCode),
      ...(error === undefined ? {} : { error: DEVICE_VERIFY_MESSAGES[error] }),
    });
    const status = error === undefined ? 200 : error === 'device_code_rate_limited' ? 429 : 400;
    return sendPage(reply, page, status);
  };

  const sendDecision = (reply: FastifyReply, outcome: DeviceDecisionOutcome) =>
    outcome.kind === 'next'
      ? redirectAfterPost(reply, currentStepHref(authBase, outcome.requestId))
      : sendPage(
          reply,
          renderDeviceResultPage({ authBase, clientName: outcome.clientName, decision: outcome.decision }),
        );

  return async (app) => {
    app.get('/device', async (request, reply) =>
      sendCodePage(request, reply, singleValue(request.query, HOSTED_FIELDS.userCode) ?? ''),
    );

    app.post('/device/verify', async (request, reply) => {
      const browserId = ensureBrowserId(deps.antiforgery, deps.site, request, reply);
      const outcome = await device.verify(singleValue(request.body, HOSTED_FIELDS.userCode), {
        ...browserContext(request),
        browserId,
      });
      if (outcome.kind === 'next') {
        return redirectAfterPost(reply, currentStepHref(authBase, outcome.requestId));
      }
      if (outcome.retryAfterMs !== undefined) {
        reply.header('retry-after', String(retryAfterSeconds(outcome.retryAfterMs)));
      }
      return sendCodePage(request, reply, outcome.userCode, outcome.error);
    });

    app.get('/device/approve', async (request, reply) => {
      const outcome = await device.approvalPage(
        singleValue(request.query, HOSTED_FIELDS.requestId),
        browserContext(request),
      );
      if (outcome.kind === 'step') return sendStep(reply, request, deps, outcome.step);
      return reply.redirect(currentStepHref(authBase, outcome.requestId), 302);
    });

    app.post('/device/approve', async (request, reply) =>
      sendDecision(
        reply,
        await device.approve(singleValue(request.body, HOSTED_FIELDS.requestId), browserContext(request)),
      ),
    );

    app.post('/device/deny', async (request, reply) =>
      sendDecision(
        reply,
        await device.deny(singleValue(request.body, HOSTED_FIELDS.requestId), browserContext(request)),
      ),
    );
  };
}
