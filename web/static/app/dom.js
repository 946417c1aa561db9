// Small DOM helpers. Everything a node sends is put in the page as text
// (textContent, attributes), never as HTML: a document's members are
// whatever its author wrote.

/**
 * h builds an element: h('a', {href: '#/x', class: 'c'}, 'text', child…).
 * Attributes whose value is null, undefined or false are left out; true
 * sets an empty attribute; on* attributes given a function add a listener.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

/** replace empties el and appends children. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** code is monospaced text that may break anywhere (hashes, keys, DIDs). */
export const code = (text, attrs = {}) => h('code', { class: 'mono', ...attrs }, text);

/** badge is a verification badge: kind is verified, failed, unchecked, valid, expired, deactivated or notfound. */
export function badge(kind, text) {
  const symbol = { verified: '✓', valid: '✓', failed: '✗', unchecked: '–', expired: '⌛', deactivated: '⊘', notfound: '?' }[kind] ?? '';
  return h('span', { class: `badge badge-${kind}`, 'data-badge': kind }, h('span', { 'aria-hidden': 'true' }, symbol + ' '), text);
}

/** table builds a table from a caption, column headers and rows of cells. */
export function table(caption, headers, rows, attrs = {}) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      attrs,
      caption && h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows.map((r) => h('tr', {}, r.map((cell, i) => (i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell)))))),
    ),
  );
}

/** didRoute is the route of a DID's resolve view; a DID's colons stay readable. */
export const didRoute = (did) => '/resolve/' + encodeURIComponent(did).replace(/%3A/gi, ':');

/** link is an anchor to an app route (#/…). */
export const link = (route, text, attrs = {}) => h('a', { href: '#' + route, ...attrs }, text);

/** external is a link out of the app for http(s) URLs, plain text otherwise. */
export function external(url) {
  try {
    const u = new URL(url);
    if (u.protocol === 'https:' || u.protocol === 'http:') return h('a', { href: u.href, rel: 'noopener noreferrer nofollow', target: '_blank' }, url);
  } catch {
    // not a URL: shown as text
  }
  return h('span', {}, String(url));
}

/** time formats an RFC 3339 time or Unix seconds as UTC, with the value in a <time>. */
export function time(t) {
  const d = typeof t === 'number' ? new Date(t * 1000) : new Date(t);
  if (Number.isNaN(d.getTime())) return h('span', {}, String(t));
  const iso = d.toISOString().replace('.000Z', 'Z');
  return h('time', { datetime: iso }, iso.replace('T', ' ').replace('Z', ' UTC'));
}

/** short abbreviates a long hash for narrow cells; the whole is in the title. */
export const short = (s, n = 10) => (s.length > 2 * n + 1 ? h('span', { title: s, class: 'mono' }, s.slice(0, n) + '…' + s.slice(-n)) : code(s));

/** errorBox is an alert with a title and detail lines. */
export function errorBox(title, ...lines) {
  return h('div', { class: 'alert alert-error', role: 'alert' }, h('strong', {}, title), lines.filter(Boolean).map((l) => h('p', {}, l)));
}

/** focusHeading moves keyboard focus to a heading so that a new result is read out. */
export function focusHeading(el) {
  const heading = el.querySelector('h2, h3');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: false });
  }
}
