/**
 * A tiny HTML templating helper for the server-rendered pages (hosted sign-in, the SSO setup portal): the `html` tag escapes every interpolated value, so
 * user data (an email, an organization or client name, a login_hint) can never become markup. Trusted
 * fragments are opted in explicitly with `raw()` or by nesting another `html` template.
 *
 * Every value is escaped for both text and quoted-attribute context (`& < > " '` and the backtick, which
 * old Internet Explorer treated as an attribute quote), so the same rule holds wherever a value lands.
 * Templates must quote their attribute values: an unquoted attribute would end at a space. Escaping does
 * not make a URL safe to put in `href`; the pages only link to paths they build themselves, and the
 * Content-Security-Policy forbids scripts, so a `javascript:` URL could not run either.
 */

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes a string for HTML text and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (char) => ESCAPES[char] ?? char);
}

/**
 * Markup that is already safe: the output of `html` or `raw()`. The private field makes it impossible to
 * forge with a plain object (`{ value: '<script>' }` is escaped like any other value).
 */
export class SafeHtml {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  toString(): string {
    return this.#value;
  }
}

/**
 * What a template accepts: text (escaped), numbers, safe markup, arrays of these (joined without a
 * separator) and `false`, `null` or `undefined` (nothing), so that `${cond && html`…`}` works.
 */
export type HtmlValue = SafeHtml | string | number | false | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString();
  if (value === false || value === null || value === undefined) return '';
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  // Strings, numbers and anything untyped code slips in (an object with its own toString) are text.
  return escapeHtml(String(value));
}

/** The template tag: `html\`<p>${userInput}</p>\`` escapes `userInput`. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i += 1) {
    out += render(values[i]) + (strings[i + 1] ?? '');
  }
  return new SafeHtml(out);
}

/** Trusted markup inserted as is. Only for fragments the code itself wrote, never for input. */
export function raw(trusted: string): SafeHtml {
  return new SafeHtml(trusted);
}
