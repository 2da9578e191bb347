import { expect, it } from 'vitest';
import { securitySettingsRepository } from '../storage/repositories/security-settings.js';
import { describeEachDatabase, useMigratedDatabase } from '../test-support/databases.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { DEFAULT_SECURITY_SETTINGS } from './security-settings.js';
import { SECURITY_SETTINGS_CACHE_MS, SecuritySettingsService } from './security-settings-service.js';

describeEachDatabase('security settings across nodes', (kind) => {
  const database = useMigratedDatabase(kind);
  const clock = new FakeClock();
  /** Two nodes sharing one database, each with its own service (and cache). */
  const node = () =>
    new SecuritySettingsService({
      repository: securitySettingsRepository(database.db),
      clock,
      defaults: { ...DEFAULT_SECURITY_SETTINGS },
    });

  it('applies an update at once on its node and within the cache span on the others', async () => {
    const [a, b] = [node(), node()];
    await a.initialize();
    expect((await b.getResolved()).refreshTokenGraceWindowSeconds).toBe(30);

    const saved = await a.update({ ...DEFAULT_SECURITY_SETTINGS, refreshTokenGraceWindowSeconds: 10 });
    expect(saved.refreshTokenGraceWindowSeconds).toBe(10);
    expect(await a.get()).toEqual(saved);
    expect((await a.getResolved()).refreshTokenGraceWindowSeconds).toBe(10);

    // Node b read the row before the update: it keeps what it read until the span is over.
    clock.advance(SECURITY_SETTINGS_CACHE_MS - 1);
    expect((await b.getResolved()).refreshTokenGraceWindowSeconds).toBe(30);
    clock.advance(1);
    expect((await b.getResolved()).refreshTokenGraceWindowSeconds).toBe(10);
    expect(await b.get()).toEqual(saved);
  });

  it('answers the stored fields from get() and the spans in milliseconds from getResolved()', async () => {
    const settings = node();
    const stored = await settings.get();
    expect(Object.keys(stored).sort()).toEqual(Object.keys(DEFAULT_SECURITY_SETTINGS).sort());
    const resolved = await settings.getResolved();
    expect(resolved.sessionIdleTimeoutMs).toBe(stored.sessionIdleTimeoutMinutes * 60_000);
    expect(resolved.refreshTokenLifetimeMs).toBe(stored.refreshTokenLifetimeMinutes * 60_000);
  });
});
