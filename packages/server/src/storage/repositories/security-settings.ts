import type { SecuritySettings, SecuritySettingsRepository } from '../../settings/repository.js';
import type { Db } from '../database.js';

const ID = 'global';

export function securitySettingsRepository(db: Db): SecuritySettingsRepository {
  const read = async (): Promise<SecuritySettings | undefined> => {
    const row = await db.selectFrom('securitySettings').selectAll().where('id', '=', ID).executeTakeFirst();
    if (row === undefined) return undefined;
    const { id: _id, updatedAt: _updatedAt, ...settings } = row;
    return settings;
  };
  return {
    get: read,
    async initialize(settings, now) {
      await db
        .insertInto('securitySettings')
        .values({ id: ID, ...settings, updatedAt: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      return (await read()) ?? settings;
    },
    async save(settings, now) {
      await db
        .insertInto('securitySettings')
        .values({ id: ID, ...settings, updatedAt: now })
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...settings, updatedAt: now }))
        .execute();
      return (await read()) ?? settings;
    },
  };
}
