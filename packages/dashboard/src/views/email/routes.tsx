import { emailDeliveryStatusSchema } from '@svc/contract';
import { createRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { rootRoute } from '../../shell/root-route.js';
import { EmailPage } from './email-page.js';
import { TemplatePage } from './template-page.js';

/** The delivery log's filters in the link (`/email?status=failed&template=auth.magic-link`). */
const emailSearchSchema = z.object({
  status: emailDeliveryStatusSchema.optional().catch(undefined),
  template: z.string().max(200).optional().catch(undefined),
});

export const emailRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: 'email',
    validateSearch: emailSearchSchema,
    component: EmailPage,
  }),
  createRoute({ getParentRoute: () => rootRoute, path: 'email/templates/$key', component: TemplatePage }),
] as const;
