import {
  svcLoginResultSchema,
  type CreateClientBody,
  type SvcCreatedClient,
  type SvcLoginResult,
  type SvcOrganization,
  type SvcUser,
} from '@svc/contract';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ClientRecord } from '../directory/repository.js';
import type { SvcOptions } from '../config/options.js';
import type { Dialect } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { createTestSvc, type TestSvc } from './test-svc.js';

export const DIRECT_PASSWORD = 'correct horse battery staple';

/** An audit event row as the direct tests read it. */
export interface AuditRow {
  readonly kind: string;
  readonly actorType: string | null;
  readonly actorId: string | null;
  readonly userId: string | null;
  readonly clientId: string | null;
  readonly ipAddress: string | null;
  readonly data: Record<string, unknown>;
}

export interface DirectHarness {
  readonly t: TestSvc;
  /** What the tests inject into: today a standalone app with only the direct routes, later `svc.app`. */
  readonly app: FastifyInstance;
  readonly authBase: string;
  /** POST `{authBase}{path}` with a JSON body (an object is serialized; a string is sent as is). */
  post(
    path: string,
    payload?: object | string,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  readonly given: {
    /** An active user with DIRECT_PASSWORD. */
    user(email?: string): Promise<SvcUser & { readonly email: string }>;
    organization(name?: string): Promise<SvcOrganization>;
    membership(organizationId: string, userId: string, role?: string): Promise<void>;
    /** A first-party public client by default, with its stored record. */
    client(body?: Partial<CreateClientBody>): Promise<SvcCreatedClient & { record: ClientRecord }>;
  };
  /** POST /password/login that must answer 200; the body parsed with the contract schema. */
  login(email: string, clientId: string, organizationId?: string): Promise<SvcLoginResult>;
  /** Audit events of a kind (optionally of one client; null = events without a client). */
  events(kind: string, clientId?: string | null): Promise<AuditRow[]>;
  close(): Promise<void>;
}

let counter = 0;
/** A name no other test of the run uses, so that tests may share one Svc. */
export const unique = (prefix: string) => `${prefix}-${process.pid}-${(counter += 1)}`;

/** The direct JSON helpers of a test Svc on `kind` (with `options`), through the real app (`svc.app`). */
export async function createDirectHarness(
  kind: Dialect = 'sqlite',
  options: SvcOptions = {},
): Promise<DirectHarness> {
  const t = await createTestSvc(kind, options);
  const { svc } = t;
  const app = svc.app;
  const clients = clientRepository(svc.database.db);
  const authBase = svc.config.authBase;
  const inject = (options: InjectOptions) => app.inject(options);
  const post = (path: string, payload?: object | string, headers: Record<string, string> = {}) =>
    inject({
      method: 'POST',
      url: `${authBase}${path}`,
      headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(payload === undefined
        ? {}
        : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });

  return {
    t,
    app,
    authBase,
    post,
    inject,
    given: {
      user: (email) =>
        svc.admin.createUserAsync({
          displayName: 'Ann Example',
          email: email ?? `${unique('user')}@example.com`,
          password: DIRECT_PASSWORD,
        }),
      organization: (name) => svc.admin.createOrganizationAsync({ name: name ?? unique('Org') }),
      membership: async (organizationId, userId, role = 'member') => {
        await svc.admin.createMembershipAsync({ organizationId, userId, role });
      },
      client: async (body = {}) => {
        const created = await svc.admin.createClientAsync({
          clientId: unique('app'),
          name: 'Example App',
          audience: 'https://api.example.com',
          redirectUris: ['https://app.example.com/callback'],
          isFirstParty: true,
          allowedScopes: ['openid', 'profile', 'api:read'],
          ...body,
        });
        const record = await clients.findByClientId(created.clientId);
        if (record === undefined) throw new Error('client not stored');
        return { ...created, record };
      },
    },
    async login(email, clientId, organizationId) {
      const response = await post('/password/login', {
        email,
        password: DIRECT_PASSWORD,
        clientId,
        ...(organizationId === undefined ? {} : { organizationId }),
      });
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
      return svcLoginResultSchema.parse(response.json());
    },
    async events(kind, clientId) {
      let query = svc.database.db.selectFrom('auditEvents').selectAll().where('kind', '=', kind);
      if (clientId !== undefined) {
        query =
          clientId === null ? query.where('clientId', 'is', null) : query.where('clientId', '=', clientId);
      }
      const rows = await query.orderBy('occurredAt').orderBy('id').execute();
      return rows.map((row) => ({
        kind: row.kind,
        actorType: row.actorType,
        actorId: row.actorId,
        userId: row.userId,
        clientId: row.clientId,
        ipAddress: row.ipAddress,
        data: JSON.parse(row.dataJson) as Record<string, unknown>,
      }));
    },
    close: () => t.close(),
  };
}
