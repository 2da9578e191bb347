import type { Page, PageQuery, SsoPortalLinkListInput } from '@svc/contract';

/** A setup link; its token is stored only as its SHA-256. Times are epoch milliseconds. */
export interface SsoPortalLinkRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly tokenHash: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** When the token was exchanged for a portal session (a link is exchanged at most once). */
  readonly consumedAt: number | null;
  readonly revokedAt: number | null;
}

/** What a test sign-in recorded, times in epoch milliseconds. */
export type PortalTestResult =
  | {
      readonly outcome: 'accepted';
      readonly connectionId: string;
      readonly at: number;
      readonly nameId: string;
      readonly nameIdFormat: string | null;
      readonly email: string;
      readonly attributes: Readonly<Record<string, readonly string[]>>;
    }
  | {
      readonly outcome: 'refused';
      readonly connectionId: string;
      readonly at: number;
      readonly message: string;
    };

/** A portal session: organization-scoped, its cookie's secret stored only as its SHA-256. */
export interface SsoPortalSessionRecord {
  readonly id: string;
  readonly linkId: string;
  readonly organizationId: string;
  readonly secretHash: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly testResult: PortalTestResult | null;
}

/** The storage of setup links and portal sessions (the portal's own tables). */
export interface SsoPortalRepository {
  insertLink(record: SsoPortalLinkRecord): Promise<void>;
  findLink(id: string): Promise<SsoPortalLinkRecord | undefined>;
  /** The organization's links, newest first. */
  listLinks(organizationId: string, page: PageQuery): Promise<Page<SsoPortalLinkRecord>>;
  /** Every organization's links, or one organization's, newest first. */
  listAllLinks(query: SsoPortalLinkListInput): Promise<Page<SsoPortalLinkRecord>>;
  /** Sets `revokedAt` unless already set; the link as it is now, or undefined for an unknown id. */
  revokeLink(id: string, now: number): Promise<SsoPortalLinkRecord | undefined>;
  /**
   * Marks the link of `tokenHash` consumed if it is neither consumed, revoked nor expired at `now`, and
   * returns it; undefined to every other caller (one conditional UPDATE).
   */
  consumeLink(tokenHash: string, now: number): Promise<SsoPortalLinkRecord | undefined>;
  insertSession(record: SsoPortalSessionRecord): Promise<void>;
  /** The session of `secretHash` if it has not expired at `now` and its link is not revoked. */
  findLiveSession(secretHash: string, now: number): Promise<SsoPortalSessionRecord | undefined>;
  /** The session of `id` if it has not expired at `now` and its link is not revoked. */
  findLiveSessionById(id: string, now: number): Promise<SsoPortalSessionRecord | undefined>;
  /** Replaces the session's last test result. */
  recordTestResult(sessionId: string, result: PortalTestResult): Promise<void>;
}
