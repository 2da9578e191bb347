import { emailTemplateOverrideSchema, emailTemplateViewSchema, type EmailTemplateView } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { apiSend } from '../../api/client.js';
import { invalidate, useRecord } from '../../data/queries.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { TextField } from '../../ui/fields.js';
import { FormActions } from '../../ui/form-parts.js';
import { useContractForm } from '../../ui/form.js';
import { Time } from '../../ui/format.js';
import { Loading, Page, Panel } from '../../ui/page.js';
import { notify } from '../../ui/toast.js';
import { TemplatePreview } from './template-preview.js';
import { TestSend } from './test-send.js';

const route = getRouteApi('/email/templates/$key');

const placeholders = (template: EmailTemplateView) =>
  template.variables.map((variable) => `{{${variable}}}`).join(', ');

/**
 * The override form of one template: subject, text and HTML; saving replaces the built-in for every
 * message of the key, the preview renders the unsaved content on the server, a test send mails the saved
 * one, and a reset (behind a confirmation) removes the override. The page remounts it when the template changes.
 */
function TemplateEditor(props: { readonly template: EmailTemplateView }) {
  const { template } = props;
  const client = useQueryClient();
  const path = `/templates/${encodeURIComponent(template.key)}`;
  const refresh = () => invalidate(client, 'email', ['/templates']);
  const form = useContractForm({
    schema: emailTemplateOverrideSchema,
    initial: { subject: template.subject, textBody: template.textBody, htmlBody: template.htmlBody },
    toBody: (values) => values,
    submit: async (body) => {
      await apiSend('PUT', 'email', path, body, emailTemplateViewSchema);
      await refresh();
      notify.success('Override saved.', 'Every message of this template uses it from now on.');
    },
  });
  const reset = async () => {
    await apiSend('DELETE', 'email', path, undefined, emailTemplateViewSchema);
    await refresh();
    notify.success('Override removed.', 'The built-in template is used again.');
  };
  return (
    <>
      <Panel
        title="Content"
        actions={
          template.overridden && (
            <ConfirmButton label="Reset to default" title="Reset this template to the default?" run={reset}>
              <p>
                This removes the override of <code>{template.key}</code>: its subject, text and HTML are
                deleted, and the built-in template is used again for every message from now on. The override
                cannot be restored.
              </p>
            </ConfirmButton>
          )
        }
      >
        <form onSubmit={form.onSubmit} aria-label="Override">
          <p className="hint template-variables">Variables this template knows: {placeholders(template)}.</p>
          <TextField label="Subject" field={form.field('subject')} isRequired />
          <TextField label="Text part" field={form.field('textBody')} multiline isRequired />
          <TextField label="HTML part" field={form.field('htmlBody')} multiline isRequired />
          <FormActions form={form} submit="Save override" />
        </form>
      </Panel>
      <TemplatePreview template={template} content={form.values} />
      <TestSend template={template} />
    </>
  );
}

/** One email template: what it is for, its effective content, the override form and its preview. */
export function TemplatePage() {
  const { key } = route.useParams();
  const record = useRecord('email', `/templates/${encodeURIComponent(key)}`, emailTemplateViewSchema);
  const back = <Link to="/email">← Email</Link>;
  if (record.data === undefined) {
    return (
      <Page title="Email template" back={back}>
        <Loading error={record.error} retry={() => void record.refetch()} />
      </Page>
    );
  }
  const template = record.data;
  return (
    <Page
      title={template.description}
      back={back}
      description={
        <>
          <code>{template.key}</code> ·{' '}
          {template.overridden ? (
            <>
              overridden, last changed <Time iso={template.updatedAt} />
            </>
          ) : (
            'the built-in content'
          )}
        </>
      }
    >
      <TemplateEditor key={`${template.key} ${template.updatedAt ?? 'built-in'}`} template={template} />
    </Page>
  );
}
