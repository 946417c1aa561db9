// What the chain must refuse, sent through the official SDK's own request
// builders (the DIDBackend calls under publish and declare, which skip the
// SDK's local checks, and requests the SDK seals as it would on mainnet).
// Each refusal is the node's (HTTP 400 with the rule broken), and the chain
// is unchanged afterwards.

import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import {
  DIDBackend, DIDURL, Issuer, Mnemonic, RootIdentity, VerifiableCredential,
} from '@elastosfoundation/did-js-sdk';
import { connect, direct, edit, resolveRaw, rpc, storepass } from './sdknode.mjs';

let store, backend;
let a, b, c, d; // published standard DIDs
let multi; // did:elastos:refusalsmulti, 2 of {a, b, c}

before(async () => {
  ({ store } = await connect());
  backend = DIDBackend.getInstance();
  const identity = await RootIdentity.createFromMnemonic(Mnemonic.getInstance(Mnemonic.ENGLISH).generate(), '', store, storepass, true);
  [a, b, c, d] = await Promise.all([0, 1, 2, 3].map(async (i) => {
    const doc = await identity.newDid(storepass, i);
    await doc.publish(storepass);
    return doc;
  }));
  multi = await a.newCustomizedDidWithController('did:elastos:refusalsmulti', [b.getSubject(), c.getSubject()], 2, storepass);
  multi = await b.signWithDocument(multi, storepass);
  multi.setEffectiveController(a.getSubject());
  await multi.publish(storepass);
  multi = await multi.getSubject().resolve(true);
});

// refused sends what send sends through the direct adapter, expects the
// node to refuse it for rule, and the DID or credential id `of` to resolve
// to the same answer afterwards.
async function refused(rule, of, send) {
  const method = of instanceof DIDURL ? 'resolvecredential' : 'resolvedid';
  const read = () => rpc(method, method === 'resolvedid' ? { did: String(of), all: true } : { id: String(of) });
  const before = await read();
  await assert.rejects(send(), (err) => {
    assert.equal(err.name, 'Refused', `not refused by the node: ${err.stack}`);
    assert.equal(err.status, 400);
    assert.equal(err.rule, rule, err.message);
    return true;
  });
  assert.deepEqual(await read(), before, 'a refused request changed the chain');
}

test('create of a DID that exists', async () => {
  await refused('create-exists', a.getSubject(), () => backend.createDid(a, a.getDefaultPublicKeyId(), storepass, direct));
});

test('update that names another previous transaction', async () => {
  const doc = await edit(store, a, (b) => b.addService('#x', 'X', 'https://example.com/x'));
  await refused('previous-txid', a.getSubject(), () => backend.updateDid(doc, '00'.repeat(32), doc.getDefaultPublicKeyId(), storepass, direct));
});

test('deactivate by a DID the target did not authorize', async () => {
  // a authorizes b's key as #recovery; c signs for #recovery.
  const recovery = DIDURL.from('#recovery', a.getSubject());
  const target = await edit(store, a.getSubject(), (x) => x.authorizeDid(recovery, b.getSubject(), b.getDefaultPublicKeyId()));
  await target.publish(storepass);
  await refused('signature', a.getSubject(), () => backend.deactivateTargetDid(target, recovery, c, c.getDefaultPublicKeyId(), storepass, direct));
});

test('update of a customized DID that changes its controllers without a ticket', async () => {
  const doc = await edit(store, multi, async (x) => {
    x.removeController(c.getSubject());
    await x.addController(d.getSubject());
    x.setMultiSignature(2);
  }, { controller: a, cosigners: [b] });
  await refused('controller', multi.getSubject(), () => backend.updateDid(doc, multi.getMetadata().getTransactionId(), a.getDefaultPublicKeyId(), storepass, direct));
});

test('transfer with a ticket one controller short of the multisig rule', async () => {
  const ticket = await a.createTransferTicket(d.getSubject(), storepass, multi.getSubject());
  assert.equal(await ticket.isValid(), false, 'the SDK itself would not send it');
  const doc = await edit(store, multi, async (x) => {
    x.removeController(b.getSubject());
    x.removeController(c.getSubject());
    await x.addController(d.getSubject());
    x.setMultiSignature(2);
  }, { controller: a, cosigners: [d] });
  await refused('ticket', multi.getSubject(), () => backend.transferDid(doc, ticket, d.getDefaultPublicKeyId(), storepass, direct));
});

test('transfer of a standard DID', async () => {
  const ticket = await a.createTransferTicket(d.getSubject(), storepass, multi.getSubject());
  await refused('customized', c.getSubject(), () => backend.transferDid(c, ticket, c.getDefaultPublicKeyId(), storepass, direct));
});

test('credentials: declared twice, revoked twice, declared for a deactivated owner', async () => {
  const issue = async (name) => {
    const vc = await (await Issuer.create(b)).issueFor(c.getSubject()).id(`#${name}`)
      .typeWithContext('SelfProclaimedCredential', 'https://ns.elastos.org/credentials/v1')
      .properties({ [name]: 1 }).seal(storepass);
    vc.getMetadata().attachStore(store);
    return vc;
  };
  const vc = await issue('twice');
  await vc.declare(null, storepass);
  await refused('credential-declared', vc.getId(), () => backend.declareCredential(vc, c, c.getDefaultPublicKeyId(), storepass, direct));
  await vc.revoke(null, b, storepass);
  await refused('credential-revoked', vc.getId(), () => backend.revokeCredential(vc, b, b.getDefaultPublicKeyId(), storepass, direct));

  const late = await issue('late');
  await c.deactivate(null, storepass);
  await refused('credential-owner', late.getId(), () => backend.declareCredential(late, c, c.getDefaultPublicKeyId(), storepass, direct));
  assert.equal(await VerifiableCredential.resolve(late.getId(), null, true), null);
  assert.equal((await resolveRaw('did_resolveDID', c.getSubject())).status, 2);
});
