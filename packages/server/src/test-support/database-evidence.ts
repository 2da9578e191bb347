import type pg from 'pg';
import { refreshTokenKey } from '../oauth/tokens/refresh-token-value.js';

/** What the database says about a refresh whose answer was lost, read with plain SQL (storage/schema.ts). */
export interface CommitEvidence {
  readonly confirmed: boolean;
  readonly evidence: string;
}

/**
 * Whether a refresh token answered "already used" on its retry was consumed by the refresh that got a
 * 503: the token is consumed, its session got a newer token at that moment (the answer that never
 * arrived), and the retry left an `oauth.refresh_token.reuse_in_grace` event (the family was kept).
 */
export async function ambiguousCommitEvidence(pool: pg.Pool, refreshToken: string): Promise<CommitEvidence> {
  const { id, tokenHash } = refreshTokenKey(refreshToken);
  const { rows } = await pool.query<{
    session_id: string;
    consumed_at: string | null;
    revoked_at: string | null;
    successors: number;
    reuse_events: number;
  }>(
    `SELECT t.session_id, t.consumed_at, t.revoked_at,
       (SELECT count(*)::int FROM refresh_tokens n
         WHERE n.session_id = t.session_id AND n.id <> t.id AND n.created_at >= t.consumed_at) AS successors,
       (SELECT count(*)::int FROM audit_events e
         WHERE e.kind = 'oauth.refresh_token.reuse_in_grace'
           AND e.data_json::jsonb ->> 'sessionId' = t.session_id) AS reuse_events
     FROM refresh_tokens t WHERE t.id = $1 AND t.token_hash = $2`,
    [id, tokenHash],
  );
  const row = rows[0];
  if (row === undefined) return { confirmed: false, evidence: `no refresh_tokens row ${String(id)}` };
  const evidence =
    `token ${String(id)} of session ${row.session_id}: consumed_at ${String(row.consumed_at)}, ` +
    `revoked_at ${String(row.revoked_at)}, ${row.successors} newer token(s), ` +
    `${row.reuse_events} reuse_in_grace event(s)`;
  return {
    confirmed:
      row.consumed_at !== null && row.revoked_at === null && row.successors > 0 && row.reuse_events > 0,
    evidence,
  };
}

/** Sessions (refresh-token families) holding more than one live token: not consumed, revoked or expired. */
export async function familiesWithTwoLiveTokens(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ session_id: string; live: number }>(
    `SELECT session_id, count(*)::int AS live FROM refresh_tokens
     WHERE consumed_at IS NULL AND revoked_at IS NULL AND expires_at > $1
     GROUP BY session_id HAVING count(*) > 1`,
    [Date.now()],
  );
  return rows.map((r) => `session ${r.session_id}: ${r.live} live refresh tokens`);
}

/** The kid of the key that signs now. */
export async function activeSigningKid(pool: pg.Pool): Promise<string | undefined> {
  const { rows } = await pool.query<{ kid: string }>('SELECT kid FROM signing_keys WHERE active_slot = 1');
  return rows[0]?.kid;
}
