// Customized DIDs through the official SDK against a didlight node: one
// controller, several controllers with a multisig rule, updates signed by
// enough controllers, a transfer to a new controller with a transfer
// ticket, and deactivation by a controller.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import {
  DID, DIDBiographyStatus, Exceptions, Issuer, VerifiableCredential,
} from '@elastosfoundation/did-js-sdk';
import { connect, edit, publishedDids, storepass } from './sdknode.mjs';
import { assertValid, publishedOps } from './verify.mjs';

let store;
const ctrl = []; // four published standard DIDs: the controllers, and the new owner

before(async () => {
  ({ store } = await connect());
  ctrl.push(...(await publishedDids(store, 4)));
});

const controllersOf = (doc) => doc.getControllers().map(String).sort();

test('one controller: create, resolve, update, verified by the SDK', async () => {
  const [a] = ctrl;
  const doc = await a.newCustomized('did:elastos:interopsingle', storepass);
  assert.equal(await doc.getSubject().resolve(true), null);
  await doc.publish(storepass);

  let resolved = await doc.getSubject().resolve(true);
  await assertValid(resolved);
  assert.ok(resolved.isCustomizedDid());
  assert.deepEqual(controllersOf(resolved), [String(a.getSubject())]);
  assert.equal(resolved.toJSON().publicKey, undefined, 'a customized DID with one controller needs no key of its own');

  const updated = await edit(store, doc.getSubject(), (b) => b.addService('#home', 'Homepage', 'https://example.com/single'), { controller: a });
  await updated.publish(storepass);

  resolved = await doc.getSubject().resolve(true);
  await assertValid(resolved);
  assert.equal(resolved.getService('#home').getServiceEndpoint(), 'https://example.com/single');
  assert.deepEqual(await publishedOps(await doc.getSubject().resolveBiography()), ['update', 'create']);
});

test('lookups of a customized DID are case-insensitive', async () => {
  const resolved = await new DID('did:elastos:InteropSingle').resolve(true);
  assert.ok(resolved, 'did:elastos:InteropSingle does not resolve');
  assert.equal(String(resolved.getSubject()).toLowerCase(), 'did:elastos:interopsingle');
});

test('several controllers, 2 of 3: create and update each signed by two', async () => {
  const [a, b, c] = ctrl;
  let doc = await a.newCustomizedDidWithController('did:elastos:interopmulti', [b.getSubject(), c.getSubject()], 2, storepass);
  assert.equal(doc.isGenuine(), false, 'one proof of two is not genuine yet');
  doc = await b.signWithDocument(doc, storepass);
  assert.equal(doc.isGenuine(), true);
  doc.setEffectiveController(a.getSubject());
  await doc.publish(storepass);

  let resolved = await doc.getSubject().resolve(true);
  await assertValid(resolved);
  assert.equal(String(resolved.getMultiSignature()), '2:3');
  assert.equal(resolved.getProofs().length, 2);
  assert.deepEqual(controllersOf(resolved), [a, b, c].map((d) => String(d.getSubject())).sort());

  const updated = await edit(store, resolved, (x) => x.addService('#hub', 'Hub', 'https://example.com/multi'), { controller: b, cosigners: [c] });
  updated.setEffectiveController(c.getSubject());
  await updated.publish(storepass);

  resolved = await doc.getSubject().resolve(true);
  await assertValid(resolved);
  assert.equal(resolved.getService('#hub').getServiceEndpoint(), 'https://example.com/multi');
  assert.deepEqual(await publishedOps(await doc.getSubject().resolveBiography()), ['update', 'create']);
});

test('transfer: tickets signed by the controllers hand the DID over, twice', async () => {
  const [a, b, c, d] = ctrl;
  const subject = new DID('did:elastos:interopmulti');

  // 2 of {a, b, c} → 2 of {a, d}: a ticket for d signed by a and b; the
  // new document signed by a (who edits it) and d (the new owner).
  const first = await transfer(subject, [a, b], d, async (builder) => {
    builder.removeController(b.getSubject());
    builder.removeController(c.getSubject());
    await builder.addController(d.getSubject());
    builder.setMultiSignature(2);
  }, a);
  assert.deepEqual(controllersOf(first), [a, d].map((x) => String(x.getSubject())).sort());
  assert.equal(String(first.getMultiSignature()), '2:2');

  // 2 of {a, d} → d alone: a ticket signed by a and d, edited by d.
  const second = await transfer(subject, [d, a], d, (builder) => builder.removeController(a.getSubject()), d);
  assert.deepEqual(controllersOf(second), [String(d.getSubject())]);
  assert.equal(second.isMultiSignature(), false);

  const bio = await subject.resolveBiography();
  assert.deepEqual(await publishedOps(bio), ['transfer', 'transfer', 'update', 'create']);
  const [last, prev] = bio.getAllTransactions();
  const ticket = last.getRequest().getTransferTicket();
  assert.equal(String(ticket.getTo()), String(d.getSubject()));
  assert.equal(ticket.getTransactionId(), prev.getTransactionId(), 'the ticket names the last transaction before it');
});

// transfer publishes subject to the new owner `to` with a ticket signed by
// signers, the document edited by editor with change, and returns the
// document resolved afterwards, checked valid.
async function transfer(subject, signers, to, change, editor) {
  const current = await subject.resolve(true);
  let ticket = await signers[0].createTransferTicket(to.getSubject(), storepass, subject);
  for (const s of signers.slice(1)) ticket = await s.signWithTicket(ticket, storepass);
  assert.ok(await ticket.isValid(), 'the SDK finds its own ticket invalid');
  assert.equal(ticket.getTransactionId(), current.getMetadata().getTransactionId());

  const next = await edit(store, current, change, { controller: editor, cosigners: editor === to ? [] : [to] });
  await next.publishWithTicket(ticket, to.getDefaultPublicKeyId(), storepass);

  const resolved = await subject.resolve(true);
  await assertValid(resolved);
  return resolved;
}

test('credentials between customized DIDs: issued, declared and revoked through their controllers', async () => {
  const issuerDoc = await store.loadDid('did:elastos:interopsingle');
  const vc = await (await Issuer.create(issuerDoc)).issueFor(new DID('did:elastos:interopmulti')).id('#member')
    .typeWithContext('SelfProclaimedCredential', 'https://ns.elastos.org/credentials/v1')
    .properties({ member: 'yes' }).seal(storepass);
  vc.getMetadata().attachStore(store);
  await vc.declare(null, storepass);
  const resolved = await VerifiableCredential.resolve(vc.getId(), null, true);
  assert.ok(await resolved.isValid(), 'a credential issued by a customized DID is not valid');

  await vc.revoke(null, issuerDoc, storepass);
  assert.equal(await VerifiableCredential.resolve(vc.getId(), null, true).then((x) => x.isRevoked()), true);
});

test('deactivate: a customized DID by a controller', async () => {
  const [a, , , d] = ctrl;
  await a.deactivateTargetDID(new DID('did:elastos:interopsingle'), null, storepass);
  const single = await new DID('did:elastos:interopsingle').resolve(true);
  assert.equal(single.getMetadata().isDeactivated(), true);
  const bio = await new DID('did:elastos:interopsingle').resolveBiography();
  assert.ok(bio.getStatus().equals(DIDBiographyStatus.DEACTIVATED));
  assert.deepEqual(await publishedOps(bio), ['deactivate', 'update', 'create']);

  // The transferred one, by its new controller.
  const multi = await store.loadDid('did:elastos:interopmulti');
  multi.setEffectiveController(d.getSubject());
  await multi.deactivate(null, storepass);
  const resolved = await new DID('did:elastos:interopmulti').resolve(true);
  assert.equal(resolved.getMetadata().isDeactivated(), true);
  await assert.rejects(a.newCustomized('did:elastos:interopmulti', storepass), Exceptions.DIDAlreadyExistException);

  // A 2:3 one, by one of its controllers alone.
  const [, b, c] = ctrl;
  let trio = await a.newCustomizedDidWithController('did:elastos:interoptrio', [b.getSubject(), c.getSubject()], 2, storepass);
  trio = await c.signWithDocument(trio, storepass);
  trio.setEffectiveController(a.getSubject());
  await trio.publish(storepass);
  await b.deactivateTargetDID(trio.getSubject(), null, storepass);
  assert.equal((await trio.getSubject().resolve(true)).getMetadata().isDeactivated(), true);
  assert.deepEqual(await publishedOps(await trio.getSubject().resolveBiography()), ['deactivate', 'create']);
});
