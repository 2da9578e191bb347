import {
  emailTemplatePreviewResultSchema,
  emailTemplatePreviewSchema,
  type EmailTemplatePreview,
  type EmailTemplateView,
} from '@svc/contract';
import { useState } from 'react';
import { ApiError, apiSend, messageOf } from '../../api/client.js';
import { Button } from '../../ui/button.js';
import { TextField } from '../../ui/fields.js';
import { Panel } from '../../ui/page.js';

interface Content {
  readonly subject: string;
  readonly textBody: string;
  readonly htmlBody: string;
}

/** A refusal with the fields it names (`htmlBody: unknown variable {{x}}`). */
function refusal(error: unknown): string {
  const details = error instanceof ApiError ? error.details : [];
  return [messageOf(error), ...details.map((detail) => `${detail.path}: ${detail.message}`)].join(' ');
}

/**
 * The message as the server renders `content` (unsaved) with sample values: the operator's, or the
 * server's own for the variables left empty. The HTML part is shown in a sandboxed frame, which runs
 * nothing and inherits the console's CSP: inline style attributes apply (the page allows them for this,
 * docs/decisions/console-audit-email.md), `<style>` elements and remote images do not. Its links open
 * in a new tab, as in a mail client: followed inside the frame, the console's CSP would refuse them.
 */
export function TemplatePreview(props: { readonly template: EmailTemplateView; readonly content: Content }) {
  const { template } = props;
  const [samples, setSamples] = useState<Readonly<Record<string, string>>>({});
  const [preview, setPreview] = useState<EmailTemplatePreview>();
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);
  const run = async () => {
    const data = Object.fromEntries(Object.entries(samples).filter(([, value]) => value.trim() !== ''));
    const checked = emailTemplatePreviewSchema.safeParse({ ...props.content, data });
    if (!checked.success) {
      setError(checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join(' '));
      return;
    }
    setPending(true);
    try {
      const path = `/templates/${encodeURIComponent(template.key)}/preview`;
      setPreview(await apiSend('POST', 'email', path, checked.data, emailTemplatePreviewResultSchema));
      setError(undefined);
    } catch (failure) {
      setError(refusal(failure));
    } finally {
      setPending(false);
    }
  };
  return (
    <Panel title="Preview">
      <fieldset className="samples">
        <legend>Sample values</legend>
        <p className="hint">Left empty, a variable gets the server’s sample value.</p>
        <div className="filter-grid">
          {template.variables.map((variable) => (
            <TextField
              key={variable}
              label={`{{${variable}}}`}
              field={{
                name: variable,
                value: samples[variable] ?? '',
                onChange: (value) => setSamples((current) => ({ ...current, [variable]: value })),
                errorMessage: undefined,
              }}
            />
          ))}
        </div>
      </fieldset>
      <div className="form-actions">
        <Button onPress={() => void run()} isPending={pending}>
          Preview the content above
        </Button>
      </div>
      <div role="status">
        {error !== undefined && <p className="notice notice-error">Not rendered: {error}</p>}
      </div>
      {preview !== undefined && (
        <div className="email-preview">
          <h3>Subject</h3>
          <p className="email-subject">{preview.subject}</p>
          <h3>HTML part</h3>
          <iframe
            className="email-frame"
            title="The HTML part, rendered"
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={`<base target="_blank">${preview.htmlBody}`}
          />
          <p className="hint">
            Shown with its inline style attributes; style elements and images from other sites are not loaded
            in the console, and mail clients differ.
          </p>
          <h3>Text part</h3>
          <pre className="email-text" tabIndex={0}>
            {preview.textBody}
          </pre>
        </div>
      )}
    </Panel>
  );
}
