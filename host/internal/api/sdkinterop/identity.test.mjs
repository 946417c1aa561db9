// Standard DIDs through the official SDK against a didlight node: a root
// identity from a mnemonic, create, update, synchronize into a new store,
// resolve with the SDK's own verification, biographies, deactivation by
// the DID itself and by an authorization key another DID holds.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import {
  DefaultDIDAdapter, DIDBackend, DIDBiographyStatus, DIDURL, Exceptions, HDKey, Mnemonic, RootIdentity,
} from '@elastosfoundation/did-js-sdk';
import { connect, edit, openStore, rpc, rpcURL, storepass } from './sdknode.mjs';
import { assertValid, publishedOps } from './verify.mjs';

let adapter, store, identity, mnemonic;

before(async () => {
  ({ adapter, store } = await connect());
  mnemonic = Mnemonic.getInstance(Mnemonic.ENGLISH).generate();
  assert.ok(Mnemonic.checkIsValid(mnemonic), 'the SDK made an invalid mnemonic');
  identity = await RootIdentity.createFromMnemonic(mnemonic, '', store, storepass, true);
});

test('a root identity from a mnemonic is the one the mnemonic names', (t) => {
  t.diagnostic(`mnemonic: ${mnemonic}`);
  assert.equal(identity.getId(), RootIdentity.getIdFromMnemonic(mnemonic, ''));
});

test('create: a new DID published is resolved, verified by the SDK, with its transaction', async () => {
  const doc = await identity.newDid(storepass);
  assert.equal(await doc.getSubject().resolve(true), null, 'a DID not yet published resolves to null');
  await doc.publish(storepass);

  const resolved = await doc.getSubject().resolve(true);
  await assertValid(resolved);
  assert.equal(resolved.getProof().getSignature(), doc.getProof().getSignature());
  assert.deepEqual(resolved.toJSON(), doc.toJSON());
  const meta = resolved.getMetadata();
  assert.match(meta.getTransactionId(), /^[0-9a-f]{64}$/);
  assert.ok(meta.getPublished() instanceof Date && !Number.isNaN(meta.getPublished().getTime()));
  assert.equal(meta.isDeactivated(), false);

  const bio = await doc.getSubject().resolveBiography();
  assert.ok(bio.getStatus().equals(DIDBiographyStatus.VALID));
  assert.deepEqual(await publishedOps(bio), ['create']);
  assert.equal(bio.getTransaction(0).getTransactionId(), meta.getTransactionId());
});

test('update: signed by a key the update adds; the biography chains to the create', async () => {
  const doc = await identity.newDid(storepass);
  await doc.publish(storepass);

  const keyId = DIDURL.from('#key2', doc.getSubject());
  const hd = HDKey.newWithMnemonic(mnemonic, '').deriveWithPath(HDKey.DERIVE_PATH_PREFIX + 100);
  await store.storePrivateKey(keyId, hd.serialize(), storepass);
  const updated = await edit(store, doc.getSubject(), (b) => {
    b.addAuthenticationKey(keyId, hd.getPublicKeyBase58());
    b.addService('#vault', 'HiveVault', 'https://vault.example.com/');
  });
  await updated.publish(storepass, keyId);

  const resolved = await doc.getSubject().resolve(true);
  await assertValid(resolved);
  assert.equal(resolved.getService('#vault').getServiceEndpoint(), 'https://vault.example.com/');
  assert.ok(resolved.isAuthenticationKey(keyId));

  const bio = await doc.getSubject().resolveBiography();
  assert.deepEqual(await publishedOps(bio), ['update', 'create']);
  const [upd, cre] = bio.getAllTransactions();
  assert.equal(upd.getRequest().getPreviousTxid(), cre.getTransactionId());
  assert.equal(String(upd.getRequest().getProof().getVerificationMethod()), String(keyId));
  assert.ok(upd.getTimestamp() >= cre.getTimestamp(), 'newest first');
});

test('synchronize: a new store restores the published DIDs from the mnemonic alone', async () => {
  const other = await openStore();
  const restored = await RootIdentity.createFromMnemonic(mnemonic, '', other, storepass, true);
  await restored.synchronize();
  const published = (await store.listDids()).map(String).sort();
  assert.ok(published.length >= 2, `the earlier tests published ${published.length} DIDs`);
  const synced = (await other.listDids()).map(String).sort();
  assert.deepEqual(synced, published);
  for (const d of synced) {
    const [a, b] = [await store.loadDid(d), await other.loadDid(d)];
    assert.deepEqual(b.toJSON(), a.toJSON(), `${d} restored as published`);
  }
});

test('deactivate by the DID itself: resolved as deactivated, still genuine, no more updates', async () => {
  const doc = await identity.newDid(storepass);
  await doc.publish(storepass);
  await doc.deactivate(null, storepass);

  const resolved = await doc.getSubject().resolve(true);
  assert.equal(resolved.getMetadata().isDeactivated(), true);
  assert.equal(await resolved.isDeactivated(), true);
  assert.equal(resolved.isGenuine(), true);
  assert.equal(await resolved.isValid(), false, 'a deactivated DID is not valid');

  const bio = await doc.getSubject().resolveBiography();
  assert.ok(bio.getStatus().equals(DIDBiographyStatus.DEACTIVATED));
  assert.deepEqual(await publishedOps(bio), ['deactivate', 'create']);
  assert.equal(String(bio.getTransaction(0).getRequest().getProof().getVerificationMethod()), String(doc.getDefaultPublicKeyId()));
  const latest = await DIDBackend.getInstance().resolveDidBiography(doc.getSubject(), false, true);
  assert.deepEqual(await publishedOps(latest), ['deactivate', 'create'], 'all=false: the deactivate and the document it ends');
  assert.equal(await doc.getSubject().isDeactivated(), true);

  const late = await edit(store, doc.getSubject(), (b) => b.addService('#late', 'Late', 'https://example.com/late'));
  await assert.rejects(late.publish(storepass), Exceptions.DIDDeactivatedException);
});

test('deactivate by an authorization key of another DID', async () => {
  const target = await identity.newDid(storepass);
  const holder = await identity.newDid(storepass);
  await holder.publish(storepass);

  const recovery = DIDURL.from('#recovery', target.getSubject());
  const authorized = await edit(store, target.getSubject(), (b) => b.authorizeDid(recovery, holder.getSubject(), holder.getDefaultPublicKeyId()));
  await authorized.publish(storepass);
  const published = await target.getSubject().resolve(true);
  assert.ok(published.isAuthorizationKey(recovery));

  await holder.deactivateTargetDID(target.getSubject(), null, storepass);

  const resolved = await target.getSubject().resolve(true);
  assert.equal(resolved.getMetadata().isDeactivated(), true);
  const bio = await target.getSubject().resolveBiography();
  assert.ok(bio.getStatus().equals(DIDBiographyStatus.DEACTIVATED));
  assert.deepEqual(await publishedOps(bio), ['deactivate', 'create']);
  assert.equal(String(bio.getTransaction(0).getRequest().getProof().getVerificationMethod()), String(recovery));
  assert.equal((await holder.getSubject().resolve(true)).getMetadata().isDeactivated(), false, 'the holder stays active');
});

test('the node agrees: resolvedid answers the same history in the interface form', async () => {
  const doc = await identity.newDid(storepass);
  await doc.publish(storepass);
  const result = await rpc('resolvedid', { did: String(doc.getSubject()), all: true });
  assert.equal(result.did, String(doc.getSubject()));
  assert.equal(result.status, 0);
  assert.equal(result.transaction.length, 1);
  assert.equal(result.transaction[0].txid, (await doc.getSubject().resolve(true)).getMetadata().getTransactionId());
});

test('a read-only app: DefaultDIDAdapter with the node\'s JSON-RPC URL resolves and verifies', async () => {
  const doc = await identity.newDid(storepass);
  await doc.publish(storepass);
  DIDBackend.initialize(new DefaultDIDAdapter(rpcURL));
  try {
    const resolved = await doc.getSubject().resolve(true);
    await assertValid(resolved);
    assert.deepEqual(resolved.toJSON(), doc.toJSON());
  } finally {
    DIDBackend.initialize(adapter);
  }
});
