/**
 * The template renderer: `{{name}}` substitution and nothing else (no logic, no partials), so that an
 * operator override cannot run code or reach data the caller did not pass. In the HTML part every value
 * is HTML-escaped; the subject and text part take values as they are.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9]*)\s*\}\}/g;

/** The variable names a template text uses, each once, in order of first use. */
export function placeholdersIn(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(PLACEHOLDER)) names.add(match[1] ?? '');
  return [...names];
}

/** Escapes the five characters that matter in HTML text and attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * Replaces each `{{name}}` with its value (escaped when `html`). A name without a value is a programming
 * error of the caller, not a delivery failure: it throws rather than mailing a half-filled message.
 */
export function renderTemplate(
  template: string,
  variables: Readonly<Record<string, string>>,
  options: { html: boolean },
): string {
  return template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
    if (value === undefined) throw new Error(`Email template variable "${name}" has no value.`);
    return options.html ? escapeHtml(value) : value;
  });
}
