import { z } from 'zod';

/**
 * GET /svc/admin/auth/api/calendar/status: whether calendar connections are on, so that the console can
 * show their page or say they are off (docs/reference/operator-api.md "Records"); the calendar routes
 * themselves are mapped only while they are on.
 */
export const svcCalendarStatusSchema = z.object({ enabled: z.boolean() });
export type SvcCalendarStatus = z.output<typeof svcCalendarStatusSchema>;
