import { svcCalendarStatusSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import { operatorApi } from '../test-support/operator-api.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/** Whether calendar connections are on, as operators read it, over HTTP on both databases. */
describeEachDatabase('calendar status route', (kind) => {
  let off: TestSvc;
  let on: TestSvc;

  beforeAll(async () => {
    off = await createTestSvc(kind, { calendar: { enabled: false } });
    on = await createTestSvc(kind);
  });
  afterAll(async () => {
    await off.close();
    await on.close();
  });

  const status = async (t: TestSvc) => {
    const response = await operatorApi('/svc/admin/auth/api', () => t)('GET', '/calendar/status');
    expect(response.status, response.text).toBe(200);
    return svcCalendarStatusSchema.parse(response.body);
  };

  it('answers whether calendar connections are on, and their routes exist only then', async () => {
    expect(await status(off)).toEqual({ enabled: false });
    expect(await status(on)).toEqual({ enabled: true });
    const list = (t: TestSvc) => operatorApi('/svc/admin/calendar/api', () => t)('GET', '/connections');
    expect((await list(off)).status).toBe(404);
    expect((await list(on)).status).toBe(200);
  });

  it('answers 404 without the operator token', async () => {
    const response = await operatorApi('/svc/admin/auth/api', () => off)(
      'GET',
      '/calendar/status',
      undefined,
      false,
    );
    expect(response.status).toBe(404);
  });
});
