import { expect, it } from 'vitest';
import type { ScopeDisplayNameRecord } from '../../oauth/scope-display-names/repository.js';
import { describeEachDatabase, useMigratedDatabase } from '../../test-support/databases.js';
import { scopeDisplayNameRepository } from './scope-display-names.js';

const T0 = Date.UTC(2026, 10, 1);

function entry(
  id: string,
  scope: string,
  overrides: Partial<ScopeDisplayNameRecord> = {},
): ScopeDisplayNameRecord {
  return {
    id,
    scope,
    displayName: `Name of ${scope}`,
    description: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** The storage contract of scope display names (migration 0038), the same on SQLite and PostgreSQL. */
describeEachDatabase('scope display name storage', (kind) => {
  const database = useMigratedDatabase(kind);
  // Each test takes scopes of its own: the suite shares one database.
  const repository = () => scopeDisplayNameRepository(database.db);

  it('reads back what was inserted, longest and non-ASCII texts included, and refuses a second entry per scope', async () => {
    const long = entry('sdn_long', `read:${'x'.repeat(195)}`, {
      displayName: 'Ä'.repeat(100),
      description: '読み取り 🙂 '.repeat(50).slice(0, 500),
    });
    expect(await repository().insertIfScopeFree(long)).toBe(true);
    expect(await repository().insertIfScopeFree(entry('sdn_other', long.scope))).toBe(false);
    expect(await repository().findByScopes([long.scope, 'absent:scope'])).toEqual([long]);
    expect((await repository().list()).filter((row) => row.id.startsWith('sdn_long'))).toEqual([long]);
    expect(await repository().findByScopes([])).toEqual([]);
  });

  it('two concurrent creates for one scope: exactly one is stored', async () => {
    const outcomes = await Promise.all(
      ['sdn_race_1', 'sdn_race_2', 'sdn_race_3'].map((id) =>
        repository().insertIfScopeFree(entry(id, 'race:scope')),
      ),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    expect(await repository().findByScopes(['race:scope'])).toHaveLength(1);
  });

  it('replaces the texts (a description removed with null), and deletes answering the entry', async () => {
    const stored = entry('sdn_edit', 'edit:scope', { description: 'Before' });
    await repository().insertIfScopeFree(stored);
    const updated = await repository().update(
      'sdn_edit',
      { displayName: 'After', description: null },
      T0 + 5,
    );
    expect(updated).toEqual({ ...stored, displayName: 'After', description: null, updatedAt: T0 + 5 });
    expect(
      await repository().update('sdn_missing', { displayName: 'x', description: null }, T0),
    ).toBeUndefined();

    expect(await repository().delete('sdn_edit')).toEqual(updated);
    expect(await repository().delete('sdn_edit')).toBeUndefined();
    expect(await repository().findByScopes(['edit:scope'])).toEqual([]);
    // The scope is free again.
    expect(await repository().insertIfScopeFree(entry('sdn_edit_2', 'edit:scope'))).toBe(true);
  });
});
