import { describe, expect, it } from 'vitest';
import { escapeHtml, placeholdersIn, renderTemplate } from './render.js';
import { sanitizeFailure } from './sanitize.js';
import { BUILT_IN_TEMPLATES } from './templates.js';

describe('email rendering', () => {
  it('substitutes variables, escaping them only in HTML', () => {
    const vars = { name: `<a href="x">O'Neil & co</a>` };
    expect(renderTemplate('Hi {{name}}!', vars, { html: false })).toBe(`Hi <a href="x">O'Neil & co</a>!`);
    expect(renderTemplate('<p>Hi {{ name }}!</p>', vars, { html: true })).toBe(
      '<p>Hi &lt;a href=&quot;x&quot;&gt;O&#39;Neil &amp; co&lt;/a&gt;!</p>',
    );
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });

  it('refuses a variable without a value, including inherited names', () => {
    expect(() => renderTemplate('{{toString}}', {}, { html: false })).toThrow(/"toString" has no value/);
  });

  it('lists placeholders once each', () => {
    expect(placeholdersIn('{{a}} {{ b }} {{a}} {{not-a-var}} {x}')).toEqual(['a', 'b']);
  });

  it('built-ins use only their declared variables, in every part', () => {
    for (const template of BUILT_IN_TEMPLATES) {
      const used = new Set([template.subject, template.textBody, template.htmlBody].flatMap(placeholdersIn));
      expect([...used].sort(), template.key).toEqual([...template.variables].sort());
    }
  });

  it('sanitizes failure details: URL credentials, secrets, length', () => {
    const error = Object.assign(new Error('Invalid login for smtp://mailer:pw%21@relay.test:587 (pw!)'), {
      code: 'EAUTH',
    });
    const detail = sanitizeFailure(error, ['pw!', 'pw%21']);
    expect(detail).toBe('EAUTH: Invalid login for smtp://***@relay.test:587 (***)');
    expect(sanitizeFailure(new Error('x'.repeat(2000)), [])).toHaveLength(500);
    expect(sanitizeFailure('weird', [])).toBe('Delivery failed.');
  });
});
