// W3C DID Resolution (GET /1.0/identifiers/{did}) against the official SDK:
// for a standard DID, customized DIDs (one controller; 2 of 3 with a
// multisig rule), a DID transferred to a new controller and a deactivated
// one, the node's didDocument is the document the SDK resolves (its
// normalized serialization), the SDK finds it genuine when it reads it
// back, and the metadata names the transactions the SDK's biography shows.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { DID, DIDDocument } from '@elastosfoundation/did-js-sdk';
import { connect, edit, publishedDids, restURL, storepass } from './sdknode.mjs';

if (!restURL) throw new Error('DIDLIGHT_REST_URL is not set: give the REST URL of a didlight node (go test ./host/internal/api/sdkinterop sets it)');

let store;
const ctrl = []; // four published standard DIDs

before(async () => {
  ({ store } = await connect());
  ctrl.push(...(await publishedDids(store, 4)));
});

/** w3c asks the node's W3C endpoint for did (a DID or DID URL, sent percent-encoded). */
async function w3c(did, accept) {
  const url = restURL.replace(/\/api\/v1\/?$/, '') + '/1.0/identifiers/' + encodeURIComponent(did).replace(/%3A/gi, ':');
  const res = await fetch(url, { headers: accept ? { Accept: accept } : {}, redirect: 'manual' });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), location: res.headers.get('location'), body: text && JSON.parse(text) };
}

/**
 * sameAsSDK checks the node's answer for did against the SDK: the document
 * is the SDK's resolved document, normalized; read back by the SDK it is
 * genuine; versionId is the transaction of the SDK's latest document.
 */
async function sameAsSDK(did, { status = 200, deactivated = false } = {}) {
  const answer = await w3c(String(did));
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  const bio = await did.resolveBiography();
  const latest = bio.getAllTransactions().find((tx) => String(tx.getRequest().getOperation()) !== 'deactivate');
  const doc = latest.getRequest().getDocument();
  assert.deepEqual(answer.body.didDocument, JSON.parse(doc.toString(true)), 'the didDocument is not the SDK’s normalized document');
  const back = await DIDDocument.parseAsync(JSON.stringify(answer.body.didDocument));
  assert.ok(back.isGenuine(), `the SDK does not find ${did}'s didDocument genuine`);
  const meta = answer.body.didDocumentMetadata;
  assert.equal(meta.versionId, latest.getTransactionId());
  assert.equal(meta.method.transactionCount, bio.getAllTransactions().length);
  assert.equal(meta.deactivated, deactivated || undefined);
  return answer;
}

test('a standard DID, created then updated', async () => {
  const [a] = ctrl;
  await sameAsSDK(a.getSubject());
  const updated = await edit(store, a.getSubject(), (b) => b.addService('#home', 'Homepage', 'https://example.com/a'));
  await updated.publish(storepass);
  const answer = await sameAsSDK(a.getSubject());
  assert.ok(answer.body.didDocumentMetadata.updated, 'an updated DID has no updated time');
  const home = await w3c(`${a.getSubject()}?service=home&relativeRef=/me.json`);
  assert.equal(home.status, 303);
  assert.equal(home.location, 'https://example.com/a/me.json');
  const key = await w3c(String(a.getDefaultPublicKeyId()), 'application/did+json');
  assert.equal(key.body.publicKeyBase58, a.getDefaultPublicKey().getPublicKeyBase58());
});

test('customized DIDs: one controller, and 2 of 3, whatever the case', async () => {
  const [a, b, c] = ctrl;
  const single = await a.newCustomized('did:elastos:w3csingle', storepass);
  await single.publish(storepass);
  await sameAsSDK(single.getSubject());

  let multi = await a.newCustomizedDidWithController('did:elastos:W3CMulti', [b.getSubject(), c.getSubject()], 2, storepass);
  multi = await b.signWithDocument(multi, storepass);
  multi.setEffectiveController(a.getSubject());
  await multi.publish(storepass);
  const answer = await sameAsSDK(multi.getSubject());
  assert.equal(answer.body.didDocument.multisig, '2:3');
  const lower = await w3c('did:elastos:w3cmulti');
  assert.deepEqual(lower.body.didDocument, answer.body.didDocument);
  assert.equal(lower.body.didDocumentMetadata.canonicalId, 'did:elastos:W3CMulti');
});

test('a transferred DID resolves to the document the transfer published', async () => {
  const [a, b, , d] = ctrl;
  const subject = new DID('did:elastos:W3CMulti');
  const current = await subject.resolve(true);
  let ticket = await a.createTransferTicket(d.getSubject(), storepass, subject);
  ticket = await b.signWithTicket(ticket, storepass);
  const next = await edit(store, current, async (builder) => {
    for (const x of current.getControllers()) if (!x.equals(a.getSubject())) builder.removeController(x);
    await builder.addController(d.getSubject());
    builder.setMultiSignature(2);
  }, { controller: a, cosigners: [d] });
  await next.publishWithTicket(ticket, d.getDefaultPublicKeyId(), storepass);
  const answer = await sameAsSDK(subject);
  assert.equal(answer.body.didDocumentMetadata.method.operation, 'transfer');
  const previous = (await subject.resolveBiography()).getAllTransactions()[1].getTransactionId();
  const before = await w3c(`did:elastos:W3CMulti?versionId=${previous}`);
  assert.equal(before.status, 200);
  assert.equal(before.body.contentMetadata.versionId, previous);
  assert.equal(before.body.contentMetadata.nextVersionId, answer.body.didDocumentMetadata.versionId);
});

test('a deactivated DID answers 410 with its last document', async () => {
  const [, , c] = ctrl;
  await c.deactivate(null, storepass);
  await sameAsSDK(c.getSubject(), { status: 410, deactivated: true });
});
