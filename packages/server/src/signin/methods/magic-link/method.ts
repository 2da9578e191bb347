import type { MagicLinks } from './magic-links.js';
import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';
import { MagicLinkLanding } from './magic-link-landing.js';

export const MAGIC_LINK: SignInMethodKey<MagicLinkLanding> = signInMethodKey('magic-link');

/** What an emailed sign-in link opens (/magic-link); the email method sends the links. */
export function magicLinkMethod(magicLinks: Pick<MagicLinks, 'find' | 'consume'>): SignInMethodRegistration {
  return ({ steps, deps }) => ({
    key: MAGIC_LINK,
    actions: new MagicLinkLanding({
      steps,
      requests: deps.requests,
      magicLinks,
      findClient: (clientId) => deps.findClient(clientId),
      clock: deps.clock,
    }),
  });
}
