import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt, type JWTPayload } from 'jose';
import { expect } from 'vitest';
import { authorizeQuery, pkcePair } from '../authorize-params.js';
import type { HostedTestApp } from '../hosted-test-app.js';
import { InjectBrowser } from '../inject-browser.js';
import type { SamlPeer, SamlPeerUser, SamlPost } from './saml-peer.js';
import { postToAcs } from './sso-connections.js';

/** A hosted SAML sign-in driven the way a browser and the IdP drive it. */
export interface SamlBrowserFlow {
  /** A browser that identified `email` at a new request: the response that follows, and the verifier. */
  identify(
    email: string,
  ): Promise<{ b: InjectBrowser; verifier: string; identified: LightMyRequestResponse }>;
  /** Identify `email` → IdP (asserting `asserted`, by default that address) → ACS: its answer and the browser. */
  throughIdp(
    email: string,
    nameId?: string,
    asserted?: SamlPeerUser,
  ): Promise<{ b: InjectBrowser; verifier: string; post: SamlPost; acs: LightMyRequestResponse }>;
  /** The whole round trip to the client's code and the ID token's claims. */
  signInThroughIdp(
    email: string,
    nameId?: string,
    asserted?: SamlPeerUser,
  ): Promise<{ b: InjectBrowser; continueUrl: URL; claims: JWTPayload }>;
  /** Identify → IdP → ACS → continue: the error page the browser ends on. */
  refusedAtContinue(email: string, asserted?: SamlPeerUser): Promise<LightMyRequestResponse>;
}

/** The hosted SAML sign-in of `clientId` (a first-party client with `openid email`) through `peer`. */
export function samlBrowserFlow(h: HostedTestApp, peer: SamlPeer, clientId: string): SamlBrowserFlow {
  const flow: SamlBrowserFlow = {
    async identify(email) {
      const { verifier, challenge } = pkcePair();
      const b = new InjectBrowser(h);
      await b.follow(
        await b.authorize(authorizeQuery(clientId, { scope: 'openid email', code_challenge: challenge })),
      );
      const identified = await b.post('/login/identify', { email });
      return { b, verifier, identified };
    },
    async throughIdp(email, nameId, asserted) {
      const { b, verifier, identified } = await flow.identify(email);
      expect(identified.statusCode).toBe(303);
      const idp = InjectBrowser.location(identified);
      expect(`${idp.origin}${idp.pathname}`).toBe(peer.ssoUrl);
      const user = asserted ?? { email, ...(nameId === undefined ? {} : { nameId }) };
      const post = await peer.signIn(idp.href, user);
      const acs = await postToAcs(h, peer, post);
      return { b, verifier, post, acs };
    },
    async signInThroughIdp(email, nameId, asserted) {
      const { b, verifier, acs } = await flow.throughIdp(email, nameId, asserted);
      expect(acs.statusCode).toBe(303);
      const continueUrl = InjectBrowser.location(acs);
      expect(continueUrl.pathname).toBe(`${h.authBase}/saml/continue`);
      const done = await b.follow(await b.get(continueUrl.href));
      const redirect = InjectBrowser.location(done);
      expect(redirect.origin + redirect.pathname).toBe('https://app.example.com/callback');
      const tokens = await h.redeem(redirect, clientId, verifier);
      return { b, continueUrl, claims: decodeJwt(tokens.idToken ?? '') };
    },
    async refusedAtContinue(email, asserted) {
      const { b, acs } = await flow.throughIdp(email, undefined, asserted);
      expect(acs.statusCode).toBe(303);
      const page = await b.get(InjectBrowser.location(acs).href);
      expect(page.statusCode).toBe(400);
      expect(page.headers['content-type']).toContain('text/html');
      return page;
    },
  };
  return flow;
}
