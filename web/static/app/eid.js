// The resolve view when the page resolves through an EID endpoint (the
// ?endpoint= setting, or the upstream of a light node): the loader asks the
// endpoint as the DID SDKs do, the module verifies the answer with the
// histories and transactions it asks for, and the view says what was
// checked here and what was taken on the endpoint's word (the report).

import { h, replace, code, badge, link, time, errorBox, focusHeading, didRoute } from './dom.js';
import { badges, documentOf } from './verify.js';
import { statusNames, statusText, documentView, timeline, w3cAnswer, w3cMissing } from './resolve.js';
import { lightOf } from './node.js';

/** claims says what each report item means (docs/eid.md has them per method). */
const claims = {
  'answer-form': 'the answer has the form EID gives (statuses, txids, the DID asked for, the whole history asked for)',
  order: 'the operations are newest first, all about this DID',
  signatures: 'each operation is signed by a key allowed to sign it',
  'key-derivation': 'the DID is the address of a key of its documents',
  'document-proofs': 'every published document’s proofs',
  expiry: 'no document was published already expired',
  'previous-txid-links': 'each update names the transaction before it',
  'transfer-tickets': 'transfers carry tickets of the controllers of the time',
  controllers: 'other DIDs’ documents (controllers, signers), each history verified the same way',
  status: 'the status follows from the operations at the chain tip’s time',
  revokers: 'which revokes count',
  'listed-ids': 'every credential listed is under the DID, once',
  inclusion: 'that each transaction is in a block of the chain, under its txid',
  'block-time': 'the timestamps, and the order of operations stamped in one second',
  newest: 'that no newer operation was left out',
  history: 'the operations before the ones shown',
  'not-found': 'that a DID said not to exist does not',
  'reserved-names': 'that a customized DID’s name was free on the ELA main chain',
  provenance: 'the block and sender of the transactions that decided a waived check',
  'hidden-transactions': 'transactions EID does not show, which its status counts',
  'listed-credentials': 'which credentials the DID has declared',
  'controllers-at-times': 'that controllers and signers were live when they signed (their latest documents were used)',
  'migrated-operations': 'the document syntax and proofs and the previousTxid of operations from EID’s migration window (2021), which EID did not check either',
  'early-expiry': 'the expiry of documents EID recorded before it checked expiry',
};

/** reportView lists a report's claims, each under what was done with it. */
export function reportView(report) {
  const group = (title, kind, items) =>
    items.length > 0 && [
      h('dt', {}, title),
      h('dd', {}, h('ul', { class: `claims claims-${kind}` }, items.map((c) => h('li', { 'data-claim': c }, h('code', {}, c), ': ', claims[c] ?? '')))),
    ];
  return h(
    'section',
    { class: 'report', 'aria-labelledby': 'report-title', 'data-outcome': report.outcome },
    h('h3', { id: 'report-title' }, 'What was verified'),
    h(
      'dl',
      { class: 'facts' },
      group('Checked in this browser', 'checked', report.checked),
      group('Taken on the endpoint’s word', 'trusted', report.trusted),
      group('Checked by nobody', 'unchecked', report.unchecked),
    ),
  );
}

/**
 * judgedAt returns what the resolve of a light node's page is judged at:
 * the head the light node reports (its node state, read again), which it
 * verified its answers at; it serves no block of its own.
 */
async function judgedAt(app) {
  if (!app.eid.light) return { chainId: app.eid.chainId };
  const light = lightOf(await app.node.get('/node/state').catch(() => null)) ?? app.eid.light;
  return { chainId: light.chainId, now: light.head?.time, head: light.head };
}

/** render resolves did through the EID endpoint and shows what the verification proves. */
export async function render(app, out, did) {
  const { endpoint } = app.eid;
  replace(out, h('p', { class: 'loading', role: 'status' }, `Resolving ${did} through ${endpoint}…`));
  if (!app.didlight) {
    replace(out, errorBox(`${did} is not resolved`, `The verifier is not loaded (${app.verifierError ?? 'unknown reason'}).`, 'This page shows what an EID endpoint answers only once it is verified here.'));
    return;
  }
  const t0 = performance.now();
  const { chainId, now, head } = await judgedAt(app);
  let v, error;
  try {
    v = await app.didlight.resolveVerified(did, { endpoint, chainId, now });
  } catch (e) {
    if (e.name !== 'DidlightError' || !e.answer) {
      replace(out, errorBox(`${endpoint} could not resolve ${did}`, e.message));
      return;
    }
    error = e;
  }
  const ms = performance.now() - t0;
  const answer = v?.answer ?? error.answer;
  const txs = answer?.transaction ?? [];
  const section = h('section', { 'aria-labelledby': 'did-title', class: 'resolved', 'data-did': answer?.did ?? did });
  replace(out, section);
  const status = v?.expired ? 1 : answer?.status;
  section.append(
    h('h2', { id: 'did-title' }, h('span', { class: 'visually-hidden' }, 'DID '), code(answer?.did ?? did)),
    h('p', { class: 'status-line' }, badge(statusNames[status] ?? 'unchecked', statusText[status] ?? `status ${status}`), ' ', h('span', { class: 'hint' }, v?.expired ? '(EID says valid; its latest document has expired at the chain tip’s time)' : '(as the endpoint says; see the verification below)')),
    verdict(v, error, txs.length, ms, endpoint, head),
  );
  if (txs.length > 0) {
    const doc = v?.document ?? documentOf(txs.find((t) => documentOf(t.operation))?.operation);
    if (doc) section.append(documentView(doc, !v));
    const marks = v ? txs.map((tx) => (v.migrated?.includes(tx.txid) ? 'migrated' : 'verified')) : badges(answer, null, error);
    section.append(timeline(txs, marks, error, { chainLinks: false }));
  }
  if (v) section.append(reportView(v.report));
  section.append(await w3cView(app, v, did));
  focusHeading(section);
}

/** tipText says what the status was judged at: the endpoint's head block, a light node's head, or this computer's clock. */
function tipText(v, endpoint, head) {
  if (v.tip.source === 'block') return ` (block ${v.tip.number} of ${endpoint}, chain ${v.chainId})`;
  if (v.tip.source === 'given') return ` (the head of its upstream the light node reports, block ${head?.height}; chain ${v.chainId})`;
  return ` (this computer’s clock: ${endpoint} tells no head block; chain ${v.chainId})`;
}

/** verdict says what the verification of the endpoint's answer found. */
function verdict(v, error, n, ms, endpoint, head) {
  if (error) {
    const where = typeof error.index === 'number' && error.index >= 0 ? `Operation ${error.index + 1} of ${n} (newest first), transaction ${error.txid}` : 'The answer as a whole';
    return h(
      'div',
      { class: 'verdict verdict-failed', 'data-verdict': 'failed', role: 'alert' },
      h('strong', {}, badge('failed', 'Verification failed'), ' — do not trust this answer.'),
      h('p', {}, `${where} breaks the rule “${error.rule ?? error.type}”: ${error.detail ?? error.message}`),
      h('p', { class: 'hint' }, `Module error: ${error.message}`),
    );
  }
  const tipLine = h('p', { class: 'tip' }, 'Judged at the chain tip’s time ', time(v.tip.time.toISOString()), tipText(v, endpoint, head));
  if (v.status === 3) {
    return h('div', { class: 'verdict verdict-notfound', 'data-verdict': 'notfound', role: 'status' }, h('strong', {}, badge('notfound', 'No such DID')), h('p', {}, `${endpoint} says this DID has never been published. A light client cannot prove that something is absent: another node may know it.`), tipLine);
  }
  const fetched = v.fetched.dids.map((f) => f.did);
  const scope = v.complete ? `all ${n} operation${n === 1 ? '' : 's'} from the create on` : `the ${n} operations shown (the oldest checked on its own)`;
  const migrated = v.report.outcome === 'migrated';
  return h(
    'div',
    { class: `verdict verdict-${migrated ? 'migrated' : 'verified'}`, 'data-verdict': migrated ? 'migrated' : 'verified', role: 'status' },
    h('strong', {}, migrated ? badge('migrated', 'Verified in this browser, but for migrated operations') : badge('verified', 'Verified in this browser'), ` — ${v.statusName}${v.expired ? ', expired at the chain tip’s time' : ''}`),
    h('p', {}, `The module checked ${scope}; resolved and verified in ${ms.toFixed(1)} ms, the endpoint’s answers included. What it checked and what it took on the endpoint’s word is listed below.`),
    migrated && h('p', {}, `${v.migrated.length} operation${v.migrated.length === 1 ? ' is' : 's are'} from EID’s migration window: the retired ID chain’s DIDs, re-published in 2021 without their documents’ checks. Their signatures were checked here; the rest nobody checked.`),
    fetched.length > 0 && h('ul', { class: 'controllers' }, fetched.map((d) => h('li', {}, link(didRoute(d), d), ': ', badge('verified', 'history fetched and verified')))),
    tipLine,
  );
}

/** w3cView shows the W3C DID Resolution answer the module builds from the verified history. */
async function w3cView(app, v, did) {
  if (!v) return w3cMissing(h('p', {}, 'Not built here: the history did not verify (see above).'));
  if (v.status !== 3 && !v.complete) return w3cMissing(h('p', {}, 'Not built here: W3C resolution needs the whole history.'));
  try {
    const r = await app.didlight.resolveW3CEid(v.answer, v.did || did, { now: v.tip.time, chainId: v.chainId, dids: v.fetched.dids, transactions: v.fetched.transactions });
    return w3cAnswer('verified', r, ['Built in this browser from the history verified above, as a W3C DID resolver answers (without block heights, which an EID answer does not give).']);
  } catch (e) {
    return w3cMissing(errorBox('The W3C resolution result could not be built', e.message));
  }
}
