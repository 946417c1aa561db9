// Credentials declared on chain through the official SDK against a didlight
// node: declare, resolve (did_resolveCredential) and verify, list
// (did_listCredentials) with skip and limit, revoke by the issuer, by the
// owner, before declaring, and a stranger's revoke that must not count.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import {
  CredentialBiographyStatus, Issuer, Mnemonic, RootIdentity, VerifiableCredential, VerifiablePresentation,
} from '@elastosfoundation/did-js-sdk';
import { connect, storepass } from './sdknode.mjs';

let store, owner, issuer, stranger;

before(async () => {
  ({ store } = await connect());
  const mnemonic = Mnemonic.getInstance(Mnemonic.ENGLISH).generate();
  const identity = await RootIdentity.createFromMnemonic(mnemonic, '', store, storepass, true);
  [owner, issuer, stranger] = await Promise.all([0, 1, 2].map(async (i) => {
    const doc = await identity.newDid(storepass, i);
    await doc.publish(storepass);
    return doc;
  }));
});

// issue makes a credential #name for the owner, signed by signer (the
// issuer's document, or the owner's for a self-proclaimed one), attached to
// the store so that it can be declared.
async function issue(signer, name, properties = { [name]: `${name} value` }) {
  const vc = await (await Issuer.create(signer)).issueFor(owner.getSubject()).id(`#${name}`)
    .typeWithContext('SelfProclaimedCredential', 'https://ns.elastos.org/credentials/v1')
    .properties(properties).seal(storepass);
  vc.getMetadata().attachStore(store);
  return vc;
}

// statusOf resolves a credential's biography and checks that each of its
// transactions verifies by the SDK's rules.
async function statusOf(id, by = null) {
  const bio = await VerifiableCredential.resolveBiography(id, by);
  for (const tx of bio.getAllTransactions()) {
    assert.ok(await tx.getRequest().isValid(), `${tx.getTransactionId()} of ${id} does not verify`);
  }
  return [bio.getStatus(), bio.getAllTransactions().map((tx) => String(tx.getRequest().getOperation()))];
}

const declared = []; // ids the owner declared, oldest first

test('declare: a credential from an issuer resolves and verifies', async () => {
  const vc = await issue(issuer, 'email', { email: 'owner@example.com' });
  assert.equal(await VerifiableCredential.resolve(vc.getId(), null, true), null);
  assert.equal(await vc.wasDeclared(), false);
  await vc.declare(null, storepass);
  declared.push(vc.getId());

  const resolved = await VerifiableCredential.resolve(vc.getId(), null, true);
  assert.deepEqual(resolved.toJSON(), vc.toJSON());
  assert.ok(await resolved.isGenuine(), 'not genuine');
  assert.ok(await resolved.isValid(), 'not valid');
  assert.equal(await resolved.isRevoked(), false);
  assert.equal(await vc.wasDeclared(), true);
  assert.match(resolved.getMetadata().getTransactionId(), /^[0-9a-f]{64}$/);
  assert.equal(String(resolved.getIssuer()), String(issuer.getSubject()));
  assert.deepEqual(await statusOf(vc.getId(), issuer.getSubject()), [CredentialBiographyStatus.VALID, ['declare']]);
});

test('declare: a self-proclaimed credential', async () => {
  const vc = await issue(owner, 'profile');
  assert.ok(vc.isSelfProclaimed());
  await vc.declare(null, storepass);
  declared.push(vc.getId());
  const resolved = await VerifiableCredential.resolve(vc.getId(), null, true);
  assert.ok(await resolved.isValid());
  assert.deepEqual(await statusOf(vc.getId()), [CredentialBiographyStatus.VALID, ['declare']]);
});

test('list: newest first, paged by skip and limit', async () => {
  for (let i = 0; i < 31; i++) {
    const vc = await issue(owner, `n${i}`);
    await vc.declare(null, storepass);
    declared.push(vc.getId());
  }
  const newestFirst = declared.map(String).reverse();
  const list = async (skip, limit) => (await VerifiableCredential.list(owner.getSubject(), skip, limit))?.map(String) ?? null;
  assert.deepEqual(await list(), newestFirst);
  assert.deepEqual(await list(0, 560), newestFirst, 'a limit above the chain\'s largest page is clamped, not refused');
  assert.deepEqual(await list(2, 2), newestFirst.slice(2, 4));
  assert.deepEqual(await list(30, 10), newestFirst.slice(30));
  assert.equal(await list(newestFirst.length, 2), null, 'a page past the end is empty (the SDK says null)');
  const pages = [];
  for (let skip = 0, page; (page = await list(skip, 7)) !== null; skip += page.length) pages.push(page);
  assert.deepEqual(pages.map((p) => p.length), [7, 7, 7, 7, 5]);
  assert.deepEqual(pages.flat(), newestFirst);
  assert.equal(await VerifiableCredential.list(stranger.getSubject()), null, 'a DID that declared nothing lists nothing');
});

test('revoke by the issuer: resolved as revoked, no longer valid, still listed', async () => {
  const id = declared[0];
  const vc = await VerifiableCredential.resolve(id, null, true);
  vc.getMetadata().attachStore(store);
  await vc.revoke(null, issuer, storepass);

  const resolved = await VerifiableCredential.resolve(id, null, true);
  assert.equal(resolved.getMetadata().isRevoked(), true);
  assert.equal(await resolved.isRevoked(), true);
  assert.equal(await resolved.isValid(), false);
  assert.deepEqual(await statusOf(id, issuer.getSubject()), [CredentialBiographyStatus.REVOKED, ['revoke', 'declare']]);
  assert.ok((await VerifiableCredential.list(owner.getSubject())).some((x) => x.equals(id)));
});

test('revoke by the owner of a self-proclaimed credential', async () => {
  const id = declared[1];
  const vc = await VerifiableCredential.resolve(id, null, true);
  vc.getMetadata().attachStore(store);
  await vc.revoke(null, null, storepass);
  assert.equal(await VerifiableCredential.resolve(id, null, true).then((x) => x.isRevoked()), true);
  assert.deepEqual(await statusOf(id), [CredentialBiographyStatus.REVOKED, ['revoke', 'declare']]);
});

test('revoke before declare: by the owner it counts; by the issuer when the issuer is named', async () => {
  const byOwner = await issue(issuer, 'early');
  await VerifiableCredential.revoke(byOwner.getId(), owner, null, storepass);
  assert.equal(await VerifiableCredential.resolve(byOwner.getId(), null, true), null, 'revoked, never declared: nothing to resolve');
  assert.deepEqual(await statusOf(byOwner.getId()), [CredentialBiographyStatus.REVOKED, ['revoke']]);
  assert.equal(await byOwner.isRevoked(), true);
  await assert.rejects(byOwner.declare(null, storepass), /revoked/i);

  const byIssuer = await issue(issuer, 'early2');
  await VerifiableCredential.revoke(byIssuer.getId(), issuer, null, storepass);
  assert.deepEqual(await statusOf(byIssuer.getId(), issuer.getSubject()), [CredentialBiographyStatus.REVOKED, ['revoke']]);
  assert.deepEqual(await statusOf(byIssuer.getId()), [CredentialBiographyStatus.NOT_FOUND, []], 'without the issuer, its revoke is a stranger\'s');
});

test('a stranger\'s revoke does not count', async () => {
  const vc = await issue(issuer, 'kept');
  await VerifiableCredential.revoke(vc.getId(), stranger, null, storepass);
  assert.equal(await vc.isRevoked(), false);
  await vc.declare(null, storepass);
  const resolved = await VerifiableCredential.resolve(vc.getId(), null, true);
  assert.ok(await resolved.isValid());
  assert.deepEqual(await statusOf(vc.getId()), [CredentialBiographyStatus.VALID, ['declare']]);
});

test('a presentation of a declared credential verifies, its holder and issuer resolved from the node', async () => {
  const vc = await VerifiableCredential.resolve(declared[2], null, true);
  const vp = await (await VerifiablePresentation.createFor(owner.getSubject(), null, store))
    .id('#vp').credentials(vc).realm('https://example.com/').nonce('interop').seal(storepass);
  assert.ok(await vp.isGenuine(), 'not genuine');
  assert.ok(await vp.isValid(), 'not valid');
});
