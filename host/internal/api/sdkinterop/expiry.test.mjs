// Expired documents and credentials through the official SDK against a
// didlight node. The node's clock moves by dev_increaseTime; the SDK judges
// expiry by its own clock (the process's Date), which moves with it through
// node:test's mock timers, so that both sides see the same later day.

import assert from 'node:assert/strict';
import { after, before, mock, test } from 'node:test';
import {
  Exceptions, Issuer, Mnemonic, RootIdentity, VerifiableCredential,
} from '@elastosfoundation/did-js-sdk';
import { connect, edit, resolveRaw, rpc, storepass } from './sdknode.mjs';
import { assertValid } from './verify.mjs';

const day = 24 * 3600;
let store, short, renewed, lasting, expiring;

before(async () => {
  ({ store } = await connect());
  const identity = await RootIdentity.createFromMnemonic(Mnemonic.getInstance(Mnemonic.ENGLISH).generate(), '', store, storepass, true);
  const tomorrow = new Date(Date.now() + day * 1000);
  // short and renewed expire tomorrow, lasting in the SDK's default five years.
  [short, renewed, lasting] = await Promise.all([tomorrow, tomorrow, null].map(async (expires, i) => {
    let doc = await identity.newDid(storepass, i);
    if (expires) doc = await edit(store, doc, (b) => b.setExpires(expires));
    await doc.publish(storepass);
    return doc;
  }));
  // A credential of lasting's that expires tomorrow, declared today.
  expiring = await (await Issuer.create(lasting)).issueFor(lasting.getSubject()).id('#soon')
    .typeWithContext('SelfProclaimedCredential', 'https://ns.elastos.org/credentials/v1')
    .properties({ soon: true }).expirationDate(tomorrow).seal(storepass);
  expiring.getMetadata().attachStore(store);
  await expiring.declare(null, storepass);

  await assertValid(await short.getSubject().resolve(true));
  assert.equal((await resolveRaw('resolvedid', short.getSubject())).status, 0, 'valid before the clock moves');

  // Two days later, on both sides.
  const { time } = await rpc('dev_increaseTime', { seconds: 2 * day });
  mock.timers.enable({ apis: ['Date'], now: time * 1000 });
});

after(() => mock.timers.reset());

test('an expired document resolves, genuine but expired and not valid', async () => {
  const doc = await short.getSubject().resolve(true);
  assert.equal(doc.isGenuine(), true);
  assert.equal(doc.isExpired(), true);
  assert.equal(await doc.isValid(), false);
  assert.equal(doc.getMetadata().isDeactivated(), false);
  await assertValid(await lasting.getSubject().resolve(true));
});

test('the node says expired in the interface form, valid in the SDK form that leaves expiry to the SDK', async () => {
  assert.equal((await resolveRaw('resolvedid', short.getSubject())).status, 1);
  assert.equal((await resolveRaw('did_resolveDID', short.getSubject())).status, 0);
  assert.equal((await resolveRaw('resolvedid', lasting.getSubject())).status, 0);
});

test('an expired document is refused when published again; the chain is unchanged', async () => {
  const before = await resolveRaw('resolvedid', short.getSubject(), true);
  const doc = await store.loadDid(short.getSubject());
  await assert.rejects(doc.publish(storepass), Exceptions.DIDExpiredException, 'the SDK itself refuses without force');
  await assert.rejects(doc.publish(storepass, null, true), Exceptions.DIDTransactionException, 'the node refuses what force sends');
  assert.deepEqual(await resolveRaw('resolvedid', short.getSubject(), true), before);
});

test('an expired DID is renewed by an update with a later expiry', async () => {
  const doc = await edit(store, renewed.getSubject(), (b) => b.setDefaultExpires());
  await doc.publish(storepass);
  await assertValid(await renewed.getSubject().resolve(true));
  assert.equal((await resolveRaw('resolvedid', renewed.getSubject())).status, 0);
});

test('an expired credential resolves as expired, not valid', async () => {
  const vc = await VerifiableCredential.resolve(expiring.getId(), null, true);
  assert.ok(vc, 'the declared credential is gone');
  assert.equal(vc.isExpired(), true);
  assert.equal(await vc.isGenuine(), true);
  assert.equal(await vc.isValid(), false);
  assert.equal(await vc.isRevoked(), false);
});
