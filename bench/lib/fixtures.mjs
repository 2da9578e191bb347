import { createHash } from 'node:crypto';

// What both servers are seeded with, so that every scenario sends the same requests to each.

export const USER = Object.freeze({
  email: 'bench@example.com',
  password: 'correct horse battery staple',
  name: 'Bench User',
});

/** The public PKCE code-flow client (first-party on Svc, so no consent step). */
export const WEB_CLIENT = Object.freeze({
  clientId: 'web',
  redirectUri: 'https://app.example.com/cb',
  scope: 'openid profile email offline_access read',
});

/** The confidential client_credentials client. */
export const CC_CLIENT = Object.freeze({
  clientId: 'cc',
  scope: 'read',
});

/** The API both servers issue JWT access tokens for (Svc: the client's audience; peer: resource indicator). */
export const API_AUDIENCE = 'https://api.example.com';

const verifier = 'bench-pkce-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';

/** One fixed PKCE pair (S256): every pre-minted code is bound to it. */
export const PKCE = Object.freeze({
  verifier,
  challenge: createHash('sha256').update(verifier).digest('base64url'),
});
