import {
  emailDeliveryViewSchema,
  emailTestSendSchema,
  type EmailDeliveryView,
  type EmailTemplateView,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiSend } from '../../api/client.js';
import { invalidate } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { TextField } from '../../ui/fields.js';
import { useContractForm } from '../../ui/form.js';
import { Panel } from '../../ui/page.js';

/** What happened to a test message, in the delivery log's own terms, and what to do about it. */
function outcome(delivery: EmailDeliveryView): { readonly ok: boolean; readonly text: string } {
  switch (delivery.status) {
    case 'sent':
      return {
        ok: true,
        text: `Sent to ${delivery.to}: the mail server accepted it${
          delivery.providerMessageId === null ? '' : ` as ${delivery.providerMessageId}`
        }. If it does not arrive, look in the spam folder, then at the mail server's log.`,
      };
    case 'queued':
      return {
        ok: true,
        text: `Queued for ${delivery.to}: the mail server has not answered yet. The delivery log below shows the outcome once it has.`,
      };
    case 'outbox':
      return {
        ok: false,
        text: `Not sent: stored in the outbox, because no mail server is configured (SVC_SMTP_URL). Set it to deliver email to ${delivery.to}.`,
      };
    case 'failed':
      return {
        ok: false,
        text: `Not sent to ${delivery.to}: ${delivery.failureDetail ?? 'the mail server refused it'}. Check SVC_SMTP_URL and the mail server, then send it again.`,
      };
  }
}

/**
 * Sends a template to an address, as saved (the `email.test` message unless `template` names one; the
 * server fills its variables with sample values), and says plainly what became of it.
 */
export function TestSend(props: { readonly template?: EmailTemplateView }) {
  const { template } = props;
  const client = useQueryClient();
  const [result, setResult] = useState<EmailDeliveryView>();
  const form = useContractForm({
    schema: emailTestSendSchema,
    initial: { to: '' },
    toBody: (values) => ({
      to: values.to.trim(),
      ...(template === undefined ? {} : { templateKey: template.key }),
    }),
    submit: async (body) => {
      setResult(undefined);
      setResult(await apiSend('POST', 'email', '/test', body, emailDeliveryViewSchema));
      await invalidate(client, 'email', ['/deliveries']);
    },
  });
  const said = result === undefined ? undefined : outcome(result);
  return (
    <Panel title="Test send">
      <form className="inline-form" onSubmit={form.onSubmit}>
        <TextField
          label="Send a test message to"
          type="email"
          autoComplete="email"
          field={form.field('to')}
          description={
            template === undefined
              ? 'Sends the “Test message” template, as it reads now, through the configured mail server.'
              : 'Sends this template as saved (save the content above first), with sample values, through the configured mail server.'
          }
        />
        <Button type="submit" tone="primary" isPending={form.pending}>
          Send test
        </Button>
      </form>
      <div role="status">
        {form.formError !== undefined && <p className="notice notice-error">Refused: {form.formError}</p>}
        {said !== undefined && (
          <p className={said.ok ? 'notice notice-ok' : 'notice notice-error'}>{said.text}</p>
        )}
      </div>
    </Panel>
  );
}
