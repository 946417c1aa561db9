// The landing page's way in: the DIDs most recently created on the node's
// chain, newest first, each a link that resolves and verifies it. They are
// the last page of a query every document matches ({}), so they are the
// DIDs that are not deactivated, as the query console lists them.

import { h, replace, table, errorBox } from './dom.js';
import { documentColumns, documentRow } from './query.js';

/** shown is how many DIDs the landing page lists. */
const shown = 8;

/** everyDocument is a find condition that every document satisfies. */
const everyDocument = '{}';

/**
 * recent returns the newest n documents of the node's DIDs, newest first,
 * and how many DIDs the query matched in all. Results come in creation
 * order, so it asks for the page that ends at the last one.
 */
export async function recent(node, n = shown) {
  let page = await node.call('query', { query: everyDocument, limit: n });
  if (page.total > n) page = await node.call('query', { query: everyDocument, skip: page.total - n, limit: n });
  return { total: page.total, documents: [...(page.document ?? [])].reverse() };
}

/**
 * render lists the recent DIDs in out and makes the newest one the DID
 * form's placeholder, so that what the page suggests is on this chain.
 */
export async function render(app, out, input) {
  replace(out, h('p', { class: 'loading', role: 'status' }, 'Finding the chain’s recent DIDs…'));
  let r;
  try {
    r = await recent(app.node);
  } catch (e) {
    replace(out, errorBox('The node did not list its DIDs', e.message, 'Type a DID above to resolve it.'));
    return;
  }
  if (r.documents.length === 0) {
    replace(out, h('p', { class: 'recent', 'data-total': 0 }, 'This chain has no DIDs yet. Publish some with the DID tools, or start the node with --demo.'));
    return;
  }
  input.placeholder = r.documents[0].id;
  const n = r.documents.length;
  replace(
    out,
    h(
      'section',
      { class: 'recent', 'aria-labelledby': 'recent-title', 'data-total': r.total },
      h('h3', { id: 'recent-title' }, 'Recent DIDs on this chain'),
      h('p', { class: 'hint' }, n < r.total ? `The ${n} newest of ${r.total} DIDs (deactivated ones aside), newest first. ` : `All ${n} DIDs (deactivated ones aside), newest first. `, 'Open one to resolve it and verify its whole history in this browser.'),
      table(null, documentColumns, r.documents.map(documentRow), { class: 'recent-dids' }),
    ),
  );
}
