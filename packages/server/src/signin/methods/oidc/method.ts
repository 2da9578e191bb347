import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';
import { ProviderSteps, type ProviderSignIn } from './provider-steps.js';

export const PROVIDER: SignInMethodKey<ProviderSteps> = signInMethodKey('provider');

/**
 * Sign-in through external providers (Google, Microsoft, Apple, GitHub, any OpenID provider): every page
 * offers the enabled ones, the hosted `/login/oidc/{connectionId}` and headless `/provider/start` start
 * one, and `/oidc/callback` continues the request.
 */
export function providerMethod(signIn: ProviderSignIn): SignInMethodRegistration {
  return ({ steps }) => {
    const actions = new ProviderSteps(steps, signIn);
    return { key: PROVIDER, actions, providers: () => actions.providers() };
  };
}
