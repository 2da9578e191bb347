/**
 * The built-in email templates. They live in code (an operator override in `email_templates` replaces
 * subject, text and HTML of one key); docs/reference/sign-in.md "Password reset":
 * reset emails use the built-in template `auth.password-reset`.
 */
export interface EmailTemplate {
  readonly subject: string;
  readonly textBody: string;
  readonly htmlBody: string;
}

export interface BuiltInEmailTemplate extends EmailTemplate {
  readonly key: string;
  readonly description: string;
  /** The only variables the template (and any override of it) may use. */
  readonly variables: readonly string[];
}

/** Wraps the content of a message in one simple, inline-styled layout that mail clients render alike. */
function layout(title: string, content: string): string {
  return `<!doctype html>
<html><body style="margin:0;padding:0;background:#f4f5f7;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2933">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f5f7;padding:32px 0"><tr><td align="center">
<table role="presentation" width="480" cellpadding="0" cellspacing="0" style="background:#ffffff;border-radius:8px;padding:32px">
<tr><td style="font-size:20px;font-weight:600;padding-bottom:16px">${title}</td></tr>
<tr><td style="font-size:15px;line-height:1.5">${content}</td></tr>
<tr><td style="font-size:12px;color:#7b8794;padding-top:24px">{{productName}}</td></tr>
</table></td></tr></table></body></html>
`;
}

function button(label: string): string {
  return `<p style="margin:24px 0"><a href="{{link}}" style="background:#2563eb;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;display:inline-block">${label}</a></p>
<p style="font-size:13px;color:#52606d">Or paste this link into your browser:<br><span style="word-break:break-all">{{link}}</span></p>`;
}

const CODE_BLOCK =
  '<p style="font-size:28px;font-weight:700;letter-spacing:6px;margin:24px 0;font-family:Menlo,Consolas,monospace">{{code}}</p>';

const IGNORE = 'If you did not ask for this, you can ignore this email.';

export const BUILT_IN_TEMPLATES: readonly BuiltInEmailTemplate[] = [
  {
    key: 'auth.password-reset',
    description: 'Password reset link',
    variables: ['productName', 'link', 'expiresInMinutes'],
    subject: 'Reset your {{productName}} password',
    textBody: `Someone asked to reset the password of your {{productName}} account.\n\nReset it here: {{link}}\n\nThe link works once and expires in {{expiresInMinutes}} minutes. ${IGNORE}\n`,
    htmlBody: layout(
      'Reset your password',
      `<p>Someone asked to reset the password of your {{productName}} account.</p>${button('Reset password')}<p>The link works once and expires in {{expiresInMinutes}} minutes. ${IGNORE}</p>`,
    ),
  },
  {
    key: 'auth.email-otp',
    description: 'One-time sign-in code',
    variables: ['productName', 'code', 'expiresInMinutes'],
    // No code in the subject: subjects are kept in the delivery log and show on lock screens.
    subject: 'Your {{productName}} sign-in code',
    textBody: `Your {{productName}} code is {{code}}\n\nIt expires in {{expiresInMinutes}} minutes. ${IGNORE}\n`,
    htmlBody: layout(
      'Your sign-in code',
      `<p>Enter this code to continue to {{productName}}:</p>${CODE_BLOCK}<p>It expires in {{expiresInMinutes}} minutes. ${IGNORE}</p>`,
    ),
  },
  {
    key: 'auth.magic-link',
    description: 'Magic sign-in link',
    variables: ['productName', 'link', 'expiresInMinutes'],
    subject: 'Sign in to {{productName}}',
    textBody: `Sign in to {{productName}}: {{link}}\n\nThe link works once and expires in {{expiresInMinutes}} minutes. ${IGNORE}\n`,
    htmlBody: layout(
      'Sign in to {{productName}}',
      `<p>Click the button to sign in.</p>${button('Sign in')}<p>The link works once and expires in {{expiresInMinutes}} minutes. ${IGNORE}</p>`,
    ),
  },
  {
    key: 'auth.invitation',
    description: 'Invitation into an organization',
    variables: ['productName', 'organizationName', 'link', 'expiresInMinutes'],
    subject: 'You are invited to join {{organizationName}} on {{productName}}',
    textBody: `You are invited to join {{organizationName}} on {{productName}}.\n\nAccept the invitation: {{link}}\n\nThe invitation expires in {{expiresInMinutes}} minutes.\n`,
    htmlBody: layout(
      'Join {{organizationName}}',
      `<p>You are invited to join <strong>{{organizationName}}</strong> on {{productName}}.</p>${button('Accept invitation')}<p>The invitation expires in {{expiresInMinutes}} minutes.</p>`,
    ),
  },
  {
    key: 'auth.email-verification',
    description: 'Email address verification link',
    variables: ['productName', 'link', 'expiresInMinutes'],
    subject: 'Verify your email for {{productName}}',
    textBody: `Confirm that this address belongs to your {{productName}} account: {{link}}\n\nThe link expires in {{expiresInMinutes}} minutes. ${IGNORE}\n`,
    htmlBody: layout(
      'Verify your email',
      `<p>Confirm that this address belongs to your {{productName}} account.</p>${button('Verify email')}<p>The link expires in {{expiresInMinutes}} minutes. ${IGNORE}</p>`,
    ),
  },
  {
    key: 'email.test',
    description: 'Test message of the email admin',
    variables: ['productName'],
    subject: '{{productName}} test email',
    textBody: 'This is a test email from {{productName}}. Delivery works.\n',
    htmlBody: layout('Test email', '<p>This is a test email from {{productName}}. Delivery works.</p>'),
  },
];

/**
 * Variables whose values are secrets (one-time codes, links carrying tokens): the delivery log never
 * stores them, so a subject that uses one (an override may) is logged with the value masked.
 */
export const SECRET_VARIABLES: readonly string[] = ['code', 'link'];

/** What a preview fills a variable with when the operator gives no sample (productName is the configured name). */
export const SAMPLE_VALUES: Readonly<Record<string, string>> = {
  link: 'https://example.com/svc/auth/sample-link',
  code: '123456',
  expiresInMinutes: '15',
  organizationName: 'Example Organization',
};

const BY_KEY = new Map(BUILT_IN_TEMPLATES.map((template) => [template.key, template]));

/** The built-in template of a key, or undefined when the key is unknown. */
export function builtInTemplate(key: string): BuiltInEmailTemplate | undefined {
  return BY_KEY.get(key);
}
