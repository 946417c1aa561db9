// The resolve view: a DID's status, its latest document and the timeline
// of its operations, each with the verdict of the in-browser verification.

import { h, replace, code, badge, table, link, external, time, errorBox, focusHeading, didRoute } from './dom.js';
import { check, badges, documentOf } from './verify.js';

/** statusNames and statusText name a status's badge and its text. */
export const statusNames = { 0: 'valid', 1: 'expired', 2: 'deactivated', 3: 'notfound' };
export const statusText = { 0: 'Valid', 1: 'Expired', 2: 'Deactivated', 3: 'Not found' };

/**
 * form is the DID entry form; it sends the user to #/resolve/<did>. Its
 * placeholder becomes a DID of the chain once the landing page has listed
 * them (recent.js).
 */
export function form(app, value = '') {
  const input = h('input', { id: 'did-input', name: 'did', type: 'text', value, required: true, autocomplete: 'off', spellcheck: 'false', placeholder: 'did:elastos:… or the bare id', 'aria-describedby': 'did-hint' });
  return h(
    'form',
    {
      class: 'entry',
      role: 'search',
      onsubmit: async (e) => {
        e.preventDefault();
        const did = await app.normalizeDID(input.value.trim());
        if (did) location.hash = '#' + didRoute(did);
      },
    },
    h('label', { for: 'did-input' }, 'DID'),
    input,
    h('button', { type: 'submit' }, 'Resolve'),
    h('p', { id: 'did-hint', class: 'hint' }, app.eid ? `A full DID or the bare id. ${app.eid.endpoint} sends its whole history; this page verifies it with the didlight module before showing it.` : 'A full DID or the bare id. The node sends its whole history; this page verifies it with the didlight module before showing it.'),
  );
}

/** render resolves did and shows what the verification proves. */
export async function render(app, out, did) {
  replace(out, h('p', { class: 'loading', role: 'status' }, `Resolving ${did}…`));
  let now, tip;
  try {
    tip = await app.node.tip();
    now = tip.time;
  } catch (e) {
    now = new Date();
    tip = { error: e };
  }
  let rec;
  try {
    rec = app.didlight ? await check(app.node, app.didlight, did, { now }) : await unverified(app.node, did);
  } catch (e) {
    replace(out, errorBox(`The node could not resolve ${did}`, e.message));
    return;
  }
  app.timings({ verifyMs: rec.verified || rec.error ? rec.ms : undefined });
  const section = h('section', { 'aria-labelledby': 'did-title', class: 'resolved', 'data-did': rec.did });
  replace(out, section);
  const status = rec.result?.status;
  section.append(
    h('h2', { id: 'did-title' }, h('span', { class: 'visually-hidden' }, 'DID '), code(rec.did)),
    h('p', { class: 'status-line' }, badge(statusNames[status] ?? 'unchecked', statusText[status] ?? `status ${status}`), ' ', h('span', { class: 'hint' }, '(as the node says; see the verification below)')),
    verdict(app, rec, now, tip),
  );
  const txs = rec.result?.transaction ?? [];
  if (txs.length > 0) {
    const doc = rec.verified?.document ?? documentOf(txs.find((t) => documentOf(t.operation))?.operation);
    if (doc) section.append(documentView(doc, !rec.verified));
    section.append(timeline(txs, badges(rec.result, rec.verified, rec.error), rec.error));
  }
  section.append(w3cView(app, rec));
  focusHeading(section);
}

/** unverified resolves without the module: the answers are shown, flagged. */
async function unverified(node, did) {
  const { text, result } = await node.callText('resolvedid', { did, all: true });
  let w3c;
  try {
    w3c = await node.w3c(result?.did ?? did);
  } catch (e) {
    w3c = { error: e };
  }
  return { did: result?.did ?? did, text, result, controllers: [], w3c };
}

/** verdict says what the verification of rec found. */
function verdict(app, rec, now, tip) {
  const at = h('span', {}, 'at the chain tip’s time ', time(now.toISOString()));
  const tipNote = tip.error && h('p', {}, `The chain tip could not be read (${tip.error.message}); expiry was judged at this computer’s clock.`);
  const ctrl = controllerLines(rec.controllers);
  if (!app.didlight) {
    return h('div', { class: 'verdict verdict-unverified', 'data-verdict': 'unverified', role: 'status' }, h('strong', {}, badge('unchecked', 'Not verified')), h('p', {}, `The verifier is not loaded (${app.verifierError ?? 'unknown reason'}): what follows is the node’s word only.`));
  }
  if (rec.error) {
    const e = rec.error;
    const where = typeof e.index === 'number' && e.index >= 0 ? `Operation ${e.index + 1} of ${rec.result.transaction.length} (newest first), transaction ${e.txid}` : 'The answer as a whole';
    return h(
      'div',
      { class: 'verdict verdict-failed', 'data-verdict': 'failed', role: 'alert' },
      h('strong', {}, badge('failed', 'Verification failed'), ' — do not trust this answer.'),
      h('p', {}, `${where} breaks the rule “${e.rule ?? e.type}”: ${e.detail ?? e.message}`),
      h('p', { class: 'hint' }, `Module error: ${e.message}`),
      ctrl,
      tipNote,
    );
  }
  const v = rec.verified;
  if (v.status === 3) {
    return h('div', { class: 'verdict verdict-notfound', 'data-verdict': 'notfound', role: 'status' }, h('strong', {}, badge('notfound', 'No such DID')), h('p', {}, 'The node says this DID has never been published. A light client cannot prove that something is absent: another node may know it.'));
  }
  const n = rec.result.transaction.length;
  const scope = v.complete ? `all ${n} operation${n === 1 ? '' : 's'} from the create on` : `the ${n} operations shown (the oldest checked on its own)`;
  return h(
    'div',
    { class: 'verdict verdict-verified', 'data-verdict': 'verified', role: 'status' },
    h('strong', {}, badge('verified', 'Verified in this browser'), ` — ${v.statusName}`),
    h('p', {}, `Signatures, previousTxid links, signers, document proofs and status were checked over ${scope}, `, at, `, in ${rec.ms.toFixed(1)} ms.`),
    ctrl,
    tipNote,
  );
}

function controllerLines(controllers) {
  if (!controllers?.length) return null;
  return h(
    'ul',
    { class: 'controllers' },
    controllers.map((c) =>
      h('li', {}, 'Controller ', link(didRoute(c.did), c.did), ': ', c.verified ? badge('verified', `document verified (${c.verified.statusName})`) : c.error ? badge('failed', `does not verify: ${c.error.message}`) : badge('unchecked', c.result?.status === 3 ? 'not found' : 'not checked')),
    ),
  );
}

/** documentView shows a document's keys, services and credentials. */
export function documentView(doc, isUnverified) {
  const auth = new Set([doc.authentication ?? []].flat().map((k) => (typeof k === 'string' ? k : k.id)));
  const authz = new Set([doc.authorization ?? []].flat().map((k) => (typeof k === 'string' ? k : k.id)));
  const short = (id) => (typeof id === 'string' && id.startsWith(doc.id + '#') ? id.slice(doc.id.length) : id);
  const keys = (doc.publicKey ?? []).map((k) => {
    const roles = [auth.has(k.id) || auth.has(short(k.id)) ? 'authentication' : '', authz.has(k.id) || authz.has(short(k.id)) ? 'authorization' : ''].filter(Boolean).join(', ');
    return [code(short(k.id)), k.type ?? '', code(k.controller ?? ''), code(k.publicKeyBase58 ?? ''), roles];
  });
  const services = (doc.service ?? []).map((s) => [code(short(s.id)), s.type ?? '', external(s.serviceEndpoint)]);
  const creds = [doc.verifiableCredential ?? []].flat();
  const controllers = [doc.controller ?? []].flat();
  return h(
    'section',
    { 'aria-labelledby': 'doc-title', class: 'document' },
    h('h3', { id: 'doc-title' }, 'Document', isUnverified ? h('span', { class: 'hint' }, ' (unverified: as the node sent it)') : ''),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Expires'),
      h('dd', {}, doc.expires ? time(doc.expires) : '—'),
      controllers.length > 0 && [h('dt', {}, 'Controllers'), h('dd', {}, controllers.map((c) => h('div', {}, link(didRoute(c), c)))), doc.multisig && [h('dt', {}, 'Multisig'), h('dd', {}, doc.multisig)]],
    ),
    keys.length > 0 && table('Public keys', ['Id', 'Type', 'Controller', 'Public key (base58)', 'Used for'], keys, { class: 'keys' }),
    services.length > 0 ? table('Services', ['Id', 'Type', 'Endpoint'], services, { class: 'services' }) : h('p', {}, 'No services.'),
    creds.length > 0 ? credentials(creds, short) : h('p', {}, 'No credentials.'),
    h('details', {}, h('summary', {}, 'Document JSON'), h('pre', {}, JSON.stringify(doc, null, 2))),
  );
}

function credentials(creds, short) {
  return h(
    'div',
    { class: 'credentials' },
    h('h4', {}, `Credentials (${creds.length})`),
    creds.map((c) =>
      h(
        'article',
        { class: 'credential' },
        h('h5', {}, code(short(c.id ?? '')), ' ', h('span', { class: 'types' }, [c.type ?? []].flat().join(', '))),
        h(
          'dl',
          { class: 'facts' },
          h('dt', {}, 'Issuer'),
          h('dd', {}, c.issuer ? code(c.issuer) : 'self'),
          h('dt', {}, 'Issued'),
          h('dd', {}, c.issuanceDate ? time(c.issuanceDate) : '—'),
          h('dt', {}, 'Expires'),
          h('dd', {}, c.expirationDate ? time(c.expirationDate) : '—'),
          Object.entries(c.credentialSubject ?? {})
            .filter(([k]) => k !== 'id')
            .map(([k, v]) => [h('dt', {}, k), h('dd', {}, typeof v === 'string' ? v : JSON.stringify(v))]),
        ),
      ),
    ),
  );
}

const badgeText = { verified: 'verified', failed: 'failed', unchecked: 'not checked', migrated: 'migrated: signature only' };

/** timeline lists the operations newest first, each with its badge. */
export function timeline(txs, marks, error, { chainLinks = true } = {}) {
  return h(
    'section',
    { 'aria-labelledby': 'timeline-title', class: 'timeline' },
    h('h3', { id: 'timeline-title' }, `Operations (${txs.length}, newest first)`),
    h(
      'ol',
      { class: 'ops' },
      txs.map((tx, i) => {
        const op = tx.operation ?? {};
        const hd = op.header ?? {};
        return h(
          'li',
          { class: `op op-${marks[i]}`, 'data-txid': tx.txid },
          h('div', { class: 'op-head' }, badge(marks[i], badgeText[marks[i]]), ' ', h('strong', { class: 'op-name' }, hd.operation ?? '?'), ' ', time(tx.timestamp)),
          h(
            'dl',
            { class: 'facts' },
            h('dt', {}, 'Transaction'),
            h('dd', {}, chainLinks ? link('/chain/tx/' + tx.txid, tx.txid, { class: 'mono' }) : code(tx.txid)),
            hd.previousTxid && [h('dt', {}, 'Previous'), h('dd', {}, chainLinks ? link('/chain/tx/' + hd.previousTxid, hd.previousTxid, { class: 'mono' }) : code(hd.previousTxid))],
            h('dt', {}, 'Signed by'),
            h('dd', {}, code(op.proof?.verificationMethod ?? '—')),
          ),
          marks[i] === 'failed' && h('p', { class: 'op-error', role: 'note' }, `${error.rule ?? error.type}: ${error.detail ?? error.message}`),
        );
      }),
    ),
  );
}

const httpText = { 200: 'OK', 303: 'See Other', 400: 'Bad Request', 404: 'Not Found', 406: 'Not Acceptable', 410: 'Gone', 500: 'Internal Server Error', 501: 'Not Implemented' };

/**
 * w3cView shows the DID's W3C DID Resolution result: built by the module
 * from the history it verified, or (without the module) as the node's
 * /1.0/identifiers endpoint sent it, flagged.
 */
function w3cView(app, rec) {
  const url = app.node.identifiersURL(rec.did);
  const endpoint = h('a', { href: url, rel: 'noopener noreferrer', target: '_blank', class: 'mono' }, '/1.0/identifiers/' + rec.did);
  if (!rec.w3c) return w3cMissing(h('p', {}, 'Not built here: the history did not verify (see above). The node answers at ', endpoint, '.'));
  if (rec.w3c.error) return w3cMissing(errorBox('The W3C resolution result could not be built', rec.w3c.error.message));
  const source = rec.verified
    ? ['Built in this browser from the history verified above, as the node’s ', endpoint, ' answers it (without block heights, which a resolve result does not give).']
    : ['As the node’s ', endpoint, ' sent it: ', h('strong', {}, 'not verified'), '.'];
  return w3cAnswer(rec.verified ? 'verified' : 'node', rec.w3c, source);
}

/** section is the W3C view's frame. */
const section = (attrs, ...children) => h('section', { class: 'w3c', 'aria-labelledby': 'w3c-title', ...attrs }, h('h3', { id: 'w3c-title' }, 'W3C DID Resolution'), ...children);

/** w3cAnswer shows a W3C DID Resolution answer {status, contentType, body}, and where it came from (source, the lines of a paragraph). */
export function w3cAnswer(from, { status, contentType, body }, source) {
  return section(
    { 'data-source': from, 'data-status': status },
    h('p', {}, ...source),
    h('p', {}, 'HTTP ', h('strong', { class: 'w3c-status' }, `${status} ${httpText[status] ?? ''}`.trim()), ', ', code(contentType ?? '')),
    h('details', {}, h('summary', {}, 'Resolution result (JSON)'), h('pre', { class: 'w3c-json' }, JSON.stringify(body, null, 2))),
  );
}

/** w3cMissing is the W3C view when no answer was built: why, in lines. */
export function w3cMissing(...lines) {
  return section({ 'data-source': 'none' }, ...lines);
}
