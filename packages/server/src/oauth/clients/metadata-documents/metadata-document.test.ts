import { describe, expect, it } from 'vitest';
import { hostAllowed, looksLikeDocumentUrl, readClientIdUrl } from './client-id-url.js';
import { DOCUMENT_LIFETIME, lifetimeSeconds, readMetadataDocument } from './metadata-document.js';

const POLICY = { allowedScopes: [], maxScopeCount: 32, maxScopeLength: 128 };

describe('readClientIdUrl', () => {
  it.each([
    'https://app.example/oauth/client.json',
    'https://app.example:8443/client',
    'https://app.example/client?v=2',
    'https://xn--bcher-kva.example/client.json',
  ])('takes %s', (clientId) => {
    expect(readClientIdUrl(clientId, { loopback: false })).toMatchObject({ ok: true });
  });

  it.each([
    ['http elsewhere', 'http://app.example/client.json', 'must use https'],
    ['http on loopback outside development', 'http://127.0.0.1:3000/client.json', 'must use https'],
    ['credentials', 'https://me:pw@app.example/client.json', 'user name or password'],
    ['a fragment', 'https://app.example/client.json#x', 'fragment'],
    ['an empty fragment', 'https://app.example/client.json#', 'fragment'],
    ['no path', 'https://app.example', 'must have a path'],
    ['the root path', 'https://app.example/', 'must have a path'],
    [
      'a dot segment',
      'https://app.example/a/../client.json',
      'normal form (https://app.example/client.json)',
    ],
    ['an encoded dot segment', 'https://app.example/%2e%2e/client.json', 'normal form'],
    ['an upper-case host', 'https://App.example/client.json', 'normal form'],
    ['the default port', 'https://app.example:443/client.json', 'normal form'],
    ['a Unicode host', 'https://bücher.example/client.json', 'normal form'],
    // An error_description may not hold a backslash (RFC 6749 §5.2): the normal form is then not quoted.
    [
      'an upper-case host, a backslash after',
      'https://App.example/c?a\\b',
      'normal form (as a URL parser writes it)',
    ],
    ['not a URL', 'https://', 'not a URL'],
    ['an overlong URL', `https://app.example/${'a'.repeat(2100)}`, 'longer than 2048'],
  ])('refuses %s', (_name, clientId, problem) => {
    const read = readClientIdUrl(clientId, { loopback: false });
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.problem).toContain(problem);
  });

  it('takes http on a loopback host in development only', () => {
    expect(readClientIdUrl('http://127.0.0.1:3000/client.json', { loopback: true }).ok).toBe(true);
    expect(readClientIdUrl('http://localhost:3000/client.json', { loopback: true }).ok).toBe(true);
    expect(readClientIdUrl('http://app.example/client.json', { loopback: true })).toEqual({
      ok: false,
      problem: 'it must use https (http only on a loopback host)',
    });
  });

  it('tells a URL from a client_id Svc generated', () => {
    expect(looksLikeDocumentUrl('https://app.example/c')).toBe(true);
    expect(looksLikeDocumentUrl('dcr_0123')).toBe(false);
    expect(looksLikeDocumentUrl('my-app')).toBe(false);
  });
});

describe('hostAllowed', () => {
  it('allows any host without patterns, else exact names and subdomains of a pattern', () => {
    expect(hostAllowed('anything.example', [])).toBe(true);
    const patterns = ['app.example.com', '*.apps.example'];
    expect(hostAllowed('app.example.com', patterns)).toBe(true);
    expect(hostAllowed('a.b.apps.example', patterns)).toBe(true);
    expect(hostAllowed('apps.example', patterns)).toBe(false);
    expect(hostAllowed('evilapps.example', patterns)).toBe(false);
    expect(hostAllowed('sub.app.example.com', patterns)).toBe(false);
  });
});

describe('lifetimeSeconds', () => {
  it.each([
    [undefined, DOCUMENT_LIFETIME.defaultSeconds],
    ['public', DOCUMENT_LIFETIME.defaultSeconds],
    ['max-age=600', 600],
    ['public, Max-Age=900', 900],
    ['max-age=5', DOCUMENT_LIFETIME.minSeconds],
    ['max-age=31536000', DOCUMENT_LIFETIME.maxSeconds],
    ['no-store', DOCUMENT_LIFETIME.minSeconds],
    ['max-age=600, no-cache', DOCUMENT_LIFETIME.minSeconds],
    ['max-age="600"', DOCUMENT_LIFETIME.defaultSeconds],
  ])('reads %s as %i seconds', (cacheControl, seconds) => {
    expect(lifetimeSeconds(cacheControl)).toBe(seconds);
  });
});

describe('readMetadataDocument', () => {
  const clientId = 'https://app.example/client.json';
  const read = (body: unknown, contentType = 'application/json') =>
    readMetadataDocument(
      {
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': contentType },
      },
      clientId,
      POLICY,
    );

  it('reads a document as a registration of a public client', () => {
    const document = read(
      { client_id: clientId, client_name: 'App', redirect_uris: ['https://app.example/cb'], scope: 'openid' },
      'application/example+json; charset=utf-8',
    );
    expect(document).toMatchObject({
      ok: true,
      request: { clientName: 'App', redirectUris: ['https://app.example/cb'], scopes: ['openid'] },
      lifetimeSeconds: DOCUMENT_LIFETIME.defaultSeconds,
    });
  });

  it.each([
    ['not JSON', '{', 'application/json', 'not valid JSON'],
    ['an array', [], 'application/json', 'JSON object'],
    ['text', { client_id: clientId }, 'text/plain', 'application/json'],
    [
      'a client_id differing in case',
      { client_id: clientId.toUpperCase() },
      'application/json',
      'exactly the URL',
    ],
    [
      'an expiry of a secret',
      { client_id: clientId, client_secret_expires_at: 0 },
      'application/json',
      'client_secret',
    ],
    [
      'private_key_jwt, which Svc does not support',
      {
        client_id: clientId,
        redirect_uris: ['https://app.example/cb'],
        token_endpoint_auth_method: 'private_key_jwt',
      },
      'application/json',
      'use none',
    ],
  ])('refuses %s', (_name, body, contentType, problem) => {
    const document = read(body, contentType);
    expect(document.ok).toBe(false);
    expect(document.ok ? '' : document.problem).toContain(problem);
  });
});
