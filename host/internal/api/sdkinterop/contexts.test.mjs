// JSON-LD contexts (Features.enableJsonLdContext, off by default in the
// SDK): documents and credentials then carry @context members, which the
// node must keep byte for byte, since the proofs cover them.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { Features, Issuer, Mnemonic, RootIdentity, VerifiableCredential } from '@elastosfoundation/did-js-sdk';
import { connect, edit, storepass } from './sdknode.mjs';
import { assertValid } from './verify.mjs';

let store, holder, issuer;

before(async () => {
  Features.enableJsonLdContext(true);
  ({ store } = await connect());
  const identity = await RootIdentity.createFromMnemonic(Mnemonic.getInstance(Mnemonic.ENGLISH).generate(), '', store, storepass, true);
  [holder, issuer] = await Promise.all([0, 1].map(async (i) => {
    const doc = await identity.newDid(storepass, i);
    await doc.publish(storepass);
    return doc;
  }));
});

test('a document with contexts resolves as published and verifies', async () => {
  const resolved = await holder.getSubject().resolve(true);
  assert.ok(Array.isArray(resolved.toJSON()['@context']), 'the published document has no @context');
  assert.deepEqual(resolved.toJSON(), holder.toJSON());
  await assertValid(resolved);
});

test('a credential with contexts: declared, resolved, embedded in its owner\'s document', async () => {
  const vc = await (await Issuer.create(issuer)).issueFor(holder.getSubject()).id('#email')
    .typeWithContext('EmailCredential', 'https://ns.elastos.org/credentials/email/v1')
    .properties({ email: 'holder@example.com' }).seal(storepass);
  assert.ok(vc.toJSON()['@context'].includes('https://ns.elastos.org/credentials/email/v1'));
  vc.getMetadata().attachStore(store);
  await vc.declare(null, storepass);

  const resolved = await VerifiableCredential.resolve(vc.getId(), null, true);
  assert.deepEqual(resolved.toJSON(), vc.toJSON());
  assert.ok(await resolved.isValid());

  const doc = await edit(store, holder.getSubject(), (b) => b.addCredential(vc));
  await doc.publish(storepass);
  const published = await holder.getSubject().resolve(true);
  await assertValid(published);
  assert.ok(await published.getCredential('#email').isValid());
});
