import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';
import { SamlSteps, type SamlSignInDeps } from './saml-steps.js';

export const SAML: SignInMethodKey<SamlSteps> = signInMethodKey('saml');

/**
 * Sign-in through an organization's SAML IdP, found by home-realm discovery: an identified email of an
 * SSO domain goes straight to the IdP (hosted identify step and headless `/identify`), and the accepted
 * answer (`/saml/acs/{connectionId}`, then `/saml/continue`) continues the request.
 */
export function samlMethod(deps: SamlSignInDeps): SignInMethodRegistration {
  return ({ steps }) => {
    const actions = new SamlSteps(steps, deps);
    return {
      key: SAML,
      actions,
      claimIdentified: (request) => actions.claim(request),
    };
  };
}
