import type { FastifyPluginAsync } from 'fastify';
import { emailVerificationRoutes } from './account/email-verification-routes.js';
import { passwordResetRoutes } from './account/password-reset-routes.js';
import { invitationRoutes } from './invitations/invitation-routes.js';
import { consentRoutes } from './consent/consent-routes.js';
import { deviceRoutes } from './device/device-routes.js';
import { emailOtpRoutes } from './login/email-otp-routes.js';
import { magicLinkRoutes } from './magic-link-routes.js';
import { loginRoutes } from './login/login-routes.js';
import { endSessionRoutes } from './logout/end-session-routes.js';
import { logoutRoutes } from './logout/logout-routes.js';
import { mfaRoutes } from './login/mfa-routes.js';
import { phoneOtpRoutes } from './login/phone-otp-routes.js';
import { providerRoutes } from './login/provider-routes.js';
import { phoneSignupRoutes } from './signup/phone-signup-routes.js';
import { signupRoutes } from './signup/signup-routes.js';
import type { HostedSignInDeps } from './sign-in-deps.js';
import { EMAIL_OTP } from '../signin/methods/email-otp/method.js';
import { INVITATION } from '../signin/methods/invitation/invitation-steps.js';
import { MAGIC_LINK } from '../signin/methods/magic-link/method.js';
import { PROVIDER } from '../signin/methods/oidc/method.js';
import { EMAIL_SIGNUP, SIGNUP } from '../signin/methods/signup/method.js';

/**
 * Every hosted sign-in route: GET /login, POST /login/identify, /login/password,
 * /login/select-organization, POST /consent/approve, /consent/deny, GET /logout, RP-initiated logout
 * (/session/end, /session/end/confirm) and the device pages (/device, /device/verify, /device/approve,
 * /device/deny). Pass it in
 * `hostedRoutes({ routes: [authorizeRoutes(deps), hostedSignInRoutes(deps)] })`, so that the routes get
 * the form parser, cookies, security headers, antiforgery check and error page of the hosted plugin.
 */
export function hostedSignInRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  return async (app) => {
    await app.register(loginRoutes(deps));
    await app.register(mfaRoutes(deps));
    await app.register(consentRoutes(deps));
    await app.register(deviceRoutes(deps));
    await app.register(logoutRoutes(deps));
    await app.register(endSessionRoutes(deps));
    if (deps.account !== undefined) {
      await app.register(passwordResetRoutes({ ...deps, account: deps.account }));
      await app.register(emailVerificationRoutes({ ...deps, account: deps.account }));
    }
    // Each method's routes exist only when the deployment registered the method.
    const methods = deps.flow.methods;
    const invitations = methods.get(INVITATION);
    if (invitations !== undefined) {
      await app.register(invitationRoutes({ ...deps, invitations: invitations.acceptance }));
    }
    // Mapped without SMS too: the phone pages then say that phone sign-in is not available.
    await app.register(phoneOtpRoutes(deps));
    await app.register(phoneSignupRoutes(deps));
    const signup = methods.get(SIGNUP);
    if (signup !== undefined) await app.register(signupRoutes({ ...deps, signup }));
    const emailOtp = methods.get(EMAIL_OTP);
    if (emailOtp !== undefined) {
      const emailSignup = methods.get(EMAIL_SIGNUP);
      await app.register(
        emailOtpRoutes({ ...deps, emailOtp, ...(emailSignup === undefined ? {} : { emailSignup }) }),
      );
    }
    const provider = methods.get(PROVIDER);
    if (provider !== undefined) await app.register(providerRoutes({ ...deps, provider }));
    const magicLinkLanding = methods.get(MAGIC_LINK);
    if (magicLinkLanding !== undefined) await app.register(magicLinkRoutes({ ...deps, magicLinkLanding }));
  };
}
