import { singleValue } from '../login/request-values.js';
import type { EndSessionRequest } from './end-session.js';
import type { LogoutParameters } from '../../signin/browser-logout.js';

/**
 * The parameter names of GET /logout, of `/session/end` and of its confirmation form: OpenID Connect
 * RP-Initiated Logout 1.0 §2.
 */
export const LOGOUT_FIELDS = Object.freeze({
  idTokenHint: 'id_token_hint',
  clientId: 'client_id',
  postLogoutRedirectUri: 'post_logout_redirect_uri',
  state: 'state',
});

/** The logout parameters of a parsed query or form body; a repeated or non-string one is absent. */
export function logoutParameters(source: unknown): LogoutParameters {
  return {
    clientId: singleValue(source, LOGOUT_FIELDS.clientId),
    postLogoutRedirectUri: singleValue(source, LOGOUT_FIELDS.postLogoutRedirectUri),
    state: singleValue(source, LOGOUT_FIELDS.state),
  };
}

/** A `/session/end` request from a parsed query or form body: the logout parameters and the hint. */
export function endSessionRequest(source: unknown): EndSessionRequest {
  return Object.assign(logoutParameters(source), {
    idTokenHint: singleValue(source, LOGOUT_FIELDS.idTokenHint),
  });
}

/** The parameters that are present, under their names, for a form's hidden fields or a query. */
export function presentFields(
  parameters: Readonly<Partial<Record<keyof typeof LOGOUT_FIELDS, string | undefined>>>,
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [key, name] of Object.entries(LOGOUT_FIELDS)) {
    const value = parameters[key as keyof typeof LOGOUT_FIELDS];
    if (value !== undefined) fields[name] = value;
  }
  return fields;
}
