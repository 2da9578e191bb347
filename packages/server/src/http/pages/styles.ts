import { sha256Hex } from '../../kernel/crypto.js';

/**
 * The one stylesheet of the server-rendered pages (hosted sign-in, the SSO setup portal). It is served from a path that carries its hash, so it can be
 * cached for a year (`immutable`) and a new release can never be shown with an old stylesheet; the
 * Content-Security-Policy then needs only `style-src 'self'` (no inline styles, no nonce).
 *
 * Design: the system font stack, one centered card, clear focus rings, inline error text, full-width
 * buttons; light and dark follow `prefers-color-scheme`; on narrow screens the card fills the screen.
 * Colour pairs meet WCAG AA contrast (4.5:1 for text) in both schemes.
 */
export const HOSTED_CSS = `:root {
  color-scheme: light dark;
  --bg: #f3f4f6;
  --card: #ffffff;
  --text: #1b1f24;
  --muted: #57606a;
  --border: #d0d7de;
  --field: #ffffff;
  --accent: #2f5bd3;
  --accent-hover: #2549ad;
  --accent-text: #ffffff;
  --danger: #b42318;
  --danger-bg: #fef3f2;
  --ok: #1a7f37;
  --warn: #9a6700;
  --focus: #2f5bd3;
  --shadow: 0 1px 3px rgb(0 0 0 / 6%), 0 8px 24px rgb(0 0 0 / 6%);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1115;
    --card: #181b21;
    --text: #e6e8eb;
    --muted: #a3acb9;
    --border: #353c47;
    --field: #111318;
    --accent: #7aa2ff;
    --accent-hover: #9bb8ff;
    --accent-text: #0b1020;
    --danger: #ff8a80;
    --danger-bg: #2a1614;
    --ok: #56d364;
    --warn: #e3b341;
    --focus: #9bb8ff;
    --shadow: none;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  align-items: center;
  justify-content: center;
  padding: 2rem 1rem;
  background: var(--bg);
  color: var(--text);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", Arial, sans-serif;
  font-size: 1rem;
  line-height: 1.5;
}
.card {
  width: 100%;
  max-width: 26rem;
  padding: 2rem;
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: 12px;
  box-shadow: var(--shadow);
}
.brand { margin: 0 0 1.5rem; font-size: 1.125rem; font-weight: 700; letter-spacing: 0.02em; }
h1 { margin: 0 0 0.5rem; font-size: 1.5rem; line-height: 1.25; }
.lead { margin: 0 0 1.5rem; color: var(--muted); }
.lead strong { color: var(--text); }
p { margin: 0 0 1rem; }
a { color: var(--accent); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
form { margin: 0; }
.field { margin: 0 0 1rem; }
label { display: block; margin: 0 0 0.375rem; font-size: 0.9375rem; font-weight: 600; }
input[type="email"], input[type="password"], input[type="text"], input[type="tel"],
input[type="url"] {
  display: block;
  width: 100%;
  padding: 0.625rem 0.75rem;
  font: inherit;
  color: var(--text);
  background: var(--field);
  border: 1px solid var(--border);
  border-radius: 8px;
}
input[readonly] { background: transparent; color: var(--muted); }
input[aria-invalid="true"] { border-color: var(--danger); }
input:focus-visible { outline-offset: 0; border-color: var(--focus); }
.error {
  margin: 0 0 1rem;
  padding: 0.625rem 0.75rem;
  color: var(--danger);
  background: var(--danger-bg);
  border-left: 4px solid var(--danger);
  border-radius: 6px;
  font-weight: 500;
}
.button {
  display: flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  min-height: 2.75rem;
  padding: 0.625rem 1rem;
  font: inherit;
  font-weight: 600;
  text-decoration: none;
  border: 1px solid transparent;
  border-radius: 8px;
  cursor: pointer;
}
.button-primary { color: var(--accent-text); background: var(--accent); }
.button-primary:hover { background: var(--accent-hover); }
.button-secondary { color: var(--text); background: transparent; border-color: var(--border); }
.button-secondary:hover { background: var(--bg); }
.actions { display: flex; gap: 0.75rem; margin-top: 1.5rem; }
.actions > * { flex: 1 1 0; }
.stack { display: grid; gap: 0.75rem; }
.provider { gap: 0.625rem; }
.provider img { flex: none; }
.divider { display: flex; align-items: center; gap: 0.75rem; margin: 1.25rem 0; color: var(--muted); font-size: 0.875rem; }
.divider::before, .divider::after { content: ""; flex: 1 1 0; border-top: 1px solid var(--border); }
.alt { margin: 1.25rem 0 0; font-size: 0.9375rem; text-align: center; }
.choices { display: grid; gap: 0.5rem; margin: 0; padding: 0; list-style: none; }
.choice {
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  width: 100%;
  padding: 0.75rem 1rem;
  font: inherit;
  text-align: left;
  color: var(--text);
  background: var(--field);
  border: 1px solid var(--border);
  border-radius: 8px;
  cursor: pointer;
}
.choice:hover { border-color: var(--accent); }
.choice-name { font-weight: 600; overflow-wrap: anywhere; }
.choice-meta { font-size: 0.875rem; color: var(--muted); }
.scopes { margin: 0 0 1rem; padding: 0; list-style: none; border: 1px solid var(--border); border-radius: 8px; }
.scopes li { padding: 0.625rem 0.875rem; border-top: 1px solid var(--border); overflow-wrap: anywhere; }
.scopes li:first-child { border-top: 0; }
.scope-name { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.875rem; }
.scope-description { display: block; font-size: 0.875rem; color: var(--muted); }
.muted { color: var(--muted); font-size: 0.9375rem; }
.qr { margin: 0 0 1rem; text-align: center; }
.qr img { width: 200px; height: 200px; image-rendering: pixelated; }
.secret { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
.codes { display: grid; grid-template-columns: 1fr; gap: 0.5rem; margin: 0 0 1.5rem; padding: 0; list-style: none; }
.codes code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 1rem; }
.user-code {
  margin: 0 0 1.5rem;
  padding: 0.75rem;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 1.75rem;
  font-weight: 700;
  letter-spacing: 0.15em;
  text-align: center;
  border: 1px solid var(--border);
  border-radius: 8px;
}
.card-wide { max-width: 46rem; }
.section { margin: 0; padding: 1.5rem 0 0; border-top: 1px solid var(--border); }
.section + .section { margin-top: 1.5rem; }
h2 { margin: 0 0 0.75rem; font-size: 1.125rem; line-height: 1.3; }
h3 { margin: 0 0 0.5rem; font-size: 1rem; }
.kv { display: grid; grid-template-columns: minmax(7rem, max-content) 1fr; gap: 0.5rem 1rem; margin: 0 0 1rem; }
.kv dt { font-weight: 600; font-size: 0.9375rem; }
.kv dd { margin: 0; min-width: 0; }
.copy {
  display: block;
  padding: 0.375rem 0.5rem;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.875rem;
  background: var(--bg);
  border: 1px solid var(--border);
  border-radius: 6px;
  overflow-wrap: anywhere;
  user-select: all;
}
.badge {
  display: inline-block;
  padding: 0.0625rem 0.5rem;
  font-size: 0.8125rem;
  font-weight: 600;
  border-radius: 999px;
  border: 1px solid var(--border);
  color: var(--muted);
}
.badge-ok { color: var(--ok); border-color: var(--ok); }
.badge-warn { color: var(--warn); border-color: var(--warn); }
.item { padding: 1rem; margin: 0 0 1rem; border: 1px solid var(--border); border-radius: 8px; }
.item-head { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem; margin: 0 0 0.75rem; }
.row { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: flex-end; }
.row > .field { flex: 1 1 14rem; margin: 0; }
.row > form, .row > .button { flex: 0 0 auto; width: auto; }
.row .button { width: auto; }
textarea, input[type="file"] {
  width: 100%;
  font: inherit;
  color: var(--text);
  background: var(--field);
  border: 1px solid var(--border);
  border-radius: 8px;
  padding: 0.5rem 0.75rem;
}
textarea { min-height: 7rem; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.8125rem; }
.notice { padding: 0.75rem 1rem; margin: 0 0 1rem; border-radius: 8px; border: 1px solid var(--ok); }
.notice.caution { border-color: var(--warn); }
.result { margin: 0; padding: 0; list-style: none; font-size: 0.875rem; }
.result li { overflow-wrap: anywhere; }
@media (max-width: 30rem) {
  body { align-items: stretch; padding: 0; }
  .card { min-height: 100vh; padding: 1.5rem 1.25rem; border: 0; border-radius: 0; box-shadow: none; }
  .actions { flex-direction: column; }
  .kv { grid-template-columns: 1fr; }
}
@media (forced-colors: active) {
  .button, .choice { border-color: ButtonText; }
}
`;

/** First 16 hex digits of the stylesheet's SHA-256: names the cached file and is its ETag. */
export const HOSTED_CSS_HASH = sha256Hex(HOSTED_CSS).slice(0, 16);

/** The stylesheet's path relative to the auth base; a changed stylesheet gets a new path. */
export const STYLESHEET_PATH = `/assets/svc-${HOSTED_CSS_HASH}.css`;
