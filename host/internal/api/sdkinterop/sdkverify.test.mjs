// sdkverify.mjs (the SDK's verification timed by wasm/js/bench.mjs) on a
// history the node serves: a DID created and updated nine times through
// the SDK verifies; tampered, deactivated or expired, it does not.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { Mnemonic, RootIdentity } from '@elastosfoundation/did-js-sdk';
import { connect, edit, resolveRaw, storepass } from './sdknode.mjs';
import { setup } from './sdkverify.mjs';

let store, doc, history, verify;

before(async () => {
  ({ store } = await connect());
  const identity = await RootIdentity.createFromMnemonic(Mnemonic.getInstance(Mnemonic.ENGLISH).generate(), '', store, storepass, true);
  doc = await identity.newDid(storepass);
  await doc.publish(storepass);
  for (let i = 1; i < 10; i++) {
    const next = await edit(store, doc.getSubject(), (b) => b.addService(`#s${i}`, 'Counter', `https://example.com/${i}`));
    await next.publish(storepass);
  }
  history = await resolveRaw('did_resolveDID', doc.getSubject(), true);
  verify = await setup(); // from here on the SDK is offline
});

const now = () => history.transaction[0].timestamp;

test('a 10-operation history from the node verifies', async () => {
  assert.equal(history.transaction.length, 10);
  await verify(JSON.stringify(history), now());
});

test('a history with one signature changed does not', async () => {
  const bad = structuredClone(history);
  const proof = bad.transaction[4].operation.proof;
  proof.signature = (proof.signature[0] === 'A' ? 'B' : 'A') + proof.signature.slice(1);
  await assert.rejects(verify(JSON.stringify(bad), now()), /does not verify/);
});

test('an expired one does not', async () => {
  const expires = (await store.loadDid(doc.getSubject())).getExpires();
  await assert.rejects(verify(JSON.stringify(history), new Date(expires.getTime() + 1000).toISOString()), /expired/);
});

test('a deactivated one does not', async () => {
  await assert.rejects(verify(JSON.stringify({ ...history, status: 2 }), now()), /status/);
});

test('verification never asks the network', async () => {
  await assert.rejects(doc.getSubject().resolve(true), /asked the network/);
});
