// JSON values that serializers disagree on (HTML characters Go escapes by
// default, U+2028, control characters, astral code points, scripts written
// right to left, exponents, deep nesting, keys out of order) in a
// document's service properties and a credential's subject: the node must
// verify the proofs over the SDK's own normalization and serve each
// operation back exactly as the SDK posted it.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { Issuer, Mnemonic, RootIdentity, VerifiableCredential } from '@elastosfoundation/did-js-sdk';
import { connect, direct, edit, resolveRaw, rpc, storepass } from './sdknode.mjs';
import { assertValid } from './verify.mjs';

const awkward = {
  name: 'Tom & Jerry <tj@example.com>',
  text: '😀 \u2028 é \u0001\t\n "quoted" \\back',
  languages: '中文 日本語 한국어 العربية עברית Ελληνικά हिन्दी',
  numbers: [1.5, 42, -0.0001, 1e21, 1e-7, 0],
  flags: { t: true, f: false, none: null },
  nested: { z: [1, 'x', { b: 2, a: 1 }], y: {} },
};

let store, owner;
const sent = []; // every request the SDK posted, parsed
const recording = {
  async createIdTransaction(payload, memo) {
    sent.push(JSON.parse(payload));
    return direct.createIdTransaction(payload, memo);
  },
};

before(async () => {
  ({ store } = await connect());
  const identity = await RootIdentity.createFromMnemonic(Mnemonic.getInstance(Mnemonic.ENGLISH).generate(), '', store, storepass, true);
  owner = await identity.newDid(storepass);
  await owner.publish(storepass, null, false, recording);
});

test('service properties: published, verified, served back as posted', async () => {
  const doc = await edit(store, owner.getSubject(), (b) => b.addService('#odd', 'Odd', 'https://example.com/?a=1&b=<2>', awkward));
  await doc.publish(storepass, null, false, recording);
  const resolved = await owner.getSubject().resolve(true);
  await assertValid(resolved);
  assert.deepEqual(resolved.getService('#odd').getProperties(), awkward);
  const history = await resolveRaw('did_resolveDID', owner.getSubject(), true);
  assert.deepEqual(history.transaction.map((tx) => tx.operation), sent.slice(0, 2).reverse());
});

test('credential subject: declared, verified, served back as posted', async () => {
  const vc = await (await Issuer.create(owner)).issueFor(owner.getSubject()).id('#odd')
    .typeWithContext('SelfProclaimedCredential', 'https://ns.elastos.org/credentials/v1')
    .properties(awkward).seal(storepass);
  vc.getMetadata().attachStore(store);
  await vc.declare(null, storepass, recording);
  const resolved = await VerifiableCredential.resolve(vc.getId(), null, true);
  assert.ok(await resolved.isValid());
  assert.deepEqual(resolved.getSubject().getProperties(), awkward);
  const result = await rpc('resolvecredential', { id: String(vc.getId()) });
  assert.deepEqual(result.transaction[0].operation, sent.at(-1));
});
