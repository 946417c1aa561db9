// The query console: DIDs whose latest document has a service type, a
// credential type, or matches a find condition, paged with skip and limit.

import { h, replace, table, link, time, errorBox, focusHeading, didRoute } from './dom.js';

const kinds = [
  { value: 'service', label: 'Service type', placeholder: 'HiveVault' },
  { value: 'credential', label: 'Credential type', placeholder: 'EmailCredential' },
  { value: 'query', label: 'Find condition', placeholder: '{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}' },
];

/** parse reads a query route's parameters, with their defaults. */
export function parse(params) {
  const kind = kinds.some((k) => k.value === params.get('kind')) ? params.get('kind') : 'service';
  const int = (name, dflt) => {
    const n = Number.parseInt(params.get(name) ?? '', 10);
    return Number.isFinite(n) && n >= 0 ? n : dflt;
  };
  return { kind, q: params.get('q') ?? '', skip: int('skip', 0), limit: Math.min(Math.max(int('limit', 10), 1), 256) };
}

/** documentColumns head the table of documentRow rows. */
export const documentColumns = ['DID', 'Services', 'Credentials', 'Expires'];

/** documentRow is a table row for a document a query found: its DID (a link to resolve it), service types, credential types and expiry. */
export function documentRow(d) {
  return [
    link(didRoute(d.id), d.id, { class: 'mono' }),
    [d.service ?? []].flat().map((s) => s.type).join(', ') || '—',
    [d.verifiableCredential ?? []].flat().flatMap((c) => [c.type ?? []].flat()).filter((t) => t !== 'SelfProclaimedCredential').join(', ') || '—',
    d.expires ? time(d.expires) : '—',
  ];
}

const route = (p) => '#/query?' + new URLSearchParams({ kind: p.kind, q: p.q, skip: p.skip, limit: p.limit });

/** render shows the form and, when it has a value, the page of results. */
export async function render(app, out, p) {
  const kindInputs = kinds.map((k) =>
    h('label', { class: 'choice' }, h('input', { type: 'radio', name: 'kind', value: k.value, checked: k.value === p.kind }), ' ', k.label),
  );
  const input = h('input', { id: 'query-input', name: 'q', type: 'text', value: p.q, required: true, spellcheck: 'false', autocomplete: 'off', placeholder: kinds.find((k) => k.value === p.kind).placeholder });
  const limit = h('input', { id: 'query-limit', name: 'limit', type: 'number', min: 1, max: 256, value: p.limit });
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  const form = h(
    'form',
    {
      class: 'entry query',
      onsubmit: (e) => {
        e.preventDefault();
        const kind = new FormData(e.target).get('kind');
        location.hash = route({ kind, q: input.value.trim(), skip: 0, limit: Number(limit.value) || 10 });
      },
      onchange: (e) => {
        if (e.target.name === 'kind') input.placeholder = kinds.find((k) => k.value === e.target.value).placeholder;
      },
    },
    h('fieldset', {}, h('legend', {}, 'Find DIDs by'), kindInputs),
    h('label', { for: 'query-input' }, 'Value'),
    input,
    h('label', { for: 'query-limit' }, 'Per page'),
    limit,
    h('button', { type: 'submit' }, 'Search'),
    h('p', { class: 'hint' }, 'Latest documents of DIDs that are not deactivated (expired ones included), in creation order. A find condition may use relaxed JSON: {$exists:true}.'),
  );
  replace(out, h('section', { 'aria-labelledby': 'query-title' }, h('h2', { id: 'query-title' }, 'Query'), form, results));
  if (p.q) await page(app, results, p);
}

async function page(app, out, p) {
  replace(out, h('p', { class: 'loading', role: 'status' }, 'Searching…'));
  let r;
  try {
    r = await app.node.call('query', { [p.kind]: p.q, skip: p.skip, limit: p.limit });
  } catch (e) {
    replace(out, errorBox('The query failed', e.message));
    return;
  }
  const docs = r.document ?? [];
  const first = r.count > 0 ? r.start + 1 : r.start;
  const pages = Math.max(1, Math.ceil(r.total / p.limit));
  const current = Math.floor(r.start / p.limit) + 1;
  const rows = docs.map(documentRow);
  const prev = h('button', { type: 'button', class: 'prev', disabled: p.skip === 0, onclick: () => (location.hash = route({ ...p, skip: Math.max(0, p.skip - p.limit) })) }, '← Previous');
  const next = h('button', { type: 'button', class: 'next', disabled: r.start + r.count >= r.total, onclick: () => (location.hash = route({ ...p, skip: p.skip + p.limit })) }, 'Next →');
  replace(
    out,
    h(
      'div',
      { class: 'page', 'data-total': r.total, 'data-start': r.start, 'data-count': r.count },
      h('h3', {}, r.total === 0 ? 'No DID matches' : `${r.total} DID${r.total === 1 ? '' : 's'} match; showing ${first}–${r.start + r.count}`),
      rows.length > 0 && table(null, documentColumns, rows, { class: 'query-results' }),
      r.total > 0 && h('nav', { class: 'pager', 'aria-label': 'Result pages' }, prev, h('span', { class: 'page-no' }, `Page ${current} of ${pages}`), next),
      h('p', { class: 'hint' }, 'Query answers are the node’s word: a light client can check a document but not that a list is complete. Open a DID to verify its history.'),
    ),
  );
  focusHeading(out);
}
