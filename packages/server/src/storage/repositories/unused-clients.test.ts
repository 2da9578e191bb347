import { expect, it } from 'vitest';
import type { ClientRegistrationMetadata } from '../../directory/repository.js';
import { authRequestRecord } from '../../test-support/auth-request-record.js';
import { clientRecord } from '../../test-support/client-record.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { useFreshMigratedDatabase } from '../../test-support/fresh-database.js';
import { insertUserRows } from '../../test-support/user-rows.js';
import { applicationAccessRepository } from './application-access.js';
import { authRequestRepository } from './auth-requests.js';
import { clientRepository } from './clients.js';
import { tokenStore } from './token-store.js';

const DAY = 86_400_000;

describeEachDatabase(
  'client storage: first use, and deleting unused self-described clients (0035)',
  (kind) => {
    // The client ids are fixed and the deletion sweeps the whole table: each test has a database of its own.
    const h = useFreshMigratedDatabase(kind);
    const registered = (method: ClientRegistrationMetadata['method']): ClientRegistrationMetadata => ({
      method,
      clientUri: null,
      logoUri: null,
      softwareId: null,
      softwareVersion: null,
      document: method === 'dynamic' ? null : { fetchedAt: 0, freshUntil: DAY },
      firstUsedAt: null,
    });
    const clients = () => clientRepository(h.db);
    const store = async (clientId: string, overrides: Parameters<typeof clientRecord>[0] = {}) => {
      await clients().insertIfClientIdFree(
        clientRecord({
          id: `cli_${clientId}`,
          clientId,
          isFirstParty: false,
          createdAt: 0,
          updatedAt: 0,
          registration: registered('dynamic'),
          ...overrides,
        }),
      );
    };

    it('notes the first use once, and keeps it when the registration is rewritten', async () => {
      await store('dcr_used');
      await clients().markFirstUse('dcr_used', 5_000);
      await clients().markFirstUse('dcr_used', 9_000);
      await clients().update('dcr_used', { registration: registered('dynamic'), name: 'Renamed' }, 10_000);
      expect((await clients().findByClientId('dcr_used'))?.registration?.firstUsedAt).toBe(5_000);
      // An operator's client has no registration to note it in.
      await store('operator-made', { registration: null });
      await clients().markFirstUse('operator-made', 5_000);
      expect((await clients().findByClientId('operator-made'))?.registration).toBeNull();
    });

    it('deletes only the self-described clients never used and untouched since the cut-off', async () => {
      const user = { id: 'usr_ada' };
      await insertUserRows(h.db, [user.id], 0);
      await store('dcr_junk');
      await store('https://junk.example/client.json', { registration: registered('metadata_document') });
      await store('dcr_used');
      await clients().markFirstUse('dcr_used', 1_000);
      await store('dcr_recent', { createdAt: 9 * DAY, updatedAt: 9 * DAY });
      await store('dcr_deactivated', { active: false });
      await store('dcr_adopted', { isFirstParty: true });
      await store('operator-made', { registration: null });
      // Tokens were issued, but the first use was never noted (a lost write): the session keeps it.
      await store('dcr_with_session');
      await tokenStore(h.db).createSession(
        {
          id: 'ses_1',
          userId: user.id,
          clientId: 'dcr_with_session',
          organizationId: null,
          grantedScopes: [],
          resource: null,
          amr: ['pwd'],
          authTime: 0,
          userAgent: null,
          ipAddress: null,
          createdAt: 0,
          lastSeenAt: 0,
          idleExpiresAt: DAY,
          absoluteExpiresAt: DAY,
          revokedAt: null,
          revokedReason: null,
        },
        {
          id: 'rft_1',
          sessionId: 'ses_1',
          tokenHash: 'hash',
          createdAt: 0,
          expiresAt: DAY,
          consumedAt: null,
          revokedAt: null,
        },
      );

      // A user is signing in with it right now: the authorization request keeps it.
      await store('dcr_signing_in');
      await authRequestRepository(h.db).insert(authRequestRecord(8 * DAY, { clientId: 'dcr_signing_in' }));

      // An operator restricted who may use it: an access assignment keeps it.
      await store('dcr_assigned');
      await applicationAccessRepository(h.db).insertAssignment({
        id: 'apa_1',
        clientId: 'dcr_assigned',
        principalType: 'user',
        principalId: user.id,
        organizationId: null,
        roleKey: null,
        effect: 'allow',
        createdAt: 0,
      });

      const deleted = await clients().deleteUnused(7 * DAY);
      expect(deleted.sort()).toEqual(['dcr_junk', 'https://junk.example/client.json']);
      const left = (await clients().list({ limit: 20 })).data.map((client) => client.clientId).sort();
      expect(left).toEqual([
        'dcr_adopted',
        'dcr_assigned',
        'dcr_deactivated',
        'dcr_recent',
        'dcr_signing_in',
        'dcr_used',
        'dcr_with_session',
        'operator-made',
      ]);
      expect(await clients().deleteUnused(7 * DAY)).toEqual([]);
    });
  },
);
